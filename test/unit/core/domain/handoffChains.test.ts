// Chains in the tree and the dashboard (docs/agentsync-documentation.md, "The AgentSync view"; core/domain/attentionTree):
// which handoffs of a group are its own rows, and which are drawn beneath a parent, whatever group they are in.
import { strict as assert } from 'node:assert';
import { buildAttentionTree, chainedUnder, drawnBelow } from '../../../../src/core/domain/attentionTree';
import { defaultConfig } from '../../../../src/core/domain/configSchema';
import type { Handoff } from '../../../../src/core/domain/handoffSchema';
import { makeHandoff, T0 } from '../../helpers/handoffFixtures';

const ctx = { me: 'claude', humans: [], config: defaultConfig(), now: new Date(T0) };
const uid = (n: number) => `01JCHA1N0000000000000000${String(n).padStart(2, '0')}`;
const h = (n: number, more: Partial<Handoff> = {}) => makeHandoff({ handoff_id: `HO-20260221-00${n}`, uid: uid(n), ...more });
const ids = (list: readonly Handoff[]) => list.map((x) => x.handoff_id);

describe('chains across groups (attention tree)', () => {
  it('a child in another group is a row of its own there and is drawn beneath its parent too; merged children are not', () => {
    const parent = h(1, { to_agents: ['copilot'] }); // "other" for claude
    const returned = h(2, { parent_uid: uid(1) }); // assigned to claude
    const merged = h(3, { parent_uid: uid(1), status: 'merged' });
    const tree = buildAttentionTree([parent, returned, merged], ctx);
    assert.deepEqual(ids(tree.other.top), ['HO-20260221-001']);
    assert.deepEqual(ids(tree.assigned.top), ['HO-20260221-002']);
    assert.deepEqual(ids(chainedUnder(tree.other, parent)), ['HO-20260221-002']);
    assert.deepEqual(ids(drawnBelow(tree.other, tree.other.handoffs)), ['HO-20260221-002']);
  });

  it('a parent loop inside a group (a corrupted store) hides nobody, and drawnBelow ends', () => {
    const a = h(1, { parent_uid: uid(2) });
    const b = h(2, { parent_uid: uid(1) });
    const c = h(3, { parent_uid: uid(1) });
    const tree = buildAttentionTree([a, b, c], ctx);
    assert.deepEqual(ids(tree.assigned.top), ['HO-20260221-001', 'HO-20260221-002', 'HO-20260221-003']);
    assert.deepEqual(ids(drawnBelow(tree.assigned, [a])).sort(), ['HO-20260221-002', 'HO-20260221-003']);
  });
});
