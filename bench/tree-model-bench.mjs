// Tree read-model benchmark: the pure parts of rendering the Handoffs tree on a store of 10,000 open handoffs.
//   - building the attention tree (groups and chains) from the records, as every render of a folder does;
//   - reading a store no stamp vouches for: its hash, the whole-file schema check (a cold read), against a re-read
//     after another process changed one record (bytes compared by position, only that record checked, digests reused).
// Prints median/p99 and ratios to `node -e 0` measured in the same run; asserts nothing about speed.
// usage: npx tsc -p . && node bench/tree-model-bench.mjs [--size 10000] [--runs 15]
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { seedScaleStore } from '../test/integration/seedScaleStore.mjs';
import { coreModule, percentile } from './benchSupport.mjs';

const { buildAttentionTree } = coreModule('domain/attentionTree');
const { StoreSnapshot } = coreModule('store/storeSnapshot');
const { defaultConfig } = coreModule('domain/configSchema');
const { storeHashOfBytes } = coreModule('store/storeHash');

const { values: opt } = parseArgs({ options: { size: { type: 'string', default: '10000' }, runs: { type: 'string', default: '15' } } });
const SIZE = Number(opt.size);
const RUNS = Number(opt.runs);

function time(fn) {
  const xs = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    fn(i);
    xs.push(performance.now() - t);
  }
  return xs;
}
const nodeStartMs = percentile(
  Array.from({ length: 5 }, () => {
    const t = performance.now();
    spawnSync(process.execPath, ['-e', '0']);
    return performance.now() - t;
  }),
  50,
);
function line(name, xs) {
  const median = percentile(xs, 50);
  console.log(
    `${name.padEnd(52)} median ${median.toFixed(2).padStart(8)} ms  p99 ${percentile(xs, 99).toFixed(2).padStart(8)} ms  ` +
      `(${(median / nodeStartMs).toFixed(2)}x node -e 0)`,
  );
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agentsync-tree-bench-'));
try {
  seedScaleStore(dir, SIZE);
  const text = fs.readFileSync(path.join(dir, '.agentsync/handoffs.json'), 'utf8');
  console.log(
    `tree model bench: ${SIZE} open handoffs (${(text.length / 1e6).toFixed(1)} MB), ${RUNS} runs; node -e 0: ${nodeStartMs.toFixed(1)} ms`,
  );

  const bytes = Buffer.from(text);
  const cold = time(() => StoreSnapshot.parse(bytes));
  line('cold read, whole-file schema check', cold);
  line(
    'hash of a file never hashed (every record)',
    time(() => storeHashOfBytes(Buffer.from(bytes))),
  );

  const previous = StoreSnapshot.parse(bytes);
  const edited = (i) => text.replace(/"summary": "Scale handoff 4242:[^"]*"/, `"summary": "Scale handoff 4242: edited ${i}"`);
  const files = Array.from({ length: RUNS }, (_, i) => Buffer.from(edited(i)));
  storeHashOfBytes(bytes);
  line(
    'hash after one record changed (digests reused)',
    time((i) => storeHashOfBytes(files[i])),
  );
  let snapshot;
  line(
    're-read after one record changed (parse incl.)',
    time((i) => (snapshot = StoreSnapshot.parse(files[i], false, { previous }))),
  );
  const reused = snapshot.handoffs.filter((h, i) => h === previous.handoffs[i]).length;
  console.log(`  records reused from the previous snapshot: ${reused} of ${SIZE}`);

  const ctx = { me: 'claude', humans: [], config: defaultConfig(), now: new Date() };
  let tree;
  line(
    'attention tree (groups + chains) from the records',
    time(() => (tree = buildAttentionTree(previous.handoffs, ctx))),
  );
  console.log(
    `  groups: ${Object.entries(tree)
      .map(([g, x]) => `${g} ${x.handoffs.length} (${x.top.length} rows)`)
      .join(', ')}`,
  );
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
