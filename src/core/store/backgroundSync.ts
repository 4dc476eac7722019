// The editor's view of the shared state (docs/contract.md §13): while a window is open it syncs every
// `sync.interval_s` seconds, so other machines' claims reach the tree, the badge and the hot files, and it says when
// it last heard from the remote and what the remote answered. No timer runs while `sync` is off (only a cheap
// config re-read, so turning it on needs no reload).
import { isActionError } from '../domain/errors';
import type { HandoffStore } from './handoffStore';
import type { Replayer } from './sync/remoteAuthority';

export interface BackgroundSyncStatus {
  remote: string;
  ref: string;
  /** The last time the remote answered (this clone's sync.json, also written by other processes). */
  fetchedAt: string | null;
  /** The last attempt of this loop, and how it went. */
  lastAttemptAt: string | null;
  ok: boolean | null;
  reason: string | null;
  message: string | null;
  pending: number;
  revoked: number;
}

/** How often a loop with `sync` off looks again whether it was turned on. */
const IDLE_RECHECK_MS = 30_000;

export class BackgroundSync {
  private timer: NodeJS.Timeout | null = null;
  private running = false;
  private stopped = false;
  private last: { at: string; ok: boolean; reason: string | null; message: string | null } | null = null;

  constructor(
    private readonly store: HandoffStore,
    private readonly onStatus: (status: BackgroundSyncStatus | null) => void,
    /** The requests layer's way to replay writes applied offline (requests/offlineWrites.ts), as every contact does. */
    private readonly replayer: Replayer | null,
  ) {}

  /** Syncs now, then every interval_s; called again (the config changed), it starts over with the new interval. */
  start(): void {
    this.stopped = false;
    if (this.timer) clearTimeout(this.timer);
    this.schedule(0);
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /** What the tree shows: null while sync is off. */
  status(): BackgroundSyncStatus | null {
    const sync = this.store.syncAuthority();
    if (!sync) return null;
    const s = sync.status();
    return {
      remote: sync.config.remote,
      ref: sync.config.ref,
      fetchedAt: s.fetched_at,
      lastAttemptAt: this.last?.at ?? null,
      ok: this.last ? this.last.ok : null,
      reason: this.last?.reason ?? null,
      message: this.last?.message ?? null,
      pending: s.pending.length,
      revoked: s.revoked.length,
    };
  }

  /** One sync now (also what the timer runs); never throws: a failure is a status. */
  async tick(): Promise<BackgroundSyncStatus | null> {
    let sync;
    try {
      sync = this.store.syncAuthority();
    } catch {
      sync = null; // a broken config is the tree's problem line, not this loop's
    }
    if (!sync || this.running) return this.status();
    this.running = true;
    const at = new Date().toISOString();
    try {
      await this.store.syncNow(this.replayer ?? undefined);
      this.last = { at, ok: true, reason: null, message: null };
    } catch (e) {
      this.last = { at, ok: false, reason: isActionError(e) ? e.reason : 'internal_error', message: (e as Error).message };
    } finally {
      this.running = false;
    }
    const status = this.status();
    this.onStatus(status);
    return status;
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      void this.tick().finally(() => {
        let interval: number | undefined;
        try {
          interval = this.store.config().config.sync?.interval_s;
        } catch {
          interval = undefined;
        }
        this.schedule(interval ? interval * 1000 : IDLE_RECHECK_MS);
      });
    }, ms);
    this.timer.unref?.();
  }
}

/** The tree's line about sync: when this clone last heard from the remote, or why it did not. */
export function syncStatusLine(s: BackgroundSyncStatus): { tone: 'info' | 'warning'; message: string; detail: string } {
  const since = s.fetchedAt ? `last synced ${s.fetchedAt.replace('T', ' ').slice(0, 19)} UTC` : 'never synced';
  const extra = [
    s.pending ? `${s.pending} write(s) wait for the remote` : '',
    s.revoked ? `${s.revoked} write(s) revoked by the shared state (see agentsync sync --status)` : '',
  ].filter(Boolean);
  if (s.ok === false) {
    return {
      tone: 'warning',
      message: `Sync: ${s.remote} ${s.reason === 'remote_auth' ? 'wants credentials' : s.reason === 'remote_refused' ? 'refused' : 'did not answer'}; ${since}`,
      detail: [`${s.reason}: ${s.message}`, ...extra].join('\n'),
    };
  }
  return {
    tone: s.revoked ? 'warning' : 'info',
    message: `Sync: ${s.remote} ${s.ref}, ${since}${extra.length ? ` (${extra.join('; ')})` : ''}`,
    detail: `Writes are decided by ${s.ref} on the git remote "${s.remote}"; this window fetches it in the background.`,
  };
}
