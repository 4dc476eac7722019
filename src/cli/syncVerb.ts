// `agentsync sync [--status]` (docs/contract.md §13): one contact with the git remote (fetch, replay what waits from an
// offline time, push, bring handoffs.json up to the shared state) and what this clone knows of it; --status only tells.
import { ActionError, isActionError } from '../core/domain/errors';
import { okResponse, refusal } from '../core/domain/responseEnvelope';
import type { SyncLocalState } from '../core/store/syncStateFile';
import type { CliContext } from './cliContext';
import type { Verb } from './handoffVerbs';

export const syncVerb: Verb = {
  usage: '[--status]',
  summary: 'sync with the git remote named in .agentsync.json "sync": fetch, confirm or revoke offline writes, push; --status only tells',
  details: [
    'Without "sync" in .agentsync.json this clone alone decides, and there is nothing to sync.',
    '--status reads only .agentsync/sync.json (no network): the last commit, when it was fetched, the last error, what waits.',
  ],
  options: { status: { type: 'boolean' } },
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
    if (values.status) {
      const s = sync.status();
      return print(ctx, 'sync', { enabled: true, remote, ref, ...stateData(s) }, statusLines(remote, ref, s));
    }
    const before = new Set(sync.status().pending.map((p) => p.request_id));
    const renumberedBefore = sync.status().renumbered?.length ?? 0;
    try {
      await ctx.dispatcher.sync();
    } catch (e) {
      return refuse(ctx, e);
    }
    const s = sync.status();
    const stillPending = new Set(s.pending.map((p) => p.request_id));
    const revokedNow = new Set(s.revoked.map((r) => r.request_id));
    const confirmed = [...before].filter((id) => !stillPending.has(id) && !revokedNow.has(id));
    const handoffs = store.read().handoffs.length;
    // Ids given offline are provisional: one the shared state gave another handoff meanwhile is renumbered.
    const renumbered = (s.renumbered ?? []).slice(renumberedBefore).map(({ from, to, uid }) => ({ from, to, uid }));
    const data = { remote, ref, ...stateData(s), confirmed, renumbered, handoffs };
    const lines = [
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
  };
}

function statusLines(remote: string, ref: string, s: SyncLocalState): string[] {
  return [
    `sync: ${remote} ${ref}`,
    `commit: ${s.commit ?? '(none yet)'}`,
    `fetched: ${s.fetched_at ?? 'never'}`,
    ...(s.last_error ? [`last error (${s.last_error.at}): ${s.last_error.reason}: ${s.last_error.message}`] : []),
    `pending: ${s.pending.length}${s.pending.length ? ` (${s.pending.map((p) => `${p.action} ${p.handoff_id ?? ''}`.trim()).join(', ')})` : ''}`,
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
