// The lease a claim takes (docs/contract.md §6): a pass's timeout_ms, capped by its max_compute_time_ms.
import * as assert from 'node:assert/strict';
import type { Handoff } from '../../../../../src/core/domain/handoffSchema';
import { removeTempDirs, TestWorkspace } from '../../../helpers/testWorkspace';

describe('claimHandoff: the lease of a pass', () => {
  after(removeTempDirs);

  it('max_compute_time_ms caps the lease below timeout_ms; a larger one leaves timeout_ms', async () => {
    const ws = new TestWorkspace();
    for (const [override, expected] of [
      [{ timeout_ms: 600_000, max_compute_time_ms: 90_000 }, 90_000],
      [{ timeout_ms: 600_000, max_compute_time_ms: 900_000 }, 600_000],
    ] as const) {
      const r = await ws.dispatch({ action: 'passOver', agent: 'alice', to: 'audit', reason: 'r', summary: 's', override });
      assert.equal(r.ok, true, JSON.stringify(r));
      const c = await ws.dispatch({ action: 'claimHandoff', handoffId: (r.data!.handoff as Handoff).handoff_id, agent: 'audit' });
      const h = c.data!.handoff as Handoff;
      assert.equal(Date.parse(h.lease_expires_at!) - Date.parse(h.claimed_at!), expected);
    }
  });
});
