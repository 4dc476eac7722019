// A Skip: a queued handoff its owner will not take, parked as blocked for a human to route. Its history reason has the
// same form as a handoff skipped when created (docs/agentsync-documentation.md, "History reasons").
import { LIMITS } from './handoffSchema';

const SKIPPED = 'skipped: ';
/** The longest reason a Skip may give: with its prefix it fits a history reason (LIMITS.reason). */
export const MAX_SKIP_REASON = LIMITS.reason - SKIPPED.length;

/** The history reason of a Skip. */
export function skipReason(why: string): string {
  return `${SKIPPED}${why.trim()}`;
}
