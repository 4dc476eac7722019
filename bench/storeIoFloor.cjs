// The least any claim on this file format has to do, with nothing of AgentSync loaded: read handoffs.json, parse it,
// change one record, serialize it and write it back durably (temp file, fsync, rename). cli-start-bench.mjs times it
// against `node -e 0` to show how much of the CLI's ratio the store format itself costs. It writes a copy beside the
// store (floor-copy.json), never the store.
// usage: node bench/storeIoFloor.cjs <workspace>
const fs = require('node:fs');
const path = require('node:path');

const dir = path.join(process.argv[2], '.agentsync');
const store = JSON.parse(fs.readFileSync(path.join(dir, 'handoffs.json'), 'utf8'));
store.handoffs[0].rev = (store.handoffs[0].rev ?? 0) + 1;
const tmp = path.join(dir, 'floor-copy.json.tmp');
const fd = fs.openSync(tmp, 'w');
fs.writeSync(fd, JSON.stringify(store, null, 2) + '\n');
fs.fsyncSync(fd);
fs.closeSync(fd);
fs.renameSync(tmp, path.join(dir, 'floor-copy.json'));
