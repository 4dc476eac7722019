// The scene the worktree tests start from (docs/contract.md §14 item 5): a clone with AgentSync committed, and
// handoffs from codex to claude that each own a worktree made beside the clone by `agentsync worktree add`.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cliAtOk, gitOk, tempWorkspace } from './processHarness';

/** A clone (`<temp>/repo`, real path) on branch main whose one commit holds what `agentsync init` wrote. */
export function initializedClone(prefix: string): string {
  const repo = path.join(fs.realpathSync(tempWorkspace(prefix)), 'repo');
  fs.mkdirSync(repo);
  gitOk(repo, 'init', '-q', '-b', 'main');
  cliAtOk(repo, 'init');
  gitOk(repo, 'add', '-A');
  gitOk(repo, 'commit', '-q', '-m', 'agentsync');
  return repo;
}

/**
 * A new handoff from codex to claude (`summary`) owning the worktree `name` beside `repo`, claimed there by claude
 * when `claimed`: its id and the worktree's path.
 */
export function handoffInWorktree(repo: string, summary: string, name: string, claimed: boolean): { id: string; wt: string } {
  const id = cliAtOk(repo, 'create', '--from', 'codex', '--to', 'claude', '--summary', summary, '--quiet').trim();
  cliAtOk(repo, 'worktree', 'add', `../${name}`, '--handoff', id);
  const wt = path.join(path.dirname(repo), name);
  if (claimed) cliAtOk(wt, 'claim', id, '--agent', 'claude');
  return { id, wt };
}
