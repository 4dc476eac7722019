// The validated-store stamp (docs/agentsync-documentation.md, "Files"): proof that handoffs.json is byte for byte
// what an AgentSync process of this user wrote after validating every record, so a cold start may skip the schema
// pass. It is an HMAC of the store's hash (storeHash.ts) under a per-user secret kept outside any repository: a stamp
// written by hand, copied from elsewhere or committed cannot match a hand-edited store.
// After that first line it may hold the store file's stat as the stamping process saw it (device, inode, size, and
// modification and change times in nanoseconds) with the digests of the store's parts (storeHash.ts), under a second
// HMAC: a process that finds the same stat takes those digests instead of hashing the file (the first check only;
// the key is disk/fileStatKey.ts's, as for the tracker). Any write to the file, in place or by rename, moves its change time,
// which no tool can set back; a stat that differs, or a line that does not verify, falls back to hashing the bytes.
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

/** A store file's stat and its parts' digests, as the stat line records them. */
export interface StatStamp {
  stat: string;
  digests: Buffer;
}

const STAT_LINE = /^stat (\d+:\d+:\d+:\d+:\d+) ([0-9a-f]{64})\n/;
/** The stamp's first line: the HMAC of the hash, 64 hex digits. */
const HASH_STAMP_LENGTH = 64;
/** 32 bytes per part: a 200 MB store of small records stays under it; a larger file is not a stamp. */
const MAX_STAMP_BYTES = 32 * 1024 * 1024;

function statMac(key: Buffer, stat: string, digests: Buffer): string {
  return crypto.createHmac('sha256', key).update(`agentsync-stat-stamp-v1\n${stat}\n`).update(digests).digest('hex');
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
export function writeStamp(file: string, stamp: string | Buffer): void {
  const fd = fs.openSync(file, fs.constants.O_WRONLY | fs.constants.O_CREAT | (fs.constants.O_NOFOLLOW ?? 0), 0o644);
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile()) throw new Error(`${file} is not a regular file`);
    const bytes = typeof stamp === 'string' ? Buffer.from(stamp) : stamp;
    fs.writeSync(fd, bytes, 0, bytes.length, 0);
    if (st.size > bytes.length) fs.ftruncateSync(fd, bytes.length);
  } finally {
    fs.closeSync(fd);
  }
}

/** The stamp file's bytes, or null when it is missing, not a regular file, or too large to be one. */
function readStampFile(file: string): Buffer | null {
  try {
    const st = fs.lstatSync(file);
    return st.isFile() && st.size <= MAX_STAMP_BYTES ? fs.readFileSync(file) : null;
  } catch {
    return null;
  }
}

/** The first line: the whole file (a stamp without a stat line), or what comes before its first line break. */
function hashStampOf(bytes: Buffer): string | null {
  if (bytes.length !== HASH_STAMP_LENGTH && bytes[HASH_STAMP_LENGTH] !== 0x0a) return null;
  return bytes.subarray(0, HASH_STAMP_LENGTH).toString('latin1');
}

/** True when `file` holds this user's stamp for a store whose bytes hash to `hash` (a missing or odd file: false). */
export function isStamped(file: string, hash: string): boolean {
  const bytes = readStampFile(file);
  return !!bytes && stampMatches(hashStampOf(bytes), hash);
}

/**
 * The parts' digests the stamp records for a store file whose stat is `stat` and that splits into `parts` parts, or
 * null when its stat line names another stat, another number of parts, or does not verify under this user's key.
 */
export function stampedDigests(file: string, stat: string, parts: number): Buffer | null {
  const key = stampKey();
  const bytes = key && readStampFile(file);
  if (!key || !bytes || bytes.length <= HASH_STAMP_LENGTH || bytes[HASH_STAMP_LENGTH] !== 0x0a) return null;
  const rest = bytes.subarray(HASH_STAMP_LENGTH + 1);
  const line = STAT_LINE.exec(rest.subarray(0, 200).toString('latin1'));
  if (!line || line[1] !== stat) return null;
  const digests = rest.subarray(line[0].length);
  if (digests.length !== parts * 32) return null;
  const expected = Buffer.from(statMac(key, stat, digests));
  return crypto.timingSafeEqual(Buffer.from(line[2]), expected) ? digests : null;
}

/**
 * Stamps the store whose bytes hash to `hash` as validated (nothing when no key can be kept); with `stat`, also
 * records that the file with that stat splits into parts with those digests. Only for a stat taken of the very file
 * whose bytes were hashed (storeHash.ts) and validated or written by this process.
 */
export function stampStore(file: string, hash: string, stat?: StatStamp | null): void {
  const stamp = stampFor(hash);
  if (!stamp) return;
  if (!stat) return writeStamp(file, stamp);
  const line = `${stamp}\nstat ${stat.stat} ${statMac(stampKey()!, stat.stat, stat.digests)}\n`;
  writeStamp(file, Buffer.concat([Buffer.from(line, 'latin1'), stat.digests]));
}
