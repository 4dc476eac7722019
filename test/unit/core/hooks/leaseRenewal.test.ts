// The post-tool-use hook's lease check on a store in AgentSync's own layout (src/core/hooks/leaseRenewal.ts): only
// the records naming the agent as holder are parsed, and the answer is the same as parsing the whole file.
import * as assert from 'node:assert/strict';
import { leasesDue } from '../../../../src/core/hooks/leaseRenewal';
import { recordText, headFor, SEPARATOR, TAIL } from '../../../../src/core/store/storeFormat';
import { makeHandoff } from '../../helpers/handoffFixtures';
import type { Handoff } from '../../../../src/core/domain/handoffSchema';

const NOW = Date.parse('2026-03-10T12:20:00.000Z');

function held(id: string, by: string, claimedAt: string, until: string, extra: Partial<Handoff> = {}): Handoff {
  return makeHandoff({
    handoff_id: id,
    status: 'in_progress',
    to_agents: [by],
    claimed_by: by,
    claimed_at: claimedAt,
    updated_at: claimedAt,
    lease_expires_at: until,
    ...extra,
  });
}

/** The bytes the store writes (core/store/storeFormat.ts), and the same records as compact JSON (parsed whole). */
function bothLayouts(handoffs: Handoff[]): { layout: Buffer; compact: string } {
  const layout = Buffer.concat([headFor(undefined), Buffer.from(handoffs.map(recordText).join(SEPARATOR.toString())), TAIL]);
  assert.deepEqual(JSON.parse(layout.toString()), { version: 1, handoffs }, 'the layout is the store format');
  return { layout, compact: JSON.stringify({ version: 1, handoffs }) };
}

describe('lease renewal on a store in AgentSync layout', () => {
  it('finds the due leases of the agent and only those, as a whole-file parse does', () => {
    const handoffs = [
      held('HO-20260310-001', 'claude', '2026-03-10T12:00:00.000Z', '2026-03-10T12:30:00.000Z'), // 2/3 used: due
      held('HO-20260310-002', 'claude', '2026-03-10T12:15:00.000Z', '2026-03-10T12:45:00.000Z'), // fresh
      held('HO-20260310-003', 'codex', '2026-03-10T12:00:00.000Z', '2026-03-10T12:30:00.000Z'), // due, but codex's
      // claude named as holder deeper in the record (a merge conflict) while codex holds it
      held('HO-20260310-004', 'codex', '2026-03-10T12:00:00.000Z', '2026-03-10T12:30:00.000Z', {
        notes: 'was "claimed_by": "claude" before',
        conflicts: [
          { field: 'claimed_by', ours: 'claude', theirs: 'codex', chosen: 'codex', at: '2026-03-10T12:00:00.000Z' },
        ] as unknown as Handoff['conflicts'],
      }),
      held('HO-20260310-005', 'claude', '2026-03-10T11:00:00.000Z', '2026-03-10T12:25:00.000Z', { status: 'ready_for_review' }),
      held('HO-20260310-006', 'claude', '2026-03-10T11:50:00.000Z', '2026-03-10T12:20:00.000Z'), // expiring now: due
    ];
    const { layout, compact } = bothLayouts(handoffs);
    for (const agent of ['claude', 'codex', 'copilot'])
      assert.deepEqual(leasesDue(layout, agent, NOW), leasesDue(compact, agent, NOW), agent);
    assert.deepEqual(leasesDue(layout, 'claude', NOW), ['HO-20260310-001', 'HO-20260310-006']);
    assert.deepEqual(leasesDue(layout, 'codex', NOW), ['HO-20260310-003', 'HO-20260310-004']);
  });

  it('a file in the layout whose record block does not parse falls back to the whole file (and a broken file answers none)', () => {
    const { layout } = bothLayouts([held('HO-20260310-001', 'claude', '2026-03-10T12:00:00.000Z', '2026-03-10T12:30:00.000Z')]);
    const broken = Buffer.from(layout.toString().replace('"status": "in_progress",', '"status": "in_progress",,'));
    assert.deepEqual(leasesDue(broken, 'claude', NOW), []);
  });
});
