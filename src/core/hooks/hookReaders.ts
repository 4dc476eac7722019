// What each tool-hook reader reads of the record (docs/contract.md §14, "The hooks' index"): per reader, the statuses
// of the records it looks at and their fields ('*': the whole record). A reader sees only what it declares here
// (hookView), whether it reads the hooks' index or the store itself, so a field it forgot to declare is missing in
// every test, not only when the index is fresh; and the index (store/hookIndex.ts) is built from this list alone, so
// what a reader declares is in it. A new reader adds its line here. Node built-ins only (dist/hook.js).

/** One reader's need: the records of these statuses, with these fields (`status` is always kept). */
export interface HookNeed {
  readonly statuses: readonly string[];
  readonly fields: readonly string[] | '*';
}

export const HOOK_READERS = {
  /** hooks/conflictRadar.ts: another session's live claim on the file a tool is about to write. */
  conflictRadar: {
    statuses: ['in_progress'],
    fields: ['handoff_id', 'claimed_by', 'claimed_at', 'claimed_session', 'lease_expires_at', 'files', 'summary'],
  },
  /** hooks/leaseRenewal.ts: the caller's own leases past half their time. */
  leaseRenewal: {
    statuses: ['in_progress'],
    fields: ['handoff_id', 'claimed_by', 'claimed_at', 'claimed_session', 'updated_at', 'lease_expires_at'],
  },
  /** hooks/passPermissions.ts: a held pass whose policy forbids the tool. */
  passPermissions: {
    statuses: ['in_progress'],
    fields: ['handoff_id', 'claimed_by', 'claimed_session', 'policy'],
  },
  /** hooks/withdrawNotices.ts: a withdrawn pass told to its receiver (few, and terminal: whole). */
  withdrawNotices: { statuses: ['withdrawn'], fields: '*' },
} as const satisfies Record<string, HookNeed>;

export type HookReader = keyof typeof HOOK_READERS;

type Rec = Record<string, unknown>;

/** What the index holds of a record of each status: the union of every reader's need ('*': the whole record). */
export function indexedFields(): Map<string, ReadonlySet<string> | '*'> {
  const out = new Map<string, Set<string> | '*'>();
  for (const need of Object.values(HOOK_READERS) as HookNeed[]) {
    for (const status of need.statuses) {
      const had = out.get(status);
      if (had === '*' || need.fields === '*') out.set(status, '*');
      else out.set(status, new Set([...(had ?? []), 'status', ...need.fields]));
    }
  }
  return out;
}

/** `records` as `reader` sees them: those of a status it declared, each with its declared fields (and status) alone. */
export function hookView(reader: HookReader, records: readonly unknown[]): Rec[] {
  const need: HookNeed = HOOK_READERS[reader];
  const out: Rec[] = [];
  for (const r of records) {
    if (!r || typeof r !== 'object' || Array.isArray(r)) continue;
    const h = r as Rec;
    if (typeof h.status !== 'string' || !need.statuses.includes(h.status)) continue;
    if (need.fields === '*') {
      out.push(h);
      continue;
    }
    const seen: Rec = { status: h.status };
    for (const k of need.fields) if (h[k] !== undefined) seen[k] = h[k];
    out.push(seen);
  }
  return out;
}
