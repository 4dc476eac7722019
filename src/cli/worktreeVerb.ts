// `agentsync worktree add | list | remove` (docs/contract.md §14 item 5): a handoff owns a git worktree. `add` makes it
// on a new branch named from the handoff and records the binding on the record (by uid, with the commit); `list` reads
// every worktree of the clone from disk with its handoff and holder; `remove` refuses `worktree_held` while the bound
// handoff is held. Not an action of the catalog: it runs git on this machine, which no request may make AgentSync do.
import * as path from 'node:path';
import { ActionError, isActionError } from '../core/domain/errors';
import type { Handoff } from '../core/domain/handoffSchema';
import { displayAgent } from '../core/domain/agentId';
import { sessionWhere } from '../core/domain/agentSession';
import { isHeld } from '../core/domain/worktreeBinding';
import { okResponse } from '../core/domain/responseEnvelope';
import { cloneWorktrees, type CloneWorktree } from '../core/git/cloneWorktrees';
import { headBranch } from '../core/git/worktreePlace';
import { MAIN_WORKTREE_NAME } from '../core/git/worktreeLocation';
import { removeWorktree } from '../core/git/worktreeCommands';
import { applyFieldChange } from '../core/store/handoffMutation';
import { UsageError, type CliContext } from './cliContext';
import type { Verb } from './handoffVerbs';
import { oneLine } from './terminalText';
import { addWorktreeFor } from './worktreeAdd';
import { mergedOffersOf, worktreesGone } from './worktreeFindings';
import type { MergedOffer } from '../core/git/mergedOffer';
import { checkoutHasAgentSync } from '../core/workspace/workspaceHome';
import { cliContext, placementOf, real, refuse } from './worktreeCommon';
import type { Values } from './verbArgs';

export interface WorktreeRow {
  name: string;
  path: string;
  branch: string | null;
  /** Its checkout has the workspace's `.agentsync.json` (false: a branch from before AgentSync). */
  agentsync: boolean;
  handoff: string | null;
  status: string | null;
  holder: string | null;
  lease_expires_at: string | null;
  held: boolean;
  /** Its handoff's branch reached the default branch: the move that records it (core/git/mergedOffer.ts). */
  merged_offer: MergedOffer | null;
}

function gitDirOf(commonDir: string, w: CloneWorktree): string {
  return w.name === MAIN_WORKTREE_NAME ? commonDir : path.join(commonDir, 'worktrees', w.name);
}

function rowsOf(ctx: CliContext, handoffs: readonly Handoff[], now: Date): WorktreeRow[] {
  const placement = placementOf(ctx);
  const { location, inRepository } = placement;
  const worktrees = cloneWorktrees(location);
  const bound = handoffs.filter((h) => h.worktree && worktrees.some((w) => w.name === h.worktree!.name));
  const offers = mergedOffersOf(ctx, bound);
  return worktrees.map((w) => {
    const h = handoffs.find((x) => x.worktree?.name === w.name) ?? null;
    return {
      name: w.name,
      path: w.root,
      branch: headBranch(gitDirOf(location.commonDir, w)),
      agentsync: checkoutHasAgentSync(w.root, inRepository),
      handoff: h?.handoff_id ?? null,
      status: h?.status ?? null,
      holder: h?.claimed_by ? displayAgent(h.claimed_by) + sessionWhere(h.claimed_session) : null,
      lease_expires_at: h?.claimed_by ? (h.lease_expires_at ?? null) : null,
      held: h ? isHeld(h, now) : false,
      merged_offer: (h && offers.find((o) => o.handoff_id === h.handoff_id)) ?? null,
    };
  });
}

async function listWorktrees(ctx: CliContext): Promise<number> {
  const handoffs = await ctx.dispatcher.store.transactRead((tx) => tx.handoffs);
  const rows = rowsOf(ctx, handoffs, new Date());
  // Held work whose worktree was removed by other means has no row: said after the rows (docs/contract.md §14 item 5).
  const gone = worktreesGone(ctx, handoffs);
  if (ctx.json) {
    ctx.io.out(JSON.stringify(okResponse('worktree', { worktrees: rows, worktree_gone: gone })));
    return 0;
  }
  ctx.io.out(
    [
      ...rows.map((r) =>
        [
          `${r.name}  ${r.path}  ${r.branch ?? '(detached HEAD)'}`,
          r.handoff ? `  handoff ${r.handoff} (${r.status})` : '  no handoff',
          r.holder ? `  held by ${r.holder}${r.lease_expires_at ? `, lease until ${r.lease_expires_at}` : ''}` : '',
          r.agentsync ? '' : '\n    no .agentsync.json in this checkout: a branch from before AgentSync (its agents get no packs)',
          r.merged_offer ? `\n    ${r.merged_offer.message}` : '',
        ].join(''),
      ),
      ...gone.map((g) => g.message),
    ].join('\n'),
  );
  return 0;
}

async function removeBound(ctx: CliContext, target: string, force: boolean): Promise<number> {
  const placement = placementOf(ctx);
  const where = real(target);
  const w = cloneWorktrees(placement.location).find((x) => x.root === where);
  if (!w)
    throw new ActionError(
      'invalid_request',
      `${target} is not a worktree of this clone (\`agentsync worktree list\` names them); nothing was changed.`,
    );
  if (w.name === MAIN_WORKTREE_NAME)
    throw new ActionError('invalid_request', `${target} is the main worktree, which is never removed; nothing was changed.`);
  const bound = (await ctx.dispatcher.store.transactRead((tx) => tx.handoffs)).find((h) => h.worktree?.name === w.name);
  if (bound && isHeld(bound, new Date()) && !force)
    throw new ActionError(
      'worktree_held',
      `${target} belongs to ${bound.handoff_id}, held by ${displayAgent(bound.claimed_by!)}${sessionWhere(bound.claimed_session)}` +
        `${bound.lease_expires_at ? ` until ${bound.lease_expires_at}` : ''}; nothing was changed. Let its holder complete or release it, ` +
        'or remove it anyway with --force (its holder loses the folder it works in).',
      { handoff_id: bound.handoff_id, claimedBy: bound.claimed_by, claimedSession: bound.claimed_session ?? null },
    );
  const git = removeWorktree(placement.location.worktreeRoot, w.root, force);
  if (!git.ok)
    throw new ActionError(
      'invalid_request',
      `git could not remove ${target}: ${oneLine(git.out)}. Nothing was changed; commit or discard its changes, or give --force.`,
    );
  let unbound: Handoff | null = null;
  if (bound)
    unbound = await ctx.dispatcher.store.transact((tx) => {
      const h = tx.find(bound.uid ?? bound.handoff_id);
      if (!h?.worktree || h.worktree.name !== w.name) return null;
      const { worktree: _gone, ...rest } = h;
      return applyFieldChange(tx, cliContext('unbindWorktree'), rest, {}, `worktree ${w.name} removed${force ? ' (--force)' : ''}`);
    });
  if (ctx.json) ctx.io.out(JSON.stringify(okResponse('worktree', { removed: { name: w.name, path: w.root }, handoff: unbound })));
  else
    ctx.io.out(
      `removed worktree ${w.name} (${w.root})${unbound ? `; ${unbound.handoff_id} owns no worktree now` : ''}` +
        (bound?.worktree ? `. Its branch ${bound.worktree.branch} is kept.` : ''),
    );
  return 0;
}

export const worktreeVerb: Verb = {
  usage: 'add <path> --handoff <id> [--agent <a>] | list | remove <path> [--force]',
  freshWorktrees: true,
  summary: "git worktrees owned by handoffs: add one on a new branch for a handoff, list the clone's worktrees, remove one",
  details: [
    '',
    'add <path> --handoff <id> [--agent <a>]: a worktree at <path> on the new branch agentsync/<id>, from this HEAD (a commit',
    '  that has .agentsync.json); records it on the handoff and prints the command that starts the agent there.',
    "list: every worktree of the clone: its branch, the handoff it belongs to, that handoff's holder and lease; flags a",
    '  checkout without .agentsync.json (a branch from before AgentSync).',
    'remove <path> [--force]: git worktree remove; refused worktree_held while its handoff is held, unless --force.',
  ],
  options: { handoff: { type: 'string' }, agent: { type: 'string', short: 'a' }, force: { type: 'boolean' } },
  ownWords: true,
  run: async (ctx, values: Values, pos) => {
    const [sub, ...args] = pos;
    const only = (allowed: string[]): void => {
      for (const k of ['handoff', 'agent', 'force'])
        if (values[k] !== undefined && !allowed.includes(k)) throw new UsageError(`worktree ${sub} takes no --${k}`);
    };
    try {
      if (sub === 'list') {
        only([]);
        if (args.length) throw new UsageError('worktree list takes no words');
        return await listWorktrees(ctx);
      }
      if (sub === 'add') {
        only(['handoff', 'agent']);
        if (args.length !== 1 || typeof values.handoff !== 'string')
          throw new UsageError('expected: worktree add <path> --handoff <id> [--agent <a>]');
        return await addWorktreeFor(ctx, args[0], values.handoff, values.agent as string | undefined);
      }
      if (sub === 'remove') {
        only(['force']);
        if (args.length !== 1) throw new UsageError('expected: worktree remove <path> [--force]');
        return await removeBound(ctx, args[0], values.force === true);
      }
      throw new UsageError(sub ? `unknown worktree command "${sub}": add, list or remove` : 'expected add, list or remove');
    } catch (e) {
      if (isActionError(e)) return refuse(ctx, e);
      throw e;
    }
  },
};
