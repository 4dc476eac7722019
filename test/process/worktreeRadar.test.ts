// The conflict radar across the worktrees of one clone (docs/contract.md §14 item 4), with real `git worktree`s and
// the hook as a real process: a written file is compared by its path relative to the innermost worktree that holds
// its real path, so a claim listing `src/app.ts` warns an agent editing `src/app.ts` in another worktree, in a
// worktree nested inside the checkout, and one session of an agent about another session's claim.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CLI, NO_SESSION_ENV, gitOk, runCliSync, tempWorkspace } from './processHarness';

function env(session: string | null): NodeJS.ProcessEnv {
  const e: NodeJS.ProcessEnv = { ...NO_SESSION_ENV };
  if (session) e.CLAUDE_CODE_SESSION_ID = session;
  return e;
}

function request(dir: string, body: object, session: string | null): { ok: boolean; data: Record<string, unknown> } {
  const r = spawnSync(process.execPath, [CLI, 'request', '-'], {
    cwd: dir,
    input: JSON.stringify(body),
    encoding: 'utf8',
    env: env(session),
  });
  return JSON.parse(r.stdout) as { ok: boolean; data: Record<string, unknown> };
}

/** Claude's pre-tool hook, run in `cwd` by session `session`, for a Write of `file` (absolute). */
function preTool(cwd: string, session: string, file: string): string {
  const input = {
    session_id: session,
    cwd,
    hook_event_name: 'PreToolUse',
    tool_name: 'Write',
    tool_input: { file_path: file, content: 'x' },
  };
  const r = spawnSync(process.execPath, [CLI, 'hook', 'pre-tool-use', '--agent', 'claude', '--format', 'claude'], {
    cwd,
    input: JSON.stringify(input),
    encoding: 'utf8',
    env: env(session),
  });
  return r.stdout + r.stderr;
}

/** A clone with AgentSync committed and codex's live claim on src/app.ts (committed too), plus a linked worktree. */
function clone(): { repo: string; linked: string; nested: string } {
  const repo = tempWorkspace('wt-radar');
  gitOk(repo, 'init', '-q', '-b', 'main');
  runCliSync(['--dir', repo, 'init']);
  const created = request(
    repo,
    {
      action: 'createHandoff',
      handoff: { from_agent: 'human', to_agents: ['codex'], owner_mode: 'single', summary: 'Fix', files: ['src/app.ts'] },
    },
    null,
  );
  const id = (created.data.handoff as { handoff_id: string }).handoff_id;
  assert.equal(request(repo, { action: 'claimHandoff', handoffId: id, agent: 'codex' }, null).ok, true);
  fs.mkdirSync(path.join(repo, 'src'));
  fs.writeFileSync(path.join(repo, 'src/app.ts'), 'export {};\n');
  fs.writeFileSync(path.join(repo, '.gitignore'), `${fs.readFileSync(path.join(repo, '.gitignore'), 'utf8')}\n.claude/worktrees/\n`);
  gitOk(repo, 'add', '-A');
  gitOk(repo, 'commit', '-q', '-m', 'agentsync, a claim');
  const linked = path.join(tempWorkspace('wt-radar-linked'), 'agent-claude');
  gitOk(repo, 'worktree', 'add', '-q', '-b', 'claude-work', linked);
  const nested = path.join(repo, '.claude/worktrees/sub');
  gitOk(repo, 'worktree', 'add', '-q', '-b', 'sub-work', nested);
  return { repo, linked, nested };
}

describe('the conflict radar across worktrees (process, real git worktrees)', function () {
  this.timeout(120_000);

  it('an edit of the claimed file in a worktree nested in the checkout is warned, by its path in that worktree', () => {
    const { repo, nested } = clone();
    const out = preTool(repo, 's1', path.join(nested, 'src/app.ts'));
    assert.match(out, /conflict radar/, out);
    assert.match(out, /src\/app\.ts: claimed by codex/, out);
  });

  it('an edit of the claimed file in another linked worktree of the clone is warned', () => {
    const { repo, linked } = clone();
    const out = preTool(repo, 's1', path.join(linked, 'src/app.ts'));
    assert.match(out, /src\/app\.ts: claimed by codex/, out);
    // A file of another clone altogether is none of this record's business.
    const stranger = tempWorkspace('wt-radar-stranger');
    gitOk(stranger, 'init', '-q');
    fs.mkdirSync(path.join(stranger, 'src'));
    assert.equal(preTool(repo, 's1', path.join(stranger, 'src/app.ts')).trim(), '');
  });

  it('a claim taken in the main worktree after the linked one was made warns an agent editing that file there', () => {
    const { repo, linked } = clone();
    const created = request(
      repo,
      {
        action: 'createHandoff',
        handoff: { from_agent: 'human', to_agents: ['codex'], owner_mode: 'single', summary: 'Lib', files: ['src/lib.ts'] },
      },
      null,
    );
    const id = (created.data.handoff as { handoff_id: string }).handoff_id;
    assert.equal(request(repo, { action: 'claimHandoff', handoffId: id, agent: 'codex' }, null).ok, true);
    // Nothing committed: only the clone's one record knows this claim.
    assert.match(preTool(linked, 's1', path.join(linked, 'src/lib.ts')), /src\/lib\.ts: claimed by codex/);
    assert.equal(preTool(linked, 's1', path.join(linked, 'src/other.ts')).trim(), '');
  });
});
