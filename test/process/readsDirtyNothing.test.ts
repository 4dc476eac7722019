// Reads dirty nothing (docs/contract.md §14, "Reads dirty nothing"): when the main worktree's committed
// AgentTracker.md, handoffs.json and audit lag the clone's live record (a `git reset --hard`, a checkout of an older
// commit), a read (`list`, `show`, the hooks, MCP) changes no file git tracks, so `git status` stays empty and a
// `git checkout` / `git merge` is never stopped by AgentSync's files. The next write brings them up to the record.
// Real git, the CLI and the MCP server as processes.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CLI, NO_SESSION_ENV, cliAt, cliAtOk, gitOk, tempWorkspace } from './processHarness';

const status = (dir: string): string => gitOk(dir, 'status', '--porcelain');

/**
 * A clone with AgentSync committed (`init`), then two handoffs (one claimed) committed on main and on the branch
 * `ahead`, then main reset to the init commit: the committed files now lag the clone's record.
 */
function laggingClone(): { repo: string; ids: string[] } {
  const repo = path.join(tempWorkspace('reads-clean'), 'repo');
  fs.mkdirSync(repo);
  gitOk(repo, 'init', '-q', '-b', 'main');
  cliAtOk(repo, 'init');
  gitOk(repo, 'add', '-A');
  gitOk(repo, 'commit', '-q', '-m', 'agentsync');
  const ids = [1, 2].map((n) => cliAtOk(repo, 'create', '--from', 'human', '--to', 'claude', '--summary', `work ${n}`, '--quiet').trim());
  cliAtOk(repo, 'claim', ids[0], '--agent', 'claude');
  gitOk(repo, 'add', '-A');
  gitOk(repo, 'commit', '-q', '-m', 'handoffs');
  gitOk(repo, 'branch', 'ahead');
  gitOk(repo, 'reset', '-q', '--hard', 'HEAD~1');
  assert.equal(status(repo), '');
  return { repo: fs.realpathSync(repo), ids };
}

/** A checkout and a merge of the branch whose committed files differ are not stopped by a local change. */
function assertGitMovesFreely(repo: string): void {
  assert.equal(status(repo), '', `a read left changes: ${gitOk(repo, 'diff', '--stat')}`);
  gitOk(repo, 'checkout', '-q', 'ahead');
  gitOk(repo, 'checkout', '-q', 'main');
  gitOk(repo, 'merge', '-q', '--ff-only', 'ahead');
}

describe('reads dirty nothing when the committed files lag the record (real git)', function () {
  this.timeout(180_000);

  it('list, show and list --json after `git reset --hard` leave git status empty; checkout and merge go through', () => {
    const { repo, ids } = laggingClone();
    const listed = cliAtOk(repo, 'list');
    for (const id of ids) assert.match(listed, new RegExp(id), 'the read answers from the record, not the reset files');
    assert.match(cliAtOk(repo, 'show', ids[0]), /in_progress/);
    cliAtOk(repo, '--json', 'list');
    cliAtOk(repo, 'show', ids[1]);
    assertGitMovesFreely(repo);
  });

  it('a read in a subfolder and in a linked worktree on an old commit leave every checkout clean', () => {
    const { repo, ids } = laggingClone();
    fs.mkdirSync(path.join(repo, 'src'));
    fs.writeFileSync(path.join(repo, 'src', 'a.txt'), 'a\n');
    gitOk(repo, 'add', '-A');
    gitOk(repo, 'commit', '-q', '-m', 'a file');
    const linked = path.join(path.dirname(repo), 'linked');
    gitOk(repo, 'worktree', 'add', '-q', '-b', 'old', linked, 'HEAD~1');
    assert.match(cliAtOk(path.join(repo, 'src'), 'list'), new RegExp(ids[1]));
    assert.match(cliAtOk(linked, 'list'), new RegExp(ids[1]));
    assert.equal(status(linked), '');
    assert.equal(status(repo), '', gitOk(repo, 'diff', '--stat'));
  });

  it('the hooks (pre-tool-use, stop) and `request` reads leave git status empty', () => {
    const { repo } = laggingClone();
    const hook = (event: string, input: Record<string, unknown>) =>
      cliAt(repo, ['hook', event, '--agent', 'claude', '--format', 'claude'], JSON.stringify({ cwd: repo, ...input }));
    hook('pre-tool-use', { hook_event_name: 'PreToolUse', tool_name: 'Edit', tool_input: { file_path: path.join(repo, 'x.ts') } });
    hook('stop', { hook_event_name: 'Stop' });
    const r = cliAt(repo, ['request', '-'], JSON.stringify({ action: 'listHandoffs', agent: 'claude' }));
    assert.equal(r.code, 0, r.out + r.err);
    assertGitMovesFreely(repo);
  });

  it('an MCP client listing and asking status through `agentsync mcp` leaves git status empty', async () => {
    const { repo, ids } = laggingClone();
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, '--dir', repo, 'mcp'],
      env: NO_SESSION_ENV as Record<string, string>,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'reads-clean', version: '1.0.0' });
    await client.connect(transport);
    try {
      const listed = JSON.stringify(await client.callTool({ name: 'listHandoffs', arguments: { agent: 'claude' } }));
      assert.match(listed, new RegExp(ids[1]));
      await client.callTool({ name: 'status', arguments: { agent: 'claude' } });
    } finally {
      await client.close();
    }
    assertGitMovesFreely(repo);
  });

  it("the next write brings the main worktree's committed files up to the record", () => {
    const { repo, ids } = laggingClone();
    cliAtOk(repo, 'list');
    assert.equal(status(repo), '');
    cliAtOk(repo, 'claim', ids[1], '--agent', 'claude');
    const tracker = fs.readFileSync(path.join(repo, 'AgentTracker.md'), 'utf8');
    for (const id of ids) assert.match(tracker, new RegExp(id));
    assert.match(fs.readFileSync(path.join(repo, '.agentsync', 'handoffs.json'), 'utf8'), new RegExp(ids[1]));
  });
});
