// audit.retention_days is applied by whoever runs a drop zone: `agentsync watch` (here --once) and the editor's host,
// both through DropZoneProcessor (docs/agentsync-documentation.md, "Audit log"). Months entirely older go; others stay.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { WorkspaceLayout } from '../../src/core/workspace/workspaceLayout';
import { CLI, runCliSync, tempWorkspace } from './processHarness';

function monthsAgo(n: number): string {
  const d = new Date();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() - n);
  return d.toISOString().slice(0, 7);
}

describe('audit retention (issue 9)', () => {
  for (const [retention, kept] of [
    [60, [monthsAgo(0), monthsAgo(1)]],
    [null, [monthsAgo(0), monthsAgo(1), monthsAgo(5), monthsAgo(14)]],
  ] as const) {
    it(`watch --once with retention_days ${retention}: keeps ${kept.length} month file(s)`, () => {
      const ws = tempWorkspace('agentsync-retention-');
      runCliSync(['--dir', ws, 'init']);
      const layout = new WorkspaceLayout(ws);
      const config = JSON.parse(fs.readFileSync(layout.configFile, 'utf8')) as Record<string, unknown>;
      fs.writeFileSync(layout.configFile, JSON.stringify({ ...config, audit: { retention_days: retention } }, null, 2));
      fs.mkdirSync(layout.auditDir, { recursive: true });
      const months = [monthsAgo(0), monthsAgo(1), monthsAgo(5), monthsAgo(14)];
      for (const m of months) fs.writeFileSync(path.join(layout.auditDir, `${m}.jsonl`), '{"ts":"x"}\n');
      fs.writeFileSync(path.join(layout.auditDir, 'notes.txt'), 'not an audit month file');

      const r = spawnSync(process.execPath, [CLI, '--dir', ws, 'watch', '--once'], { encoding: 'utf8' });
      assert.equal(r.status, 0, r.stdout + r.stderr);
      const left = fs.readdirSync(layout.auditDir).sort();
      assert.deepEqual(left, [...[...kept].sort().map((m) => `${m}.jsonl`), 'notes.txt'].sort());
    });
  }
});
