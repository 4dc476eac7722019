// The machine strings AgentSync sorts are ordered by code unit (core/domain/textOrder.ts), not by localeCompare, whose
// first call builds ICU's collator: about 8 ms of every CLI call that loads the action catalog.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { byCodeUnit } from '../../../../src/core/domain/textOrder';

describe('textOrder: sorting without the ICU collator', () => {
  it('orders ISO timestamps and menu group keys as localeCompare did', () => {
    const samples = [
      ['2026-11-28T10:00:00.000Z', '2026-11-28T09:59:59.999Z', '2025-12-31T23:59:59.000Z', '2026-01-01T00:00:00.000Z'],
      ['2_snooze@1', '1_move@6', '3_session@1', '1_move@1', '2_escalate@2', '2_delegate@3', '2_delegate@1', ''],
    ];
    for (const list of samples)
      assert.deepEqual(
        [...list].sort(byCodeUnit),
        [...list].sort((a, b) => a.localeCompare(b)),
      );
  });

  it('loading the CLI (every verb, the catalog and its moves) never calls localeCompare', () => {
    const cli = path.join(__dirname, '..', '..', '..', '..', 'src', 'cli', 'main.js');
    const script =
      'String.prototype.localeCompare = function () { throw new Error("localeCompare called"); };' + `require(${JSON.stringify(cli)});`;
    const r = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
  });
});
