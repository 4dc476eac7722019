// A claim, a release and a list cost the same with or without archived history (docs/agentsync-documentation.md,
// "The archive"): they never touch the archive's month files. Here every month file is a named pipe, which the
// archive's reader refuses with a warning naming the file: `show` of an id of that month, which reads it, warns; the
// others say nothing of it.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CLI, runCliSync, tempWorkspace } from './processHarness';

function run(ws: string, args: string[]): { code: number | null; signal: NodeJS.Signals | null; out: string } {
  const r = spawnSync(process.execPath, [CLI, '--dir', ws, ...args], { encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, signal: r.signal, out: r.stdout + r.stderr };
}

describe('claim, release and list do not read the archive', function () {
  this.timeout(180_000);

  it('with every archive month a named pipe, they succeed without a word of it; show of an id of that month warns', function () {
    if (process.platform === 'win32') this.skip(); // mkfifo
    const ws = tempWorkspace('no-archive-read');
    try {
      runCliSync(['--dir', ws, 'init']);
      const created = runCliSync(['--dir', ws, '--json', 'create', '--from', 'codex', '--to', 'claude', '--summary', 'claimed']);
      const id = (JSON.parse(created) as { data: { handoff: { handoff_id: string } } }).data.handoff.handoff_id;
      const month = `${id.slice(3, 7)}-${id.slice(7, 9)}`;
      const archive = path.join(ws, '.agentsync', 'archive');
      fs.mkdirSync(archive);
      for (const m of [month, '2024-12']) assert.equal(spawnSync('mkfifo', [path.join(archive, `${m}.jsonl`)]).status, 0);
      for (const args of [['claim', id, '--agent', 'claude'], ['release', id, '--agent', 'claude'], ['list']]) {
        const r = run(ws, args);
        assert.deepEqual([r.code, r.signal], [0, null], `${args[0]}: ${r.out}`);
        assert.doesNotMatch(r.out, /archive\//, `${args[0]} read the archive`);
      }
      const shown = run(ws, ['show', `HO-${id.slice(3, 11)}-999`]);
      assert.match(shown.out, new RegExp(`archive/${month}\\.jsonl \\(not a regular file`), 'the pipe is what a read of the archive meets');
    } finally {
      fs.rmSync(ws, { recursive: true, force: true });
    }
  });
});
