// Taking requests: an atomic rename into requests/.inflight/ is the claim, so of several processors (two
// `agentsync watch`, editor windows) exactly one gets each request; ENOENT means another one got it first.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { newUid } from '../domain/handoffIds';
import { ensureSafeDirectory } from '../disk/safeDirectory';
import { ACTIVE_CLAIMS, formatInflightName, isOrphan, parseInflightName, type ClaimKind } from './inflightName';
import type { WorkspaceLayout } from '../workspace/workspaceLayout';

/** A claim; its name is in ACTIVE_CLAIMS from the moment it is taken until the caller deletes it. */
export interface Claim {
  kind: ClaimKind;
  ulid: string;
  /** The name the writer gave it (`request.json` for the single drop zone). */
  original: string;
  /** Where it is now, inside .inflight/. */
  file: string;
  name: string;
  /** True when taken over from a processor that died. */
  recovered: boolean;
  /** True when git tracks the request file: a branch carried it, so it is refused unread (trackedRequests.ts). */
  tracked?: boolean;
}

export class DropZonePaths {
  readonly inflightDir: string;

  constructor(readonly layout: WorkspaceLayout) {
    this.inflightDir = path.join(layout.requestsDir, '.inflight');
  }

  /** Creates the drop-zone folders; refuses to work through a symlinked one (it could point anywhere). */
  ensure(): void {
    for (const dir of [this.layout.requestsDir, this.layout.responsesDir, this.inflightDir]) ensureSafeDirectory(this.layout.root, dir);
  }
}

/** Names in requests/ that are requests: `*.json`, not hidden (temp files and .inflight/ start with a dot). */
export function isRequestName(name: string): boolean {
  return name.endsWith('.json') && !name.startsWith('.');
}

/** What is in requests/, read as bytes: a name that is not valid UTF-8 cannot be opened by its decoded string. */
export function listRequestDir(dir: string): { names: string[]; undecodable: Buffer[] } {
  const names: string[] = [];
  const undecodable: Buffer[] = [];
  for (const raw of fs.readdirSync(dir, { encoding: 'buffer' })) {
    const name = raw.toString('utf8');
    if (Buffer.from(name, 'utf8').equals(raw)) names.push(name);
    else undecodable.push(raw);
  }
  return { names, undecodable };
}

/** A name's bytes for a note or a log line: printable ASCII as is, every other byte as `\xNN`. */
export function escapedBytes(raw: Buffer): string {
  return [...raw]
    .map((b) => (b >= 0x20 && b < 0x7f && b !== 0x5c ? String.fromCharCode(b) : `\\x${b.toString(16).padStart(2, '0')}`))
    .join('');
}

function tryRename(from: string, to: string): boolean | 'too_long' {
  try {
    fs.renameSync(from, to);
    return true;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return false; // another processor took it (or it was never there)
    if (code === 'ENAMETOOLONG') return 'too_long';
    throw e;
  }
}

export function claimFile(paths: DropZonePaths, source: string, kind: ClaimKind, original: string): Claim | 'too_long' | null {
  const ulid = newUid();
  const name = formatInflightName({ ulid, kind, original });
  const file = path.join(paths.inflightDir, name);
  const r = tryRename(source, file);
  if (r !== true) return r === 'too_long' ? 'too_long' : null;
  ACTIVE_CLAIMS.add(name); // at once: a recovery pass in the same scan must not see it as left behind
  return { kind, ulid, original, file, name, recovered: false };
}

/** Takes over claims whose processor died (killed mid-request), keeping their ULID so the retry reuses the request_id. */
export function recoverOrphans(paths: DropZonePaths, now = Date.now()): Claim[] {
  let names: string[];
  try {
    names = fs.readdirSync(paths.inflightDir);
  } catch {
    return [];
  }
  const out: Claim[] = [];
  for (const name of names) {
    const parsed = parseInflightName(name);
    if (!parsed) continue;
    const file = path.join(paths.inflightDir, name);
    let ageMs: number;
    try {
      ageMs = now - fs.lstatSync(file).ctimeMs; // ctime moves on rename: the time it was claimed
    } catch {
      continue;
    }
    if (!isOrphan(name, parsed, ageMs)) continue;
    const mine = formatInflightName({ ulid: parsed.ulid, kind: parsed.kind, original: parsed.original });
    const target = path.join(paths.inflightDir, mine);
    if (mine !== name && tryRename(file, target) !== true) continue;
    ACTIVE_CLAIMS.add(mine);
    out.push({ kind: parsed.kind, ulid: parsed.ulid, original: parsed.original, file: target, name: mine, recovered: true });
  }
  return out;
}

/** Moves an entry that cannot be answered to requests/rejected/ with a `.why.txt` note beside it. */
export function rejectEntry(paths: DropZonePaths, from: string | Buffer, ulid: string, original: string, why: string): string {
  const dir = paths.layout.rejectedDir;
  ensureSafeDirectory(paths.layout.root, dir);
  let base = `${ulid}__${original}`;
  if (Buffer.byteLength(base) > 200) base = `${ulid}__name-too-long.json`;
  const target = path.join(dir, base);
  fs.renameSync(from, target);
  const note = [
    `request file: ${JSON.stringify(original)}`,
    `rejected at: ${new Date().toISOString()}`,
    `why: ${why}`,
    'Nothing was changed. Fix the request and write it again under a new name.',
    '',
  ].join('\n');
  fs.writeFileSync(`${target}.why.txt`, note, { flag: 'w', mode: 0o644 });
  return target;
}
