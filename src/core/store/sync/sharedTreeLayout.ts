// The shared tree formats' paths (docs/contract.md §13): one blob
// per record and one per ledger answer, in trees of small fan-out, so a write rewrites the blob it changes and the
// small trees above it, whatever the history holds. A ULID's last characters are its random part (Crockford base32),
// so one character a level spreads records evenly. Open records and ledger answers: three levels (32 × 32 × 32
// leaves). Archived records: three levels in format 2, two in format 3 (32 × 32 leaves, ~100 records a leaf at
// 100,000): a push's cost on the server grows with the number of trees in the state (its connectivity check walks
// them all), and the archive, which only grows, held most of them.
import { createHash } from 'node:crypto';

export const FORMAT_FILE = 'format';
/** The store-wide fields beside the records (`id_high_water`), a small JSON object. */
export const META_FILE = 'meta.json';
/** A shared format of one blob per record (format 1 is the tree of handoffs.json and ledger.jsonl). */
export type TreeFormat = 2 | 3;
/** The newest shared format this build reads and writes (`agentsync sync --upgrade-format` writes it). */
export const NEWEST_SHARED_FORMAT: TreeFormat = 3;
/** Every entry a tree format's root may hold: the format marker and meta.json (files), the areas (trees; context/ in format 3). */
export const TREE_FORMAT_ROOT: Readonly<Record<string, 'blob' | 'tree'>> = {
  [FORMAT_FILE]: 'blob',
  [META_FILE]: 'blob',
  records: 'tree',
  archive: 'tree',
  ledger: 'tree',
  context: 'tree',
};

/** Where the records, the archived records, the ledger answers and (format 3) the passes' work contexts live. */
export type SharedArea = 'records' | 'archive' | 'ledger' | 'context';
/** The areas whose blobs are named by a record's uid. */
export type UidArea = 'records' | 'archive' | 'context';

const SAFE_KEY = /^[0-9A-Za-z]{3,64}$/;

/**
 * `records/<k[-1]>/<k[-2]>/<k[-3]>/<k>.json`: the path of a record (by uid); in format 3 an archived record's is
 * `archive/<k[-1]>/<k[-2]>/<k>.json` (`archive/` over three levels in format 2), a pass's work context's
 * `context/<k[-1]>/<k[-2]>/<k>.json` (format 3 only): the areas that only grow have two levels.
 */
export function recordPath(area: UidArea, uid: string, format: TreeFormat): string {
  if (!SAFE_KEY.test(uid)) throw new Error(`not a record uid: ${JSON.stringify(uid).slice(0, 80)}`);
  if (areaLevels(area, format) === 2) return `${area}/${uid[uid.length - 1]}/${uid[uid.length - 2]}/${uid}.json`;
  return fannedPath(area, uid);
}

/** Whether a format has a place for the passes' work contexts (`context/`): format 3 does, format 2 does not. */
export function carriesContexts(format: TreeFormat): boolean {
  return format >= 3;
}

/** The key a blob's file name gives (`<key>.json`), or null when the name is not one this layout makes. */
export function keyOfFile(name: string): string | null {
  const key = name.endsWith('.json') ? name.slice(0, -'.json'.length) : '';
  return SAFE_KEY.test(key) ? key : null;
}

/** How many levels of fan-out an area has in a format: the trees between the area's tree and its blobs. */
export function areaLevels(area: SharedArea, format: TreeFormat): number {
  return area === 'context' || (area === 'archive' && format >= 3) ? 2 : 3;
}

/** A ledger answer's path: request ids are anyone's text, so the key is their hash (hex, also one char a level). */
export function ledgerPath(requestId: string): string {
  return fannedPath('ledger', createHash('sha256').update(requestId).digest('hex').slice(0, 40));
}

function fannedPath(area: SharedArea, key: string): string {
  const n = key.length;
  return `${area}/${key[n - 1]}/${key[n - 2]}/${key[n - 3]}/${key}.json`;
}

/** What an open record's path names (the same in formats 2 and 3), or null when the path is not one this layout makes. */
export function parsePath(p: string): { area: SharedArea; key: string } | null {
  const m = /^(records|archive|ledger)\/(\w)\/(\w)\/(\w)\/(\w+)\.json$/.exec(p);
  if (!m) return null;
  const key = m[5];
  if (!SAFE_KEY.test(key) || fannedPath(m[1] as SharedArea, key) !== p) return null;
  return { area: m[1] as SharedArea, key };
}
