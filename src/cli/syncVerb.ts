// `agentsync sync [--status]` (docs/contract.md §13): one contact with the git remote (fetch, replay what waits from an
// offline time, push, bring handoffs.json up to the shared state) and what this clone knows of it; --status only tells.
import { ActionError, isActionError } from '../core/domain/errors';
import { okResponse, refusal } from '../core/domain/responseEnvelope';
import type { SyncLocalState } from '../core/store/syncStateFile';
import { NEWEST_SHARED_FORMAT } from '../core/store/sync/sharedTreeLayout';
import { UsageError, type CliContext } from './cliContext';
import { grantSyncConsent, revokeSyncConsent } from '../core/workspace/syncConsent';
import type { Verb } from './handoffVerbs';

export const syncVerb: Verb = {
  usage: '[--status | --enable | --disable | --upgrade-format]',
  summary: 'sync with the git remote named in .agentsync.json "sync": fetch, confirm or revoke offline writes, push; --status only tells',
  details: [
    'Without "sync" in .agentsync.json this clone alone decides, and there is nothing to sync.',
    '--status reads only .agentsync/sync.json (no network): the last commit, when it was fetched, the last error, what waits.',
    '--enable: agree that this clone pushes to the remote and ref .agentsync.json names (kept outside the repository, like',
    '`agentsync trust`); until then writes are refused sync_not_consented. --disable withdraws it. Neither contacts the remote.',
    `--upgrade-format: sync, writing the shared state in shared format ${NEWEST_SHARED_FORMAT} (one file per record, the archive on): upgrade every`,
    'clone first, since older builds refuse it (0.4.0 as store_invalid, builds reading format 2 as store_too_new; docs/upgrading.md).',
  ],
  options: {
    status: { type: 'boolean' },
    enable: { type: 'boolean' },
    disable: { type: 'boolean' },
    'upgrade-format': { type: 'boolean' },
  },
  run: async (ctx, values) => {
    const store = ctx.dispatcher.store;
    const sync = store.syncAuthority();
    if (!sync) {
      if (values.status)
        return print(ctx, 'sync', { enabled: false }, ['sync: off (no "sync" in .agentsync.json); this clone alone decides']);
      return refuse(
        ctx,
        new ActionError(
          'invalid_config',
          'sync is not set in .agentsync.json, so there is no remote to sync with. Add "sync": { "remote": "origin" } (docs/contract.md §13).',
        ),
      );
    }
    const { remote, ref } = sync.config;
    const upgrade = Boolean(values['upgrade-format']);
    if ([values.status, values.enable, values.disable, upgrade].filter(Boolean).length > 1)
      throw new UsageError('--status, --enable, --disable and --upgrade-format cannot be combined');
    if (values.enable || values.disable) return consent(ctx, remote, ref, Boolean(values.enable));
    if (values.status) {
      const s = sync.status();
      const consented = sync.consented();
      const where = sync.ref.whereObjects();
      const objects = { repository: where?.repository ?? null, ref: sync.ref.localRef, shallow: where?.shallow ?? false };
      const lines = [...statusLines(remote, ref, s), OBJECTS_LINE(objects), ...(consented ? [] : [NOT_CONSENTED_LINE])];
      return print(ctx, 'sync', { enabled: true, consented, remote, ref, ...stateData(s), objects }, lines);
    }
    const before = new Set(sync.status().pending.map((p) => p.request_id));
    const renumberedBefore = sync.status().renumbered?.length ?? 0;
    if (upgrade) sync.upgrade.ask();
    try {
      await ctx.dispatcher.sync();
    } catch (e) {
      sync.upgrade.take();
      return refuse(ctx, e);
    }
    const upgraded = sync.upgrade.take();
    const s = sync.status();
    const stillPending = new Set(s.pending.map((p) => p.request_id));
    const revokedNow = new Set(s.revoked.map((r) => r.request_id));
    const confirmed = [...before].filter((id) => !stillPending.has(id) && !revokedNow.has(id));
    const handoffs = store.read().handoffs.length;
    // Ids given offline are provisional: one the shared state gave another handoff meanwhile is renumbered.
    const renumbered = (s.renumbered ?? []).slice(renumberedBefore).map(({ from, to, uid }) => ({ from, to, uid }));
    const data = { remote, ref, ...stateData(s), confirmed, renumbered, handoffs, ...(upgraded ? { format_upgrade: upgraded } : {}) };
    const lines = [
      ...(upgraded ? [upgradeLine(upgraded, ref)] : []),
      ...statusLines(remote, ref, s),
      ...(confirmed.length ? [`confirmed: ${confirmed.join(', ')}`] : []),
      ...renumbered.map(
        (r) =>
          `renumbered: ${r.from} is now ${r.to} (uid ${r.uid}; ${r.from} was given in this clone alone, and the shared state gives it to another handoff)`,
      ),
      `handoffs: ${handoffs}`,
    ];
    return print(ctx, 'sync', data, lines);
  },
};

/** What --upgrade-format did, and what clones of an older AgentSync see now (docs/upgrading.md). */
function upgradeLine(upgraded: string, ref: string): string {
  if (upgraded === 'already') return `format: ${ref} is already in shared format ${NEWEST_SHARED_FORMAT}; nothing to upgrade`;
  if (upgraded !== 'written') return 'format: not upgraded (nothing was written)';
  return (
    `format: UPGRADED ${ref} to shared format ${NEWEST_SHARED_FORMAT} (one file per record, the archive runs in sync mode). ` +
    'Clones running an older AgentSync now refuse every sync write and --fresh read: builds that read format 2 as ' +
    'store_too_new, 0.4.0 and earlier as store_invalid ("its tree holds format, meta.json, records/ ..."). Upgrade ' +
    'AgentSync there; never push an older state back'
  );
}

/** Where the shared state's objects live (docs/contract.md §13). */
const OBJECTS_LINE = (o: { repository: string | null; ref: string; shallow: boolean }) =>
  `objects: in AgentSync's own repository ${o.repository ?? '(none: not in a git clone)'} (${o.ref}), ` +
  `${o.shallow ? 'without the history before its first fetch (--depth=1)' : 'with their whole history'}; the clone's own history is never made shallow`;

const NOT_CONSENTED_LINE = 'NOT enabled on this machine: writes are refused until `agentsync sync --enable`';

/** --enable / --disable: this clone's consent to the committed sync section's remote and ref (no network). */
function consent(ctx: CliContext, remote: string, ref: string, enable: boolean): number {
  const root = ctx.layout.root;
  if (enable) {
    const file = grantSyncConsent(root, remote, ref);
    return print(ctx, 'sync', { consented: true, remote, ref, consent_file: file }, [
      `enabled: writes in ${root} now go through ${ref} on the git remote "${remote}" (recorded in ${file}); run \`agentsync sync\` to sync now`,
    ]);
  }
  const removed = revokeSyncConsent(root);
  return print(ctx, 'sync', { consented: false, revoked: removed, remote, ref }, [
    removed ? `disabled: writes in ${root} are refused until \`agentsync sync --enable\`` : 'nothing to disable: sync was not enabled here',
  ]);
}

function stateData(s: SyncLocalState): Record<string, unknown> {
  return {
    commit: s.commit,
    fetched_at: s.fetched_at,
    last_error: s.last_error,
    pending: s.pending.length,
    pending_writes: s.pending.map((p) => ({
      request_id: p.request_id,
      action: p.action,
      agent: p.agent,
      handoff_id: p.handoff_id,
      applied_at: p.applied_at,
    })),
    revoked: s.revoked,
    // Writes whose push lost its reply and whose check failed too; and what later contacts found of them.
    unsettled: s.unsettled ?? [],
    settled: s.settled ?? [],
  };
}

function statusLines(remote: string, ref: string, s: SyncLocalState): string[] {
  return [
    `sync: ${remote} ${ref}`,
    `commit: ${s.commit ?? '(none yet)'}`,
    `fetched: ${s.fetched_at ?? 'never'}`,
    ...(s.last_error ? [`last error (${s.last_error.at}): ${s.last_error.reason}: ${s.last_error.message}`] : []),
    `pending: ${s.pending.length}${s.pending.length ? ` (${s.pending.map((p) => `${p.action} ${p.handoff_id ?? ''}`.trim()).join(', ')})` : ''}`,
    ...(s.unsettled ?? []).map(
      (u) =>
        `UNKNOWN: ${u.action} ${u.handoff_id ?? ''} (${u.request_id}) was sent, its outcome not known yet; retry with --request-id ${u.request_id}`,
    ),
    ...(s.settled ?? []).map(
      (u) => `${u.outcome === 'applied' ? 'landed' : 'NOT applied'}: ${u.action} ${u.handoff_id ?? ''} (${u.request_id})`,
    ),
    ...s.revoked.map((r) =>
      `REVOKED: ${r.action} ${r.handoff_id ?? ''} by ${r.agent ?? '?'} (${r.request_id}): ${r.reason}: ${r.message}`.replace(/ {2,}/g, ' '),
    ),
  ];
}

function print(ctx: CliContext, action: string, data: Record<string, unknown>, lines: string[]): number {
  if (ctx.json) ctx.io.out(JSON.stringify(okResponse(action, data)));
  else ctx.io.out(lines.join('\n'));
  return 0;
}

function refuse(ctx: CliContext, e: unknown): number {
  const err = isActionError(e) ? e : new ActionError('internal_error', `AgentSync failed: ${(e as Error).message}`);
  if (ctx.json) ctx.io.out(JSON.stringify(refusal('sync', err.reason, err.message, {}, err.details)));
  else ctx.io.err(`agentsync: ${err.reason}: ${err.message}`);
  return 1;
}
