// The tool hooks' way into handoffs.json (docs/agentsync-documentation.md, "Hook packs"): they run around every tool
// call, so they read the file's bytes and parse only the records that contain what they look for. In the layout
// AgentSync writes (src/core/store/storeFormat.ts: 2-space JSON, one record per block indented by four spaces, no raw
// line break inside a string) a record is cut out by its braces; a file in any other layout is parsed whole.

// Store versions 1 to 3 (docs/contract.md §3) share the layout; their heads differ in the digit alone.
const HEADS = [1, 2, 3].map((v) => Buffer.from(`{\n  "version": ${v},\n`));
const HEAD = HEADS[0];
const TAIL = Buffer.from('\n  ]\n}\n');
const RECORD_OPEN = Buffer.from('\n    {\n');
const RECORD_CLOSE = Buffer.from('\n    }');

function inLayout(store: Buffer): boolean {
  return (
    store.length >= HEAD.length + TAIL.length &&
    HEADS.some((head) => store.subarray(0, head.length).equals(head)) &&
    store.subarray(store.length - TAIL.length).equals(TAIL)
  );
}

type Rec = Record<string, unknown>;
const isRecord = (r: unknown): r is Rec => !!r && typeof r === 'object' && !Array.isArray(r);

/** Every record of the file, parsed whole (any layout). */
function allRecords(store: Buffer): Rec[] {
  try {
    const parsed = JSON.parse(store.toString('utf8')) as { handoffs?: unknown };
    return Array.isArray(parsed.handoffs) ? parsed.handoffs.filter(isRecord) : [];
  } catch {
    return [];
  }
}

/**
 * The records of `store` whose text contains one of `needles` (each record once), parsed; in another layout, every
 * record. Records are objects as read, not validated: callers check every field they use. A store that is not JSON
 * yields [].
 */
export function recordsContaining(store: Buffer | string, needles: readonly string[]): Rec[] {
  const bytes = typeof store === 'string' ? Buffer.from(store) : store;
  if (!inLayout(bytes)) return allRecords(bytes);
  const found: Rec[] = [];
  const starts = new Set<number>();
  for (const needle of needles) {
    const n = Buffer.from(needle);
    for (let at = bytes.indexOf(n); at >= 0; at = bytes.indexOf(n, at + n.length)) {
      const start = bytes.lastIndexOf(RECORD_OPEN, at);
      const end = bytes.indexOf(RECORD_CLOSE, at);
      if (start < 0 || end < 0) return allRecords(bytes);
      if (starts.has(start)) continue;
      starts.add(start);
      try {
        const r = JSON.parse(bytes.toString('utf8', start + 1, end + RECORD_CLOSE.length)) as unknown;
        if (isRecord(r)) found.push(r);
      } catch {
        return allRecords(bytes);
      }
    }
  }
  return found;
}
