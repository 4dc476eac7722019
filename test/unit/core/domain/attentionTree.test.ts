// The Handoffs tree's read model (core/domain/attentionTree): open handoffs by group, chains beneath their parent
// within a group (at any depth), finished ones left out.
import * as assert from 'node:assert/strict';
import { buildAttentionTree, chainedUnder } from '../../../../src/core/domain/attentionTree';
import { defaultConfig } from '../../../../src/core/domain/configSchema';
import { makeHandoff, T0 } from '../../helpers/handoffFixtures';

const ctx = { me: 'claude', humans: [], config: defaultConfig(), now: new Date(T0) };
const uid = (n: number) => `01JXK${String(n).padStart(21, '0')}`;
const ho = (n: number, extra: Parameters<typeof makeHandoff>[0] = {}) =>
  makeHandoff({ handoff_id: `HO-20260221-00${n}`, uid: uid(n), ...extra });

describe('attention tree', () => {
  it('puts each open handoff in its group, in store order, and leaves finished ones out', () => {
    const tree = buildAttentionTree([ho(1), ho(2, { to_agents: ['copilot'] }), ho(3, { status: 'merged' }), ho(4)], ctx);
    assert.deepEqual(
      tree.assigned.handoffs.map((h) => h.handoff_id),
      ['HO-20260221-001', 'HO-20260221-004'],
    );
    assert.deepEqual(
      tree.other.handoffs.map((h) => h.handoff_id),
      ['HO-20260221-002'],
    );
    assert.equal(tree.shared.handoffs.length + tree.review.handoffs.length + tree.blockedStale.handoffs.length, 0);
  });

  it('shows a chain beneath its parent at every depth, and a child whose parent is elsewhere as a row of its own', () => {
    const a = ho(1);
    const b = ho(2, { parent_uid: uid(1) });
    const c = ho(3, { parent_uid: uid(2) });
    const d = ho(4, { parent_uid: uid(9) }); // parent not in the store
    const e = ho(5, { parent_uid: uid(6), to_agents: ['claude'] });
    const f = ho(6, { to_agents: ['copilot'] }); // e's parent, in another group
    const tree = buildAttentionTree([a, b, c, d, e, f], ctx);
    assert.deepEqual(tree.assigned.top, [a, d, e]);
    assert.deepEqual(chainedUnder(tree.assigned, a), [b]);
    assert.deepEqual(chainedUnder(tree.assigned, b), [c], 'a grandchild is beneath its own parent, not lost');
    assert.deepEqual(chainedUnder(tree.assigned, c), []);
  });

  it('keeps a withdrawn pass beneath its open parent, and only there', () => {
    const a = ho(1);
    const gone = ho(2, { parent_uid: uid(1), status: 'withdrawn', to_agents: ['copilot'] });
    const working = ho(3, { parent_uid: uid(1), to_agents: ['copilot'] });
    const merged = ho(4, { parent_uid: uid(1), status: 'merged' });
    const orphan = ho(5, { parent_uid: uid(9), status: 'withdrawn' }); // its parent is not in the store
    const finished = ho(6, { status: 'merged' });
    const underFinished = ho(7, { parent_uid: uid(6), status: 'withdrawn' });
    const tree = buildAttentionTree([a, gone, working, merged, orphan, finished, underFinished], ctx);
    assert.deepEqual(chainedUnder(tree.assigned, a), [working, gone], 'withdrawn shown, merged not');
    for (const g of Object.values(tree)) assert.ok(!g.handoffs.includes(gone) && !g.top.includes(orphan), 'never a row of a group');
    assert.deepEqual(chainedUnder(tree.assigned, finished), []);
  });
});
