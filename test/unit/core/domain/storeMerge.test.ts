// mergeStores (the git merge driver's core, docs/contract.md §3/§8): one test per merge rule, and every merged file must
// validate against the handoffs.json schema.
import { strict as assert } from 'node:assert';
import { newUid } from '../../../../src/core/domain/handoffIds';
import { handoffsFileSchema, type Handoff, type HandoffsFile } from '../../../../src/core/domain/handoffSchema';
import { mergeStores } from '../../../../src/core/domain/merge/mergeStores';
import { makeHandoff, T0 } from '../../helpers/handoffFixtures';

const NOW = new Date('2026-03-01T12:00:00.000Z');
const at = (minutes: number) => new Date(Date.parse(T0) + minutes * 60_000).toISOString();
const file = (...handoffs: Handoff[]): HandoffsFile => ({ version: 1, handoffs });

/** Merges, checks the result validates and that no input was changed, returns it. */
function merge(base: HandoffsFile, ours: HandoffsFile, theirs: HandoffsFile) {
  const before = JSON.stringify([base, ours, theirs]);
  const result = mergeStores(base, ours, theirs, NOW);
  assert.equal(JSON.stringify([base, ours, theirs]), before, 'mergeStores must not change its inputs');
  const checked = handoffsFileSchema.safeParse(result.file);
  assert.ok(checked.success, `merged file does not validate: ${checked.success ? '' : checked.error.message}`);
  return result;
}

/** `h` claimed by `agent` `minutes` after T0, as applyStatusChange would write it. */
function claimed(h: Handoff, agent: string, minutes: number): Handoff {
  const ts = at(minutes);
  return {
    ...h,
    status: 'in_progress',
    updated_at: ts,
    rev: (h.rev ?? 0) + 1,
    claimed_by: agent,
    claimed_at: ts,
    lease_expires_at: at(minutes + 30),
    state_history: [...h.state_history, { status: 'in_progress', agent, timestamp: ts, reason: 'claimed' }],
  };
}

describe('mergeStores', () => {
  const base = makeHandoff({ to_agents: ['claude', 'codex'], owner_mode: 'shared' });

  it('takes the changed side when only one side changed a record, and leaves untouched records alone', () => {
    const other = makeHandoff({ handoff_id: 'HO-20260221-002', uid: newUid(Date.parse(T0)) });
    const theirs = { ...base, summary: 'Reworded on theirs', updated_at: at(5), rev: 6 };
    const r = merge(file(base, other), file(base, other), file(theirs, other));
    assert.deepEqual(r.file.handoffs, [theirs, other]);
    const ours = { ...base, notes: 'ours only', updated_at: at(5), rev: 6 };
    assert.deepEqual(merge(file(base), file(ours), file(base)).file.handoffs, [ours]);
    assert.equal(r.notes.filter((n) => n.kind === 'conflict').length, 0);
  });

  it("keeps both sides' new handoffs: ours in their order, then theirs' new ones", () => {
    const o1 = makeHandoff({ handoff_id: 'HO-20260221-002', uid: newUid(), summary: 'ours new' });
    const t1 = makeHandoff({ handoff_id: 'HO-20260221-003', uid: newUid(), summary: 'theirs new' });
    const r = merge(file(base), file(base, o1), file(base, t1));
    assert.deepEqual(
      r.file.handoffs.map((h) => h.summary),
      [base.summary, 'ours new', 'theirs new'],
    );
    assert.deepEqual(
      r.notes.map((n) => n.kind),
      ['added'],
    );
  });

  it("changed on both sides: unites the histories (deduplicated, by time), status of the latest entry, rev max+1, each side's own edits kept", () => {
    const ours = { ...claimed(base, 'claude', 10), notes: 'ours edited notes' };
    const theirs: Handoff = {
      ...base,
      priority: 'high',
      status: 'blocked',
      updated_at: at(5),
      rev: 9,
      state_history: [...base.state_history, { status: 'blocked', agent: 'codex', timestamp: at(5), reason: 'parked' }],
    };
    const r = merge(file(base), file(ours), file(theirs));
    const h = r.file.handoffs[0];
    assert.deepEqual(
      h.state_history.map((e) => `${e.status}@${e.timestamp}`),
      [`queued@${T0}`, `blocked@${at(5)}`, `in_progress@${at(10)}`],
    );
    assert.equal(h.status, 'in_progress');
    assert.equal(h.rev, 10);
    assert.equal(h.notes, 'ours edited notes');
    assert.equal(h.priority, 'high');
    assert.equal(h.claimed_by, 'claude');
    assert.equal(h.updated_at, at(10));
    assert.equal(h.conflicts, undefined, 'edits to different fields are no conflict');
  });

  it('two different claimers: the later claim wins, the conflict is recorded once (claimed_at and the lease follow it)', () => {
    const r = merge(file(base), file(claimed(base, 'claude', 10)), file(claimed(base, 'codex', 20)));
    const h = r.file.handoffs[0];
    assert.equal(h.claimed_by, 'codex');
    assert.equal(h.claimed_at, at(20));
    assert.equal(h.lease_expires_at, at(50));
    assert.deepEqual(h.conflicts, [{ field: 'claimed_by', ours: 'claude', theirs: 'codex', resolved_to: 'codex', at: NOW.toISOString() }]);
    assert.equal(h.state_history.length, 3);
    assert.deepEqual(r.notes.filter((n) => n.kind === 'conflict').length, 1);
  });

  it('a tie on updated_at goes to the lexicographically smaller claimer, whichever side it is on', () => {
    const a = claimed(base, 'codex', 10);
    const b = claimed(base, 'claude', 10);
    assert.equal(merge(file(base), file(a), file(b)).file.handoffs[0].claimed_by, 'claude');
    assert.equal(merge(file(base), file(b), file(a)).file.handoffs[0].claimed_by, 'claude');
  });

  it('a field both sides changed to different values: the later side wins and the conflict is recorded', () => {
    const ours = { ...base, summary: 'ours summary', updated_at: at(30), rev: 6 };
    const theirs = { ...base, summary: 'theirs summary', updated_at: at(20), rev: 7 };
    const h = merge(file(base), file(ours), file(theirs)).file.handoffs[0];
    assert.equal(h.summary, 'ours summary');
    assert.equal(h.rev, 8);
    assert.deepEqual(h.conflicts, [
      { field: 'summary', ours: 'ours summary', theirs: 'theirs summary', resolved_to: 'ours summary', at: NOW.toISOString() },
    ]);
  });

  it('merged on one side, claimed later on the other: terminal wins, the later claim is flagged, histories united', () => {
    // ours: claude claimed at 5 and merged at 10 (claims end when work is merged); theirs: codex claimed at 20.
    const done: Handoff = {
      ...claimed(base, 'claude', 5),
      status: 'merged',
      updated_at: at(10),
      rev: 9,
      claimed_by: null,
      claimed_at: null,
      lease_expires_at: null,
      state_history: [
        ...claimed(base, 'claude', 5).state_history,
        { status: 'merged', agent: 'claude', timestamp: at(10), reason: 'merged' },
      ],
    };
    const late = claimed(base, 'codex', 20);
    for (const [ours, theirs, side] of [
      [done, late, 'ours'],
      [late, done, 'theirs'],
    ] as const) {
      const r = merge(file(base), file(ours), file(theirs));
      const h = r.file.handoffs[0];
      assert.equal(h.status, 'merged', `terminal on ${side} wins`);
      assert.equal(h.claimed_by, null, 'the later claim does not stick to finished work');
      assert.deepEqual(
        h.conflicts?.map(({ field, ours: o, theirs: t, resolved_to }) => ({ field, o, t, resolved_to })),
        [
          { field: 'status', o: ours.status, t: theirs.status, resolved_to: 'merged' },
          { field: 'claimed_by', o: ours.claimed_by, t: theirs.claimed_by, resolved_to: null },
        ],
      );
      assert.deepEqual(
        h.state_history.map((e) => `${e.status}:${e.agent}`),
        ['queued:codex', 'in_progress:claude', 'merged:claude', 'in_progress:codex', 'merged:agentsync'],
      );
      assert.match(h.state_history.at(-1)!.reason ?? '', new RegExp(`merge kept merged from ${side}`));
      assert.ok(r.notes.some((n) => n.kind === 'conflict' && /status differs/.test(n.message)));
    }
  });

  it("escalated on one side, a field edited on the other: escalated stays, the edit is flagged, the untouched side's edit is kept", () => {
    const escalated: Handoff = {
      ...base,
      status: 'escalated',
      updated_at: at(5),
      notes: 'why it failed',
      state_history: [...base.state_history, { status: 'escalated', agent: 'claude', timestamp: at(5), reason: 'x' }],
    };
    const edited = { ...base, summary: 'edited later', updated_at: at(30) };
    const h = merge(file(base), file(edited), file(escalated)).file.handoffs[0];
    assert.equal(h.status, 'escalated');
    assert.equal(h.summary, base.summary);
    assert.equal(h.notes, 'why it failed');
    assert.deepEqual(
      h.conflicts?.map((c) => c.field),
      ['status', 'summary'],
    );
  });

  it('keeps conflicts recorded by an earlier merge', () => {
    const old = { field: 'notes', ours: 'a', theirs: 'b', resolved_to: 'b', at: T0 };
    const b2 = { ...base, conflicts: [old] };
    const h = merge(file(b2), file(claimed(b2, 'claude', 10)), file(claimed(b2, 'codex', 20))).file.handoffs[0];
    assert.deepEqual(
      h.conflicts?.map((c) => c.field),
      ['notes', 'claimed_by'],
    );
  });

  it('renumbers a new record from theirs whose handoff_id another record holds, to the next free id of its own day', () => {
    const ours2 = makeHandoff({ handoff_id: 'HO-20260221-002', uid: newUid(), summary: 'ours 002' });
    const theirs2 = makeHandoff({ handoff_id: 'HO-20260221-002', uid: newUid(), summary: 'theirs 002', rev: 1 });
    const r = merge(file(base), file(base, ours2), file(base, theirs2));
    assert.deepEqual(
      r.file.handoffs.map((h) => [h.handoff_id, h.summary]),
      [
        ['HO-20260221-001', base.summary],
        ['HO-20260221-002', 'ours 002'],
        ['HO-20260221-003', 'theirs 002'],
      ],
    );
    const moved = r.file.handoffs[2];
    assert.equal(moved.uid, theirs2.uid);
    assert.equal(moved.rev, 2);
    assert.deepEqual(moved.state_history.at(-1), {
      status: 'queued',
      agent: 'agentsync',
      timestamp: NOW.toISOString(),
      reason: 'renumbered from HO-20260221-002 by merge',
    });
    assert.deepEqual(
      r.notes.map((n) => n.kind),
      ['added', 'renumbered'],
    );
  });

  it('matches records without uid by handoff_id', () => {
    const { uid: _u, rev: _r, ...legacy } = base;
    const theirs = { ...legacy, summary: 'edited on theirs' } as Handoff;
    const r = merge(file(legacy), file(legacy), file(theirs));
    assert.deepEqual(r.file.handoffs, [theirs]);
  });

  it('a 0.3 record that each side gave its own uid stays one record, keeping the smaller uid without a conflict', () => {
    const { uid: _u, rev: _r, ...legacy } = base;
    const [u1, u2] = [newUid(), newUid()];
    const ours = { ...legacy, uid: u2, rev: 0 } as Handoff;
    const theirs = { ...claimed({ ...legacy, uid: u1, rev: 0 }, 'codex', 5) };
    const h = merge(file(legacy), file(ours), file(theirs)).file.handoffs;
    assert.equal(h.length, 1);
    assert.equal(h[0].uid, u1);
    assert.equal(h[0].claimed_by, 'codex');
    assert.equal(h[0].conflicts, undefined);
  });

  it('a record deleted on one side stays deleted unless the other side changed it', () => {
    const other = makeHandoff({ handoff_id: 'HO-20260221-002', uid: newUid() });
    assert.deepEqual(merge(file(base, other), file(other), file(base, other)).file.handoffs, [other]);
    const changed = claimed(base, 'codex', 5);
    const r = merge(file(base, other), file(other), file(changed, other));
    assert.deepEqual(r.file.handoffs, [other, changed]);
    assert.deepEqual(
      r.notes.map((n) => n.kind),
      ['kept'],
    );
  });

  it('the same new record added on both sides appears once', () => {
    const added = makeHandoff({ handoff_id: 'HO-20260221-002', uid: newUid() });
    assert.deepEqual(merge(file(base), file(base, added), file(base, added)).file.handoffs, [base, added]);
  });

  it('refuses an input with two records of one uid, naming the side', () => {
    const twin = { ...base, handoff_id: 'HO-20260221-009' };
    assert.throws(() => mergeStores(file(base), file(base), file(base, twin), NOW), /theirs version has two records with uid/);
  });
});

describe('mergeStores and the archive (docs/agentsync-documentation.md, "The archive")', () => {
  const base = makeHandoff({ to_agents: ['claude', 'codex'], owner_mode: 'shared' });
  const withMark = (mark: string | undefined, ...handoffs: Handoff[]): HandoffsFile => ({
    version: 1,
    ...(mark ? { id_high_water: mark } : {}),
    handoffs,
  });

  it("keeps the highest id_high_water of the three, and a renumbered record's new id is above it", () => {
    const ours2 = makeHandoff({ handoff_id: 'HO-20260221-002', uid: newUid(), summary: 'ours 002' });
    const theirs2 = makeHandoff({ handoff_id: 'HO-20260221-002', uid: newUid(), summary: 'theirs 002', rev: 1 });
    const r = mergeStores(
      withMark('HO-20260220-004', base),
      withMark('HO-20260221-007', base, ours2),
      withMark('HO-20260221-005', base, theirs2),
      NOW,
    );
    assert.equal(r.file.id_high_water, 'HO-20260221-007');
    assert.deepEqual(
      r.file.handoffs.map((h) => h.handoff_id),
      ['HO-20260221-001', 'HO-20260221-002', 'HO-20260221-008'],
      'not 003: 003 to 007 may be archived',
    );
    assert.ok(handoffsFileSchema.safeParse(r.file).success);
    assert.equal(merge(file(base), file(base), file(base)).file.id_high_water, undefined, 'no archive, no mark');
  });

  it('archived on one side, claimed later on the other: merged with the archived copy, so the finished status stands', () => {
    const done: Handoff = {
      ...base,
      status: 'merged',
      updated_at: at(10),
      rev: 9,
      state_history: [...base.state_history, { status: 'merged', agent: 'codex', timestamp: at(10), reason: 'merged' }],
    };
    const late = claimed(base, 'claude', 20);
    for (const [ours, theirs, gone] of [
      [withMark(base.handoff_id), file(late), 'ours'],
      [file(late), withMark(base.handoff_id), 'theirs'],
    ] as const) {
      // Without the archived copy at hand the changed record is kept as it is (nothing is lost).
      const kept = mergeStores(file(base), ours, theirs, NOW);
      assert.deepEqual(kept.file.handoffs, [late]);
      // With it, the two are merged like a record changed on both sides: terminal wins, the claim is flagged.
      const r = mergeStores(file(base), ours, theirs, NOW, (h) => (h.uid === base.uid ? done : undefined));
      assert.ok(handoffsFileSchema.safeParse(r.file).success);
      const [h] = r.file.handoffs;
      assert.equal(h.status, 'merged', `archived on ${gone}`);
      assert.ok(!h.claimed_by, 'the later claim does not stick to finished work');
      assert.deepEqual(h.conflicts?.[0].field, 'status');
      assert.equal(r.file.id_high_water, base.handoff_id);
      assert.ok(r.notes.some((n) => n.kind === 'kept' && new RegExp(`archived on ${gone}`).test(n.message)));
    }
  });

  it('archived on one side and unchanged on the other: stays archived (the copy is not consulted)', () => {
    let asked = 0;
    const r = mergeStores(file(base), withMark(base.handoff_id), file(base), NOW, () => {
      asked++;
      return base;
    });
    assert.deepEqual(r.file.handoffs, []);
    assert.equal(asked, 0);
  });
});

describe('mergeStores: published ids stay, only the local side moves (docs/contract.md §8)', () => {
  const base = makeHandoff({ to_agents: ['claude', 'codex'], owner_mode: 'shared' });
  const mine = makeHandoff({ handoff_id: 'HO-20260221-002', uid: newUid(), summary: 'local 002' });
  const upstream = makeHandoff({ handoff_id: 'HO-20260221-002', uid: newUid(), summary: 'published 002' });
  const withMark = (mark: string | undefined, ...handoffs: Handoff[]): HandoffsFile => ({
    version: 1,
    ...(mark ? { id_high_water: mark } : {}),
    handoffs,
  });

  it('a pull (theirs published): the upstream record keeps its id, the local one moves and keeps its old id in previous_ids', () => {
    const r = mergeStores(file(base), file(base, mine), file(base, upstream), NOW, undefined, { published: 'theirs' });
    assert.ok(handoffsFileSchema.safeParse(r.file).success);
    const byUid = new Map(r.file.handoffs.map((h) => [h.uid, h]));
    assert.equal(byUid.get(upstream.uid)!.handoff_id, 'HO-20260221-002', 'the published id is not renumbered');
    assert.equal(byUid.get(upstream.uid)!.previous_ids, undefined);
    const moved = byUid.get(mine.uid)!;
    assert.equal(moved.handoff_id, 'HO-20260221-003');
    assert.deepEqual(moved.previous_ids, ['HO-20260221-002']);
    const note = r.notes.find((n) => n.kind === 'renumbered')!;
    assert.deepEqual([note.previous_id, note.uid, note.holder_uid], ['HO-20260221-002', mine.uid, upstream.uid]);
  });

  it('a rebase (ours published, the default): the same rule with the sides swapped', () => {
    const r = mergeStores(file(base), file(base, upstream), file(base, mine), NOW);
    const byUid = new Map(r.file.handoffs.map((h) => [h.uid, h]));
    assert.equal(byUid.get(upstream.uid)!.handoff_id, 'HO-20260221-002');
    assert.equal(byUid.get(mine.uid)!.handoff_id, 'HO-20260221-003');
    assert.deepEqual(byUid.get(mine.uid)!.previous_ids, ['HO-20260221-002']);
  });

  it("a local new record whose id the published side archived is renumbered (its id_high_water, or its archive's ids)", () => {
    // Upstream created HO-20260221-002 and archived it (so its handoffs.json lacks it); the local side created its own 002.
    const upstreamDone: Handoff = { ...upstream, status: 'merged' };
    for (const archivedIdOn of [undefined, { theirs: (id: string) => (id === upstreamDone.handoff_id ? upstreamDone : undefined) }]) {
      const r = mergeStores(file(base), file(base, mine), withMark('HO-20260221-002', base), NOW, undefined, {
        published: 'theirs',
        archivedIdOn,
      });
      assert.deepEqual(
        r.file.handoffs.map((h) => h.handoff_id),
        ['HO-20260221-001', 'HO-20260221-003'],
        `no id shared with the archive (${archivedIdOn ? 'archive read' : 'high-water mark'})`,
      );
      assert.deepEqual(r.file.handoffs[1].previous_ids, ['HO-20260221-002']);
    }
    // The archive says the id was not used there: nothing moves.
    const r = mergeStores(file(base), file(base, mine), withMark('HO-20260221-002', base), NOW, undefined, {
      published: 'theirs',
      archivedIdOn: { theirs: () => undefined },
    });
    assert.equal(r.file.handoffs[1].handoff_id, 'HO-20260221-002');
  });

  it('a published new record whose id the local side archived: the archived record comes back under a new id, still finished', () => {
    const localDone: Handoff = { ...mine, status: 'merged', rev: 7 };
    const r = mergeStores(file(base), withMark('HO-20260221-002', base), file(base, upstream), NOW, undefined, {
      published: 'theirs',
      archivedIdOn: { ours: (id) => (id === localDone.handoff_id ? localDone : undefined) },
    });
    assert.ok(handoffsFileSchema.safeParse(r.file).success);
    assert.deepEqual(
      r.file.handoffs.map((h) => [h.handoff_id, h.uid, h.status]),
      [
        ['HO-20260221-001', base.uid, base.status],
        ['HO-20260221-002', upstream.uid, 'queued'],
        ['HO-20260221-003', localDone.uid, 'merged'],
      ],
    );
    assert.deepEqual(r.file.handoffs[2].previous_ids, ['HO-20260221-002']);
  });
});
