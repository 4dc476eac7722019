// Which of an agent's leases the post-tool-use hook renews (docs/agentsync-documentation.md, "Hook packs"): only those
// past half their time, so most tool calls write nothing. Reads the store text without schema validation: it only
// decides whether to send heartbeats, and every heartbeat then goes through the dispatcher under the lock.

interface LeaseFields {
  handoff_id?: unknown;
  status?: unknown;
  claimed_by?: unknown;
  claimed_at?: unknown;
  updated_at?: unknown;
  lease_expires_at?: unknown;
}

/** True when `h` is an in-progress handoff `agent` holds whose lease is at least half used at `nowMs`. */
function due(h: LeaseFields, agent: string, nowMs: number): boolean {
  if (!h || h.status !== 'in_progress' || h.claimed_by !== agent || typeof h.handoff_id !== 'string') return false;
  const until = typeof h.lease_expires_at === 'string' ? Date.parse(h.lease_expires_at) : NaN;
  if (!Number.isFinite(until)) return false;
  const starts = [h.claimed_at, h.updated_at].map((t) => (typeof t === 'string' ? Date.parse(t) : NaN)).filter(Number.isFinite);
  const start = starts.length ? Math.min(Math.max(...starts), until) : until;
  return nowMs >= start + (until - start) / 2;
}

// The layout AgentSync writes handoffs.json in (core/store/storeFormat.ts): 2-space JSON, each record a block that
// opens with "\n    {\n" and closes with "\n    }" (deeper objects are indented further, and JSON strings hold no
// raw newline), so a record is found around any of its bytes without parsing the rest of the file.
const LAYOUT_HEAD = Buffer.from('{\n  "version": 1,\n');
const RECORD_OPEN = Buffer.from('\n    {\n');
const RECORD_CLOSE = Buffer.from('\n    }');

/**
 * Ids of in-progress handoffs `agent` holds whose lease is at least half used. The lease's start is the later of
 * claimed_at and updated_at (a heartbeat updates the record), so an unrelated update only makes the renewal earlier.
 * In a file of AgentSync's layout only the records that name the agent as holder are parsed, so the cost follows
 * the agent's claims, not the store's size; any other file is parsed whole.
 */
export function leasesDue(store: string | Buffer, agent: string, nowMs: number): string[] {
  const bytes = typeof store === 'string' ? Buffer.from(store) : store;
  // Cheap pre-check: no record names this agent, so there is nothing to parse.
  if (bytes.indexOf(`"${agent}"`) < 0) return [];
  if (bytes.subarray(0, LAYOUT_HEAD.length).equals(LAYOUT_HEAD)) {
    const sliced = dueInRecordsNaming(bytes, agent, nowMs);
    if (sliced) return sliced;
  }
  let parsed: { handoffs?: unknown };
  try {
    parsed = JSON.parse(bytes.toString('utf8')) as { handoffs?: unknown };
  } catch {
    return [];
  }
  if (!Array.isArray(parsed.handoffs)) return [];
  return (parsed.handoffs as LeaseFields[]).filter((h) => due(h, agent, nowMs)).map((h) => h.handoff_id as string);
}

/** The due leases of the records holding `"claimed_by": "<agent>"`; null when a block does not read as a record. */
function dueInRecordsNaming(bytes: Buffer, agent: string, nowMs: number): string[] | null {
  const needle = Buffer.from(`"claimed_by": ${JSON.stringify(agent)}`);
  const out: string[] = [];
  let lastRecord = -1;
  for (let hit = bytes.indexOf(needle); hit >= 0; hit = bytes.indexOf(needle, hit + needle.length)) {
    const open = bytes.lastIndexOf(RECORD_OPEN, hit);
    const close = bytes.indexOf(RECORD_CLOSE, hit);
    if (open < 0 || close < 0) return null;
    if (open === lastRecord) continue; // the holder named again deeper in the same record (a conflict entry)
    lastRecord = open;
    let record: LeaseFields;
    try {
      record = JSON.parse(bytes.toString('utf8', open + 1, close + RECORD_CLOSE.length)) as LeaseFields;
    } catch {
      return null;
    }
    if (due(record, agent, nowMs)) out.push(record.handoff_id as string);
  }
  return out;
}
