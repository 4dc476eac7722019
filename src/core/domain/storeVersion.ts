// Which store version a record needs (docs/contract.md §3, docs/upgrading.md): a field an older AgentSync refuses is
// written only as the next version, so a clone that has not upgraded is told (store_too_new) instead of misreading.
//   2: `claimed_session`, `worktree` (AgentSync 0.4.0 does not know them);
//   3: a pass `group` (fan-out), a policy key of a receiver's permissions or its output check, the status `withdrawn`,
//      a report's `commit` or a reviewed or summarised file modification (per-file review).
import { RECEIVER_KEYS } from './receiverKeys';

/** Policy keys added with version 3: a stored `policy` carrying one needs it. */
export const V3_POLICY_KEYS = RECEIVER_KEYS;

export function recordVersion(h: {
  status?: unknown;
  claimed_session?: unknown;
  worktree?: unknown;
  group?: unknown;
  policy?: object | null;
  result?: ReportFields | null;
}): 1 | 2 | 3 {
  if (h.status === 'withdrawn' || h.group || (h.policy && V3_POLICY_KEYS.some((k) => k in h.policy!))) return 3;
  if (h.result && reportNeedsV3(h.result)) return 3;
  return h.claimed_session || h.worktree ? 2 : 1;
}

/** What of a completion report decides its version: the per-file review's fields. */
interface ReportFields {
  commit?: string;
  artifacts?: { file_modifications?: readonly { summary?: string; review?: unknown }[] };
}

function reportNeedsV3(r: ReportFields): boolean {
  return r.commit !== undefined || (r.artifacts?.file_modifications ?? []).some((f) => f.summary !== undefined || f.review !== undefined);
}

const NOTICE_START = 'handoffs.json is now written as store version ';

/** The notice of the write that first makes the store `version`: what it records follows (requests/formatTelling.ts). */
export function formatNotice(version: 2 | 3, what: string): string {
  return `${NOTICE_START}${version}: ${what}`;
}

/** The store version a format notice announces; undefined for any other text. */
export function announcedVersion(notice: string): string | undefined {
  return notice.startsWith(NOTICE_START) ? /^(\d+):/.exec(notice.slice(NOTICE_START.length))?.[1] : undefined;
}

/** Said once, by the request that first writes a version-3 field or status (withdrawPass, passOver, fanOut, reviewFiles). */
export const V3_FORMAT_NOTICE = formatNotice(
  3,
  'this write records what earlier AgentSync builds cannot read (a ' +
    'pass group, a receiver permission or output check in a policy, a per-file review, or the status withdrawn). Upgrade AgentSync in every ' +
    'clone of this repository (docs/upgrading.md).',
);
