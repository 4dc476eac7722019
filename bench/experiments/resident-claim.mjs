// An option for CLI start-up time, not the product: what `agentsync claim` would cost if a warm process that already holds
// the core answered it over a local socket, the client being plain Node with built-ins only. It times the client
// process paired with `node -e 0` (alternating), on a store of 1,000 open handoffs, claim and release alternating.
// usage: npx tsc -p . && node bench/experiments/resident-claim.mjs [--rounds N]
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { coreModule, percentile } from '../benchSupport.mjs';

const { HandoffStore } = coreModule('store/handoffStore');
const { RequestDispatcher } = coreModule('requests/requestDispatcher');
const { WorkspaceLayout } = coreModule('workspace/workspaceLayout');
const { initWorkspace } = coreModule('workspace/workspaceInit');
const { storeSeed } = coreModule('store/storeReader');
const at = process.argv.indexOf('--rounds');
const ROUNDS = at > 0 ? Number(process.argv[at + 1]) : 21;

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agentsync-resident-'));
initWorkspace(dir, storeSeed(dir));
const dispatcher = new RequestDispatcher(new HandoffStore(new WorkspaceLayout(dir)), 'bench');
const create = (n) => ({
  action: 'createHandoff',
  handoff: { from_agent: 'codex', to_agents: ['claude'], owner_mode: 'single', summary: `resident ${n}`, files: ['src/r.ts'] },
});
let id;
for (let i = 0; i < 1000; i++) id = (await dispatcher.dispatch(create(i))).data.handoff.handoff_id;

const sock = path.join(dir, 'bench.sock');
const server = net.createServer({ allowHalfOpen: true }, (c) => {
  let text = '';
  c.on('data', (d) => (text += d));
  c.on('end', async () => c.end(JSON.stringify(await dispatcher.dispatch(JSON.parse(text)))));
});
await new Promise((r) => server.listen(sock, r));

// The client: plain Node, built-ins only; exit 0 when the response says ok.
const client = [
  `const c = require('node:net').connect(${JSON.stringify(sock)});`,
  "let o = ''; c.on('data', (d) => (o += d));",
  "c.on('end', () => { const r = JSON.parse(o); if (!r.ok) console.error(o); process.exitCode = r.ok ? 0 : 1; });",
  'c.end(process.argv[1]);',
].join('\n');
const wallAsync = (args) =>
  new Promise((resolve, reject) => {
    const t = performance.now();
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'inherit'] });
    child.on('exit', (code) => (code === 0 ? resolve(performance.now() - t) : reject(new Error(`exit ${code}`))));
  });

const claim = JSON.stringify({ action: 'claimHandoff', handoffId: id, agent: 'claude' });
const base = [];
const cmd = [];
for (let i = 0; i < ROUNDS + 2; i++) {
  let b, c;
  if (i % 2) ((c = await wallAsync(['-e', client, claim])), (b = await wallAsync(['-e', '0'])));
  else ((b = await wallAsync(['-e', '0'])), (c = await wallAsync(['-e', client, claim])));
  await dispatcher.dispatch({ action: 'transitionHandoff', handoffId: id, agent: 'claude', to: 'queued' });
  if (i >= 2) (base.push(b), cmd.push(c)); // the first two warm the file cache
}
server.close();
fs.rmSync(dir, { recursive: true, force: true });
const ratios = cmd.map((c, i) => c / base[i]);
console.log(`node ${process.version}; ${ROUNDS} pairs; store of 1,000 open handoffs`);
console.log(`node -e 0          median ${percentile(base, 50).toFixed(1)} ms  p99 ${percentile(base, 99).toFixed(1)} ms`);
console.log(`client claim       median ${percentile(cmd, 50).toFixed(1)} ms  p99 ${percentile(cmd, 99).toFixed(1)} ms`);
console.log(`ratio (median of pairs) ${percentile(ratios, 50).toFixed(2)}×`);
