// Which files are "hot" for an agent: files another agent is working on right now (docs/agentsync-documentation.md,
// "Hot files of other agents"). One rule for every surface: the editor's decorations and open-file warning, and
// startSession's briefing. Paths are compared whole, after canonicalising, never as substrings or prefixes.
import { leaseExpired } from './handoffAttention';
import { isTerminal, type Handoff } from './handoffSchema';
import { originatorOf } from './lifecycle';
import { canonicalRelativePath } from './canonicalPath';

export { canonicalRelativePath };

/** What the rule needs of an active session (state.json's session record; requests/sessions/sessionState.ts). */
export interface HotFileSession {
  agent: string;
  handoffId: string | null;
  handoffUid: string | null;
}

/** Who holds a hot file, and through which handoff. */
export interface HotFileHolder {
  agent: string;
  handoff_id: string;
  uid: string | null;
  summary: string;
  status: Handoff['status'];
  /** `claim`: the agent holds the handoff (claimed_by); `session`: its active session was started from it. */
  via: 'claim' | 'session';
}

/** The one handoff a session record names (by uid first: ids can be renumbered by a merge), if it is still open. */
function sessionHandoff(s: HotFileSession, byUid: ReadonlyMap<string, Handoff>, byId: ReadonlyMap<string, Handoff>): Handoff | undefined {
  const h = (s.handoffUid ? byUid.get(s.handoffUid) : undefined) ?? (s.handoffId ? byId.get(s.handoffId) : undefined);
  return h && !isTerminal(h.status) ? h : undefined;
}

/**
 * Whether `h`'s holder (claimed_by) makes its files hot for `agent`: from the claim until the handoff is merged or
 * escalated, as long as the claim is alive (an in-progress lease that ran out is not) and `agent` is not the holder,
 * nor the reviewer of work waiting for review or merge (the reviewer is expected to open those files).
 */
function heldAgainst(h: Handoff, agent: string, now: Date): boolean {
  if (!h.claimed_by || h.claimed_by === agent) return false;
  switch (h.status) {
    case 'in_progress':
      return !leaseExpired(h, now);
    case 'blocked':
      return true;
    case 'ready_for_review':
    case 'approved':
      return originatorOf(h) !== agent;
    default:
      return false; // queued: nobody is editing it yet; merged, escalated: done
  }
}

/**
 * The files hot for `agent`, by canonical path, each with its holders in handoff order. A file is hot when
 * - an open handoff held by ANOTHER agent lists it (heldAgainst above); or
 * - ANOTHER agent's active session (state.json) was started from an open handoff that lists it.
 */
export function hotFilesFor(
  agent: string,
  handoffs: readonly Handoff[],
  sessions: Iterable<HotFileSession>,
  now: Date,
): Map<string, HotFileHolder[]> {
  const out = new Map<string, HotFileHolder[]>();
  const add = (h: Handoff, holder: string, via: HotFileHolder['via']) => {
    for (const file of h.files) {
      const key = canonicalRelativePath(file);
      if (!key) continue;
      const list = out.get(key) ?? [];
      if (list.some((x) => x.agent === holder && x.handoff_id === h.handoff_id)) continue;
      list.push({ agent: holder, handoff_id: h.handoff_id, uid: h.uid ?? null, summary: h.summary, status: h.status, via });
      out.set(key, list);
    }
  };
  const byUid = new Map<string, Handoff>();
  const byId = new Map<string, Handoff>();
  for (const h of handoffs) {
    if (h.uid) byUid.set(h.uid, h);
    byId.set(h.handoff_id, h);
    if (heldAgainst(h, agent, now)) add(h, h.claimed_by!, 'claim');
  }
  for (const s of sessions) {
    if (s.agent === agent) continue;
    const h = sessionHandoff(s, byUid, byId);
    if (h) add(h, s.agent, 'session');
  }
  return out;
}

/** The earliest moment after `now` at which a lease behind a hot file runs out (the answer changes then), or null. */
export function nextHotFileChange(handoffs: readonly Handoff[], agent: string, now: Date): Date | null {
  let next: number | null = null;
  for (const h of handoffs) {
    if (h.status !== 'in_progress' || !h.claimed_by || h.claimed_by === agent || h.files.length === 0 || !h.lease_expires_at) continue;
    const t = Date.parse(h.lease_expires_at);
    if (Number.isFinite(t) && t > now.getTime() && (next === null || t < next)) next = t;
  }
  return next === null ? null : new Date(next);
}
