// The validated-store stamp (docs/agentsync-documentation.md, "Files"): proof that handoffs.json is byte for byte
// what an AgentSync process of this user wrote after validating every record, so a cold start may skip the schema
// pass. It is an HMAC of the store's hash (storeHash.ts) under a per-user secret kept outside any repository: a stamp
// written by hand, copied from elsewhere or committed cannot match a hand-edited store.
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/** SHA-256 of the exact bytes, hex (the tracker's proof in state.json; the store itself is hashed by storeHash.ts). */
export function contentHash(data: string | Buffer | readonly Buffer[]): string {
  const h = crypto.createHash('sha256');
  if (typeof data === 'string' || Buffer.isBuffer(data)) h.update(data);
  else for (const b of data) h.update(b);
  return h.digest('hex');
}

let cachedKey: Buffer | null | undefined;

function secretFile(): string {
  const base = process.env.XDG_CONFIG_HOME || path.join(os.homedir(), '.config');
  return path.join(base, 'agentsync', 'store-stamp.key');
}

/** The per-user secret, created (mode 0600) on first use; null when it cannot be kept (then nothing is trusted). */
function stampKey(): Buffer | null {
  if (cachedKey !== undefined) return cachedKey;
  const file = secretFile();
  try {
    cachedKey = readKey(file);
    if (!cachedKey) {
      fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
      try {
        fs.writeFileSync(file, crypto.randomBytes(32).toString('hex'), { flag: 'wx', mode: 0o600 });
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e; // another process made it first: use theirs
      }
      cachedKey = readKey(file);
    }
  } catch {
    cachedKey = null;
  }
  return cachedKey;
}

function readKey(file: string): Buffer | null {
  try {
    const st = fs.lstatSync(file);
    if (!st.isFile() || st.size > 1024) return null;
    const text = fs.readFileSync(file, 'utf8').trim();
    return /^[0-9a-f]{64}$/.test(text) ? Buffer.from(text, 'hex') : null;
  } catch {
    return null;
  }
}

/** The stamp text for a store whose bytes hash to `hash`, or null when no key is available. */
export function stampFor(hash: string): string | null {
  const key = stampKey();
  return key ? crypto.createHmac('sha256', key).update(hash).digest('hex') : null;
}

/** True only when `stampText` is this user's stamp for exactly these bytes. */
export function stampMatches(stampText: string | null, hash: string): boolean {
  if (!stampText) return false;
  const expected = stampFor(hash);
  if (!expected || stampText.length !== expected.length) return false;
  return crypto.timingSafeEqual(Buffer.from(stampText), Buffer.from(expected));
}

/**
 * Writes the stamp over the old one in place, without truncating or renaming: on ext4 both make the kernel flush the
 * file at once, which costs every write. A reader that catches it half-written sees a stamp that matches nothing,
 * and so validates in full: the safe side. Never through a symlink.
 */
export function writeStamp(file: string, stamp: string): void {
  const fd = fs.openSync(file, fs.constants.O_WRONLY | fs.constants.O_CREAT | (fs.constants.O_NOFOLLOW ?? 0), 0o644);
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile()) throw new Error(`${file} is not a regular file`);
    const bytes = Buffer.from(stamp);
    fs.writeSync(fd, bytes, 0, bytes.length, 0);
    if (st.size > bytes.length) fs.ftruncateSync(fd, bytes.length);
  } finally {
    fs.closeSync(fd);
  }
}

/** True when `file` holds this user's stamp for a store whose bytes hash to `hash` (a missing or odd file: false). */
export function isStamped(file: string, hash: string): boolean {
  let text: string | null = null;
  try {
    const st = fs.lstatSync(file);
    text = st.isFile() && st.size <= 256 ? fs.readFileSync(file, 'utf8') : null;
  } catch {
    return false;
  }
  return stampMatches(text, hash);
}

/** Stamps the store whose bytes hash to `hash` as validated (nothing when no key can be kept). */
export function stampStore(file: string, hash: string): void {
  const stamp = stampFor(hash);
  if (stamp) writeStamp(file, stamp);
}
