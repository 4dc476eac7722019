// A renumbered record keeps the ids it had in `previous_ids` (docs/contract.md §3, §13): an agent naming an old one is
// refused id_moved, never answered about the handoff that holds the id now. The schema caps the list (LIMITS.previousIds);
// the oldest give way.
import { LIMITS, type Handoff } from './handoffSchema';

/** `h` with `oldId` added as the newest of its previous ids. */
export function withPreviousId<T extends Pick<Handoff, 'previous_ids'>>(h: T, oldId: string): T {
  return { ...h, previous_ids: [...(h.previous_ids ?? []), oldId].slice(-LIMITS.previousIds) };
}
