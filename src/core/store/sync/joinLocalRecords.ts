// Records only this clone holds (created before sync was turned on, or on a branch merged since) join the shared state
// at a contact, so that taking the shared state loses none (docs/contract.md §13).
import { withPreviousId } from '../../domain/previousIds';
import type { LocalAuthority } from '../local/localAuthority';
import type { StoreSnapshot } from '../storeSnapshot';
import type { SyncLocalState } from '../syncStateFile';

export interface Joined {
  /** How many records joined (they must be pushed). */
  joined: number;
  /** Records renumbered while joining, because the shared state gives their id to another handoff. */
  renumbered: { from: string; to: string; uid: string }[];
}

/**
 * Adds to `shared` the records of this clone's store (`mine`, read once per batch) it lacks. Not joined: a pending
 * offline create (its replay adds it), and what `notToJoin` names: a record the last adopted shared state held (the
 * remote removed it since), a record the shared state archived (a record joins by uid, never twice). A record whose id
 * the shared state gives another handoff gets the next free id of its day, keeping the old one in previous_ids (an
 * agent naming it is refused id_moved); records both hold stay the shared ones.
 */
export async function joinLocalRecords(
  shared: StoreSnapshot,
  mine: StoreSnapshot | null,
  local: LocalAuthority,
  state: SyncLocalState,
  notToJoin: (uids: readonly string[]) => Promise<Set<string>>,
): Promise<Joined> {
  const out: Joined = { joined: 0, renumbered: [] };
  if (!mine) return out; // no readable local store: nothing to join
  const replayed = new Set(state.pending.flatMap((p) => (p.created ? [p.created.uid] : [])));
  const only = mine.handoffs.filter((h) => h.uid && !shared.find(h.uid) && !replayed.has(h.uid));
  if (only.length === 0) return out;
  const removed = await notToJoin(only.map((h) => h.uid!));
  for (const h of only) {
    if (removed.has(h.uid!)) continue;
    if (shared.find(h.handoff_id) === undefined) {
      shared.insert(h);
      out.joined++;
      continue;
    }
    const id = shared.ids.next(new Date(Date.parse(h.created_at) || local.now().getTime()));
    local.logger.warn(`${h.handoff_id} of this clone is another handoff's id in the shared state; it joins it as ${id}`);
    shared.insert({ ...withPreviousId(h, h.handoff_id), handoff_id: id });
    out.renumbered.push({ from: h.handoff_id, to: id, uid: h.uid! });
    out.joined++;
  }
  return out;
}
