// Shared format 2's paths (docs/contract.md §13): one blob
// per record and one per ledger answer, in trees of small fan-out over three levels, so a write rewrites the blob it
// changes and three small trees above it, whatever the history holds. A ULID's last characters are its random part
// (Crockford base32), so one character a level spreads records evenly: 32 × 32 × 32 leaves, ~3 records a leaf at
// 100,000 records, each tree on the path about 1 KB.
import { createHash } from 'node:crypto';

export const FORMAT_FILE = 'format';
/** The store-wide fields beside the records (`id_high_water`), a small JSON object. */
export const META_FILE = 'meta.json';
export const SHARED_FORMAT_2 = 2;
/** The newest shared format this build reads and writes; format 1 is the tree of handoffs.json and ledger.jsonl. */
export const NEWEST_SHARED_FORMAT = SHARED_FORMAT_2;
/** Every entry a format-2 tree's root may hold: the format marker and meta.json (files), the three areas (trees). */
export const FORMAT_2_ROOT: Readonly<Record<string, 'blob' | 'tree'>> = {
  [FORMAT_FILE]: 'blob',
  [META_FILE]: 'blob',
  records: 'tree',
  archive: 'tree',
  ledger: 'tree',
};

/** Where the records, the archived records and the ledger answers live in a format-2 tree. */
export type SharedArea = 'records' | 'archive' | 'ledger';

const SAFE_KEY = /^[0-9A-Za-z]{3,64}$/;

/** `records/<k[-1]>/<k[-2]>/<k[-3]>/<k>.json`: the path of a record (by uid) or an archived record. */
export function recordPath(area: 'records' | 'archive', uid: string): string {
  if (!SAFE_KEY.test(uid)) throw new Error(`not a record uid: ${JSON.stringify(uid).slice(0, 80)}`);
  return fannedPath(area, uid);
}

/** A ledger answer's path: request ids are anyone's text, so the key is their hash (hex, also one char a level). */
export function ledgerPath(requestId: string): string {
  return fannedPath('ledger', createHash('sha256').update(requestId).digest('hex').slice(0, 40));
}

function fannedPath(area: SharedArea, key: string): string {
  const n = key.length;
  return `${area}/${key[n - 1]}/${key[n - 2]}/${key[n - 3]}/${key}.json`;
}

/** What a format-2 path names, or null when the path is not one this layout makes. */
export function parsePath(p: string): { area: SharedArea; key: string } | null {
  const m = /^(records|archive|ledger)\/(\w)\/(\w)\/(\w)\/(\w+)\.json$/.exec(p);
  if (!m) return null;
  const key = m[5];
  if (!SAFE_KEY.test(key) || fannedPath(m[1] as SharedArea, key) !== p) return null;
  return { area: m[1] as SharedArea, key };
}
