// Ids a git merge moved in this clone (docs/contract.md §8, "The merge driver"): when the merge driver renumbers a
// local record because a published one holds its id, this clone's agents still know that record by the old id,
// which now names the published one. The merge driver notes each move here, in `.agentsync/state.json` (local, never
// committed: other clones knew the id as the published record's); a request naming the old id is refused
// `id_moved` until the agent asking was told (its next startSession's briefing carries the moves): each agent is told
// for itself, since one agent's briefing says nothing to another that still holds the old id.
import { ActionError } from '../domain/errors';
import { parseHandoffId } from '../domain/handoffIds';
import type { Handoff } from '../domain/handoffSchema';
import { writeFileAtomic } from '../disk/atomicFile';
import { readStateFile } from './stateFile';
import type { WorkspaceLayout } from '../workspace/workspaceLayout';

export interface MovedId {
  /** The id this clone's agents knew the record by. */
  id: string;
  /** The moved record. */
  uid: string;
  /** The id the merge gave it (it may have moved again since: look it up by uid). */
  moved_to: string;
  /** The published record that holds `id` now. */
  holder_uid?: string;
  at: string;
  /** Set by stores before per-agent telling: every agent counts as told. */
  told_at?: string;
  /** The agents a startSession briefing told; for them `id` names the published record from then on. */
  told_to?: string[];
  /** What moved it: a git merge (absent), or sync, which renumbered an id given in this clone alone (docs/contract.md §13). */
  by?: 'sync';
}

/** The newest moves kept; older ones were told long ago or belong to merges since undone. */
const MAX_MOVES = 200;
const FIELD = 'movedIds';

function isMove(v: unknown): v is MovedId {
  const m = v as MovedId;
  return (
    !!m &&
    typeof m === 'object' &&
    typeof m.id === 'string' &&
    typeof m.uid === 'string' &&
    typeof m.moved_to === 'string' &&
    typeof m.at === 'string' &&
    (m.holder_uid === undefined || typeof m.holder_uid === 'string') &&
    (m.told_at === undefined || typeof m.told_at === 'string') &&
    (m.told_to === undefined || (Array.isArray(m.told_to) && m.told_to.every((a) => typeof a === 'string'))) &&
    (m.by === undefined || m.by === 'sync')
  );
}

export function movesIn(state: Record<string, unknown>): MovedId[] {
  const list = state[FIELD];
  return Array.isArray(list) ? list.filter(isMove) : [];
}

export function readMovedIds(layout: WorkspaceLayout): MovedId[] {
  return movesIn(readStateFile(layout.stateFile));
}

/** Adds the merge driver's moves to state.json (the newest kept), keeping every other field as it is. */
export function recordMovedIds(layout: WorkspaceLayout, moves: readonly MovedId[]): void {
  if (moves.length === 0) return;
  const state = readStateFile(layout.stateFile);
  const kept = movesIn(state).filter((m) => !moves.some((n) => n.id === m.id && n.uid === m.uid));
  const next = { ...state, [FIELD]: [...kept, ...moves].slice(-MAX_MOVES) };
  writeFileAtomic(layout.stateFile, JSON.stringify(next, null, 2) + '\n', { durable: false });
}

/** Whether `agent` was told of this move. A request without an agent counts any agent's briefing (no one to tell). */
export function toldTo(m: MovedId, agent: string | null | undefined): boolean {
  if (m.told_at) return true;
  return agent ? (m.told_to ?? []).includes(agent) : (m.told_to ?? []).length > 0;
}

/** The state.json patch that marks every move `agent` was not told as told to it (its startSession briefing carried them). */
export function toldPatch(state: Record<string, unknown>, agent: string): Record<string, unknown> {
  const moves = movesIn(state);
  if (moves.every((m) => toldTo(m, agent))) return {};
  return { [FIELD]: moves.map((m) => (toldTo(m, agent) ? m : { ...m, told_to: [...(m.told_to ?? []), agent] })) };
}

/** Where the moved records are now, for `agent`'s briefing: each move it was not told, with the current ids of both records. */
export function untoldMoves(
  moves: readonly MovedId[],
  find: (ref: string) => Handoff | undefined,
  agent: string,
): { id: string; moved_to: string; uid: string; now_names: string | null; holder_uid: string | null }[] {
  return moves
    .filter((m) => !toldTo(m, agent))
    .map((m) => {
      const holder = find(m.id);
      return {
        id: m.id,
        moved_to: find(m.uid)?.handoff_id ?? m.moved_to,
        uid: m.uid,
        now_names: holder && holder.uid !== m.uid ? holder.handoff_id : null,
        holder_uid: holder && holder.uid !== m.uid ? (holder.uid ?? null) : (m.holder_uid ?? null),
      };
    });
}

/** Old id → uid of the live record that carries it in previous_ids, built once per store snapshot. */
const previousIdIndex = new WeakMap<readonly Handoff[], Map<string, string>>();

function movedRecordOf(handoffs: readonly Handoff[], find: (ref: string) => Handoff | undefined, ref: string): Handoff | undefined {
  let index = previousIdIndex.get(handoffs);
  if (!index) {
    index = new Map();
    for (const h of handoffs) for (const id of h.previous_ids ?? []) if (h.uid) index.set(id, h.uid);
    previousIdIndex.set(handoffs, index);
  }
  const uid = index.get(ref);
  const h = uid ? find(uid) : undefined;
  return h?.previous_ids?.includes(ref) ? h : undefined;
}

/**
 * Refuses a reference to an id that moved in this clone and whose move its agents were not told yet: it would name
 * the published record to an agent that was given it for the moved one. Cheap when no record has `previous_ids`.
 */
export function refuseMovedId(
  ref: string,
  handoffs: readonly Handoff[],
  find: (ref: string) => Handoff | undefined,
  findAnywhere: (ref: string) => Handoff | undefined,
  moves: () => readonly MovedId[],
  agent: string | null,
): void {
  if (!parseHandoffId(ref)) return; // a uid never moves
  const moved = movedRecordOf(handoffs, find, ref);
  if (!moved) return;
  const move = moves().find((m) => m.id === ref && m.uid === moved.uid && !toldTo(m, agent));
  if (!move) return;
  const holder = findAnywhere(ref);
  const other = holder && holder.uid !== moved.uid ? holder : undefined;
  const what =
    move.by === 'sync'
      ? `${ref} was given in this clone alone (offline, before sync was on, or on a branch), and the shared state ` +
        `renumbered that handoff to ${moved.handoff_id}`
      : `a git merge renumbered the handoff this clone knew as ${ref} to ${moved.handoff_id}`;
  throw new ActionError(
    'id_moved',
    `${ref} is ambiguous in this clone: ${what} ` +
      `(uid ${moved.uid}), because a published handoff ${other ? `(uid ${other.uid}) ` : ''}keeps ${ref}. Name the one you mean by ` +
      `its current id or uid: ${moved.handoff_id} for the one this clone created${other ? `, ${other.uid} for the published one` : ''}. ` +
      `${ref} names the published handoff for an agent once it was told (its next startSession). Nothing was changed.`,
    {
      handoffId: ref,
      moved: { handoff_id: moved.handoff_id, uid: moved.uid },
      now_names: other ? { handoff_id: other.handoff_id, uid: other.uid } : null,
    },
  );
}
