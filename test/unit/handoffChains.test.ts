// Chains in the tree and the dashboard (docs/agentsync-documentation.md, "The AgentSync view"): which handoffs of a
// group are drawn at its top, and which are drawn beneath a parent, whatever group they are in.
import { strict as assert } from 'node:assert';
import { chainedFrom, chainRoots } from '../../src/core/domain/handoffAttention';
import { chainIndex } from '../../src/core/domain/handoffChains';
import type { Handoff } from '../../src/core/domain/handoffSchema';
import { makeHandoff } from './helpers/handoffFixtures';

const uid = (n: number) => `01JCHA1N0000000000000000${String(n).padStart(2, '0')}`;
const h = (n: number, more: Partial<Handoff> = {}) => makeHandoff({ handoff_id: `HO-20260221-00${n}`, uid: uid(n), ...more });

describe('chains in the tree and the dashboard', () => {
  it('chainRoots: a child of a handoff in the same group is nested; a child of one elsewhere is a root', () => {
    const parent = h(1);
    const sameGroup = h(2, { parent_uid: uid(1) });
    const parentElsewhere = h(3, { parent_uid: uid(9) });
    assert.deepEqual(
      chainRoots([parent, sameGroup, parentElsewhere]).map((x) => x.handoff_id),
      ['HO-20260221-001', 'HO-20260221-003'],
    );
  });

  it('chainRoots: a parent loop in a corrupted store hides nobody', () => {
    const a = h(1, { parent_uid: uid(2) });
    const b = h(2, { parent_uid: uid(1) });
    const c = h(3, { parent_uid: uid(1) });
    assert.deepEqual(
      chainRoots([a, b, c]).map((x) => x.handoff_id),
      ['HO-20260221-001', 'HO-20260221-002', 'HO-20260221-003'],
    );
  });

  it('chainedFrom: the open children of a handoff in any group; merged ones and itself left out', () => {
    const parent = h(1, { status: 'ready_for_review' });
    const returned = h(2, { parent_uid: uid(1), to_agents: ['codex'] });
    const merged = h(3, { parent_uid: uid(1), status: 'merged' });
    const self = h(4, { uid: uid(4), parent_uid: uid(4) });
    const index = chainIndex([parent, returned, merged, self]);
    assert.deepEqual(
      chainedFrom(parent, index).map((x) => x.handoff_id),
      ['HO-20260221-002'],
    );
    assert.deepEqual(chainedFrom(self, index), []);
  });
});
