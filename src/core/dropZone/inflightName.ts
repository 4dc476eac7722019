// Names of requests being processed: `.agentsync/requests/.inflight/<ULID>.<pid>.<host>.<kind>__<original-name>`.
// The rename into this name is the claim (only one processor's rename succeeds). The ULID is the request's
// request_id when it brought none, so a retry after a crash answers under the same id; the pid and host say
// whose claim it is, so a claim whose process died can be taken over.
import { createHash } from 'node:crypto';
import * as os from 'node:os';
import { processAlive } from '../disk/processAlive';

/** q: a file from requests/; s: the single request.json (answered in result.json). */
export type ClaimKind = 'q' | 's';

export interface InflightName {
  ulid: string;
  pid: number;
  host: string;
  kind: ClaimKind;
  original: string;
}

export const THIS_HOST = createHash('sha256').update(os.hostname()).digest('hex').slice(0, 8);

const PATTERN = /^([0-9A-HJKMNP-TV-Z]{26})\.(\d{1,10})\.([0-9a-f]{8})\.([qs])__(.+)$/;

export function formatInflightName(n: Omit<InflightName, 'pid' | 'host'>, pid = process.pid, host = THIS_HOST): string {
  return `${n.ulid}.${pid}.${host}.${n.kind}__${n.original}`;
}

export function parseInflightName(name: string): InflightName | null {
  const m = PATTERN.exec(name);
  if (!m) return null;
  return { ulid: m[1], pid: Number(m[2]), host: m[3], kind: m[4] as ClaimKind, original: m[5] };
}

/** A claim from another host cannot be checked for liveness: it is taken over after this long. */
export const FOREIGN_CLAIM_MS = 60_000;
/** Past this even a "live" owner is presumed gone (its pid reused). Replays are idempotent, so this is safe. */
export const MAX_CLAIM_MS = 30 * 60_000;

/** Claims this process is working on right now (all processors in it), by in-flight file name. */
export const ACTIVE_CLAIMS = new Set<string>();

/** Whether a claim may be taken over: its owner is dead, or (another host) it is old, or it is very old. */
export function isOrphan(name: string, n: InflightName, ageMs: number): boolean {
  if (n.host === THIS_HOST && n.pid === process.pid) return !ACTIVE_CLAIMS.has(name); // ours, but left behind
  if (ageMs > MAX_CLAIM_MS) return true;
  if (n.host !== THIS_HOST) return ageMs > FOREIGN_CLAIM_MS;
  return !processAlive(n.pid);
}
