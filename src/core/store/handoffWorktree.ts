// A handoff's own worktree (docs/contract.md §14 item 5), the one core of `agentsync worktree add <path> --handoff <id>`
// and the editor's "Open in New Worktree": every check first, so a refusal creates nothing; then the worktree on a new
// branch, then the binding on the record. A binding that cannot be recorded (the store refuses the write) takes the
// worktree and its branch back out: nothing half made is left.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ActionError } from '../domain/errors';
import { formatNotice } from '../domain/storeVersion';
import { isTerminal, storeVersionFor, type Handoff } from '../domain/handoffSchema';
import { worktreeBranchFor } from '../domain/worktreeBinding';
import { cloneWorktrees } from '../git/cloneWorktrees';
import { addWorktree, branchState, commitHasFile, headCommit, undoAddWorktree } from '../git/worktreeCommands';
import { vendorOf } from '../hooks/vendors';
import type { WorkspaceLayout } from '../workspace/workspaceLayout';
import { applyFieldChange, type ActionContext } from './handoffMutation';
import type { HandoffStore } from './handoffStore';

/** What was made: the bound handoff, the worktree, the line that starts its agent, and a format notice if any. */
export interface HandoffWorktree {
  handoff: Handoff;
  worktree: { name: string; path: string; branch: string; commit: string };
  start: string;
  notice: string | null;
}

export const FORMAT_NOTICE = formatNotice(
  2,
  'this handoff records its worktree (worktree), a field AgentSync 0.4.0 cannot read. Upgrade AgentSync in every clone ' +
    'of this repository (docs/upgrading.md).',
);

export function real(p: string): string {
  try {
    return fs.realpathSync.native(path.resolve(p));
  } catch {
    return path.resolve(p);
  }
}

/** The clone the workspace is in; a refusal outside git, where there are no worktrees. */
export function clonePlacement(layout: WorkspaceLayout): NonNullable<WorkspaceLayout['placement']> {
  if (!layout.placement)
    throw new ActionError('invalid_request', `${layout.root} is not in a git clone, so it has no worktrees; nothing was changed.`);
  return layout.placement;
}

/** A path as one shell word: quoted unless it is plain. */
function shellWord(p: string): string {
  return /^[\w@%+=:,./-]+$/.test(p) ? p : `'${p.replace(/'/g, `'\\''`)}'`;
}

/** The line that starts `agent` in `dir`: its vendor's command when AgentSync knows it, else a generic one. */
export function startLine(dir: string, agent: string | null): string {
  const vendor = agent ? vendorOf(agent) : null;
  if (vendor) return `cd ${shellWord(dir)} && ${vendor.startCommand}`;
  return `cd ${shellWord(dir)}, then start ${agent ?? 'the agent'} there`;
}

/** A place beside the clone's main worktree for the handoff's worktree: `<clone>-<handoff id>` (a free name). */
export function proposedWorktreePath(layout: WorkspaceLayout, handoffId: string): string {
  const { location } = clonePlacement(layout);
  const main = location.mainWorktree ?? location.worktreeRoot;
  const base = path.join(path.dirname(main), `${path.basename(main)}-${handoffId.toLowerCase()}`);
  let candidate = base;
  for (let i = 2; fs.existsSync(candidate); i++) candidate = `${base}-${i}`;
  return candidate;
}

/** Refuses a target git must not get: an existing file or non-empty folder, or a place inside the clone's git dir. */
function checkTarget(target: string, commonDir: string): void {
  const st = fs.lstatSync(target, { throwIfNoEntry: false });
  if (st && !(st.isDirectory() && fs.readdirSync(target).length === 0))
    throw new ActionError('invalid_request', `${target} already exists and is not an empty folder; nothing was created. Give a new path.`);
  let existing = target;
  while (!fs.existsSync(existing)) existing = path.dirname(existing);
  const at = real(existing);
  const git = real(commonDir);
  if (at === git || at.startsWith(git + path.sep))
    throw new ActionError(
      'invalid_request',
      `${target} is inside the clone's git folder ${git}; nothing was created. Give a path outside it.`,
    );
  if (!fs.statSync(at).isDirectory())
    throw new ActionError('invalid_request', `${existing} is a file, so ${target} cannot be made; nothing was created.`);
}

/** The handoff `ref` when it may get a worktree of its own (asked before a path is); a refusal that says why not. */
export async function handoffForWorktree(store: HandoffStore, layout: WorkspaceLayout, ref: string): Promise<Handoff> {
  const { location } = clonePlacement(layout);
  const h = await store.transactRead((tx) => tx.find(ref));
  if (!h) throw new ActionError('not_found', `no handoff ${ref} in the record (\`agentsync list\`); nothing was created.`);
  if (isTerminal(h.status))
    throw new ActionError('invalid_request', `${h.handoff_id} is ${h.status}: finished work gets no worktree; nothing was created.`);
  if (h.worktree && cloneWorktrees(location).some((w) => w.name === h.worktree!.name))
    throw new ActionError(
      'invalid_request',
      `${h.handoff_id} already owns worktree ${h.worktree.name} (branch ${h.worktree.branch}); nothing was created. ` +
        '`agentsync worktree list` shows where it is.',
    );
  return h;
}

/** Makes the worktree at `rawPath` on a new branch for the handoff `ref` and records the binding (`context` acts). */
export async function addHandoffWorktree(
  store: HandoffStore,
  layout: WorkspaceLayout,
  rawPath: string,
  ref: string,
  agentFlag: string | undefined,
  context: ActionContext,
): Promise<HandoffWorktree> {
  const { location, inRepository } = clonePlacement(layout);
  const h = await handoffForWorktree(store, layout, ref);
  const target = path.resolve(rawPath);
  checkTarget(target, location.commonDir);
  const commit = headCommit(location.worktreeRoot);
  const config = inRepository ? `${inRepository}/.agentsync.json` : '.agentsync.json';
  if (!commit || !commitHasFile(location.worktreeRoot, commit, config))
    throw new ActionError(
      'invalid_request',
      `HEAD of ${location.worktreeRoot} (${commit ? commit.slice(0, 12) : 'no commit yet'}) has no ${config}: a worktree made from it ` +
        'would have no AgentSync, and its agent no packs; nothing was created. Commit AgentSync (`agentsync init`, then commit) ' +
        'or check out a branch that has it, then retry.',
    );
  const branch = worktreeBranchFor(h.handoff_id);
  const state = branchState(location.worktreeRoot, branch);
  if (state !== 'free')
    throw new ActionError(
      'invalid_request',
      state === 'exists'
        ? `branch ${branch} already exists; nothing was created. Remove it (\`git branch -d ${branch}\`) or check it out yourself.`
        : `${branch} is not a valid branch name for git; nothing was created.`,
    );
  const made = addWorktree(location.worktreeRoot, target, branch, commit);
  if (!made.ok) {
    undoAddWorktree(location.worktreeRoot, target, branch);
    throw new ActionError(
      'invalid_request',
      `git could not make the worktree: ${made.out.replace(/\s+/g, ' ').trim()}; nothing was created.`,
    );
  }
  const name = cloneWorktrees(location).find((w) => w.root === real(target))?.name;
  let bound: Handoff;
  let firstV2 = false;
  try {
    if (!name) throw new ActionError('internal_error', `git made ${target}, but it is not among the clone's worktrees.`);
    bound = await store.transact((tx) => {
      const now = h.uid ? tx.find(h.uid) : tx.find(h.handoff_id);
      if (!now) throw new ActionError('not_found', `${h.handoff_id} left the record while its worktree was made.`);
      // The first binding turns the store into version 2, which AgentSync 0.4.0 cannot read (docs/contract.md §3).
      firstV2 = storeVersionFor(tx.handoffs) === 1;
      return applyFieldChange(tx, context, now, { worktree: { name, branch, commit } }, `owns worktree ${name} (${branch})`);
    });
  } catch (e) {
    undoAddWorktree(location.worktreeRoot, target, branch);
    throw e;
  }
  const agent = agentFlag ?? bound.claimed_by ?? (bound.to_agents.length === 1 ? bound.to_agents[0] : null);
  return {
    handoff: bound,
    worktree: { name, path: real(target), branch, commit },
    start: startLine(real(target), agent),
    notice: firstV2 ? FORMAT_NOTICE : null,
  };
}
