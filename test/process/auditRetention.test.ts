// audit.retention_days is applied by whoever runs a drop zone: `agentsync watch` (running, and --once) and the editor's
// host, all through DropZoneProcessor (docs/agentsync-documentation.md, "Audit log"). Months entirely older go; others stay.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { WorkspaceLayout } from '../../src/core/workspace/workspaceLayout';
import { CLI, initWorkspace, startChild } from './processHarness';

function monthsAgo(n: number): string {
  const d = new Date();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() - n);
  return d.toISOString().slice(0, 7);
}

/** A workspace with audit.retention_days set and four month files (this month, 1, 5 and 14 months ago). */
function workspaceWithMonths(retention: number | null): WorkspaceLayout {
  const ws = initWorkspace('agentsync-retention-');
  const layout = new WorkspaceLayout(ws);
  const config = JSON.parse(fs.readFileSync(layout.configFile, 'utf8')) as Record<string, unknown>;
  fs.writeFileSync(layout.configFile, JSON.stringify({ ...config, audit: { retention_days: retention } }, null, 2));
  fs.mkdirSync(layout.auditDir, { recursive: true });
  for (const m of [monthsAgo(0), monthsAgo(1), monthsAgo(5), monthsAgo(14)])
    fs.writeFileSync(path.join(layout.auditDir, `${m}.jsonl`), '{"ts":"x"}\n');
  fs.writeFileSync(path.join(layout.auditDir, 'notes.txt'), 'not an audit month file');
  return layout;
}

describe('audit retention (docs/contract.md §9)', () => {
  for (const [retention, kept] of [
    [60, [monthsAgo(0), monthsAgo(1)]],
    [null, [monthsAgo(0), monthsAgo(1), monthsAgo(5), monthsAgo(14)]],
  ] as const) {
    it(`watch --once with retention_days ${retention}: keeps ${kept.length} month file(s)`, () => {
      const layout = workspaceWithMonths(retention);
      const r = spawnSync(process.execPath, [CLI, '--dir', layout.root, 'watch', '--once'], { encoding: 'utf8' });
      assert.equal(r.status, 0, r.stdout + r.stderr);
      const left = fs.readdirSync(layout.auditDir).sort();
      assert.deepEqual(left, [...[...kept].sort().map((m) => `${m}.jsonl`), 'notes.txt'].sort());
    });
  }

  it('a running agentsync watch prunes the months older than the limit when it starts, and says so with --verbose', async function () {
    this.timeout(30_000);
    const layout = workspaceWithMonths(60);
    const watcher = startChild(CLI, ['--dir', layout.root, 'watch', '--verbose']);
    try {
      await watcher.waitForLine((l) => l.startsWith('watching '), 15_000, 'agentsync watch to be ready');
      assert.deepEqual(fs.readdirSync(layout.auditDir).sort(), [`${monthsAgo(1)}.jsonl`, `${monthsAgo(0)}.jsonl`, 'notes.txt'].sort());
      // stderr is its own pipe: its line may arrive after the "watching" line of stdout.
      const deadline = Date.now() + 5_000;
      while (!/audit retention: removed .*\n/.test(watcher.stderr) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
      const removed = /audit retention: removed (.*)\n/.exec(watcher.stderr)?.[1].split(', ').sort();
      assert.deepEqual(removed, [`${monthsAgo(14)}.jsonl`, `${monthsAgo(5)}.jsonl`].sort(), watcher.stderr);
    } finally {
      watcher.proc.kill('SIGTERM');
      await watcher.exited;
      fs.rmSync(layout.root, { recursive: true, force: true });
    }
  });
});
