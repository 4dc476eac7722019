// The upgrade of a shared state from format 2 to 3 at scale (docs/contract.md §13, docs/upgrading.md): a state of
// 1,000 open and 99,000 archived records is written in format 3 by the product, re-laid on the server as format 2 (the
// archive over three levels, marker 2), then a fresh clone reads it, claims on it, runs `agentsync sync
// --upgrade-format` and claims again, and the first clone syncs past the upgrade. Prints each step's wall time and
// checks the archive's paths. A bare repository on a path (no daemon). Usage: node bench/format-upgrade-bench.mjs
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { syncedWorkspace, git, cliJson, nextQueued, REF, CLI } from './syncSeed.mjs';
const base = fs.mkdtempSync(path.join(os.tmpdir(), 'agentsync-upg-base-'));
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'agentsync-upg-work-'));
const bare = path.join(base, 's.git');
const w = syncedWorkspace({ base, work, name: 's', url: bare, open: 1000, finished: 99000, format: 3 });
let t = Date.now();
cliJson(w.ws, ['claim', nextQueued(w), '--agent', 'bench']);
console.log('first claim (archives 99,000):', Date.now() - t, 'ms');
// Re-lay the archive as format 2 (three levels), format marker 2, on the server.
const ls = git(['--git-dir', bare, 'ls-tree', '-r', REF, 'archive/']).trim().split('\n');
let stream = `commit refs/heads/tmp\ncommitter x <x@x> 1 +0000\ndata 2\nf2\nfrom ${git(['--git-dir', bare, 'rev-parse', REF]).trim()}\nD archive\n`;
for (const l of ls) {
  const [, oid, p] = /^100644 blob (\w+)\t(.*)$/.exec(l);
  const u = p.slice(-31, -5);
  stream += `M 100644 ${oid} archive/${u.at(-1)}/${u.at(-2)}/${u.at(-3)}/${u}.json\n`;
}
stream += `M 100644 inline format\ndata 2\n2\n\n`;
const fi = spawnSync('git', ['--git-dir', bare, 'fast-import', '--quiet'], { input: stream });
if (fi.status) throw new Error(String(fi.stderr));
git(['--git-dir', bare, 'update-ref', REF, 'refs/heads/tmp']);
console.log(
  'archive entries:',
  ls.length,
  'format now',
  git(['--git-dir', bare, 'show', `${REF}:format`]).trim(),
  'trees',
  git(['--git-dir', bare, 'rev-list', '--objects', '--no-object-names', REF + '^{tree}', '--not', REF + '^^{tree}']).split('\n').length,
);
// A fresh clone reads it (format 2), then upgrades.
const ws2 = path.join(work, 'b');
git(['clone', '--quiet', bare, ws2]);
spawnSync(process.execPath, [CLI, '--dir', ws2, 'sync', '--enable']);
t = Date.now();
const s = spawnSync(process.execPath, [CLI, '--dir', ws2, '--json', 'sync']);
console.log('fresh clone sync on format 2:', Date.now() - t, 'ms', JSON.parse(s.stdout).ok);
t = Date.now();
const c = spawnSync(process.execPath, [CLI, '--dir', ws2, '--json', 'claim', nextQueued(w), '--agent', 'bench']);
console.log('claim on format 2:', Date.now() - t, 'ms', JSON.parse(c.stdout).ok);
t = Date.now();
const u = spawnSync(process.execPath, [CLI, '--dir', ws2, '--json', 'sync', '--upgrade-format']);
console.log('upgrade 2 -> 3:', Date.now() - t, 'ms', JSON.parse(u.stdout).data?.format_upgrade);
const after = git(['--git-dir', bare, 'ls-tree', '-r', '--name-only', REF, 'archive/']).trim().split('\n');
console.log(
  'archive entries after:',
  after.length,
  'two-level:',
  after.every((p) => /^archive\/\w\/\w\/\w{26}\.json$/.test(p)),
  'format',
  git(['--git-dir', bare, 'show', `${REF}:format`]).trim(),
);
t = Date.now();
const c2 = spawnSync(process.execPath, [CLI, '--dir', ws2, '--json', 'claim', nextQueued(w), '--agent', 'bench']);
console.log('claim on format 3:', Date.now() - t, 'ms', JSON.parse(c2.stdout).ok);
t = Date.now();
const s1 = spawnSync(process.execPath, [CLI, '--dir', w.ws, '--json', 'sync']);
console.log('the first clone syncs past the upgrade:', Date.now() - t, 'ms', JSON.parse(s1.stdout).ok);
fs.rmSync(base, { recursive: true, force: true });
fs.rmSync(work, { recursive: true, force: true });
