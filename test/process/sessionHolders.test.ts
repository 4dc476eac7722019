// Holders are sessions (docs/contract.md §4, "Who may act"), with the CLI as a real process and the agent's session id
// given as its vendor gives it (CLAUDE_CODE_SESSION_ID in the environment, `session_id` in the hook input): two sessions
// of one agent are two holders. Complete, release and heartbeat of held work belong to the session that claimed it;
// the other session, or the agent without a session id, is refused already_claimed with claimedSession; the radar
// warns it; a human may release. A claim taken in a linked git worktree records that worktree and its branch.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CLI, NO_SESSION_ENV, gitOk, runCliSync, tempWorkspace } from './processHarness';

/** The environment of an agent's shell tool: the vendor's session variable set to `session`, or none. */
function agentEnv(session: string | null, variable = 'CLAUDE_CODE_SESSION_ID'): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...NO_SESSION_ENV };
  if (session !== null) env[variable] = session;
  return env;
}

interface Answer {
  ok: boolean;
  reason?: string;
  claimedBy?: string | null;
  claimedSession?: { id: string | null; worktree: string; branch: string | null } | null;
  data: Record<string, unknown>;
}

function request(dir: string, body: object, session: string | null, variable?: string): Answer {
  const r = spawnSync(process.execPath, [CLI, 'request', '-'], {
    cwd: dir,
    input: JSON.stringify(body),
    encoding: 'utf8',
    env: agentEnv(session, variable),
  });
  return JSON.parse(r.stdout) as Answer;
}

function cli(dir: string, args: string[], session: string | null): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd: dir, encoding: 'utf8', env: agentEnv(session) });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A git repository with AgentSync initialized and committed, and one queued handoff for claude listing `file`. */
function repoWithHandoff(file = 'src/app.ts'): { repo: string; id: string } {
  const repo = tempWorkspace('sessions');
  gitOk(repo, 'init', '-q', '-b', 'main');
  runCliSync(['--dir', repo, 'init']);
  gitOk(repo, 'add', '-A');
  gitOk(repo, 'commit', '-q', '-m', 'agentsync init');
  const created = request(
    repo,
    {
      action: 'createHandoff',
      handoff: { from_agent: 'human', to_agents: ['claude'], owner_mode: 'single', summary: 'Fix it', files: [file] },
    },
    null,
  );
  assert.equal(created.ok, true, JSON.stringify(created));
  return { repo, id: (created.data.handoff as { handoff_id: string }).handoff_id };
}

function claudeHook(dir: string, event: string, session: string, file: string): { stdout: string; stderr: string } {
  const input = {
    session_id: session,
    cwd: dir,
    hook_event_name: 'PreToolUse',
    tool_name: 'Write',
    tool_input: { file_path: path.join(dir, file), content: 'x' },
  };
  const r = spawnSync(process.execPath, [CLI, 'hook', event, '--agent', 'claude', '--format', 'claude'], {
    cwd: dir,
    input: JSON.stringify(input),
    encoding: 'utf8',
    env: agentEnv(session),
  });
  return { stdout: r.stdout, stderr: r.stderr };
}

describe('holders are sessions (process)', function () {
  this.timeout(120_000);

  it('a second session of one agent may not complete, release or renew what the first claimed; the first may', () => {
    const { repo, id } = repoWithHandoff();
    const claimed = request(repo, { action: 'claimHandoff', handoffId: id, agent: 'claude' }, 'session-a');
    assert.equal(claimed.ok, true, JSON.stringify(claimed));
    const held = (claimed.data.handoff as { claimed_session: unknown }).claimed_session;
    assert.deepEqual(held, { id: 'session-a', worktree: 'main', branch: 'main' });

    const expectRefused = (a: Answer, what: string) => {
      assert.equal(a.ok, false, `${what}: ${JSON.stringify(a)}`);
      assert.equal(a.reason, 'already_claimed', what);
      assert.equal(a.claimedBy, 'claude', what);
      assert.deepEqual(a.claimedSession, { id: 'session-a', worktree: 'main', branch: 'main' }, what);
    };
    expectRefused(request(repo, { action: 'claimHandoff', handoffId: id, agent: 'claude' }, 'session-b'), 'claim by B');
    expectRefused(request(repo, { action: 'completeHandoff', handoffId: id, agent: 'claude' }, 'session-b'), 'complete by B');
    expectRefused(
      request(repo, { action: 'transitionHandoff', handoffId: id, agent: 'claude', to: 'queued' }, 'session-b'),
      'release by B',
    );
    expectRefused(request(repo, { action: 'transitionHandoff', handoffId: id, agent: 'claude', to: 'blocked' }, 'session-b'), 'block by B');
    expectRefused(request(repo, { action: 'heartbeat', handoffId: id, agent: 'claude' }, 'session-b'), 'heartbeat by B');
    // The same agent with no session id at all is not the holder either.
    expectRefused(request(repo, { action: 'completeHandoff', handoffId: id, agent: 'claude' }, null), 'complete without a session');
    // The session parameter names the session when the environment does not.
    expectRefused(
      request(repo, { action: 'completeHandoff', handoffId: id, agent: 'claude', session: 'session-b' }, null),
      'session param B',
    );
    // The CLI verb says it too, exit 1.
    const verb = cli(repo, ['complete', id, '--agent', 'claude'], 'session-b');
    assert.equal(verb.code, 1, verb.stdout + verb.stderr);
    assert.match(verb.stderr, /already_claimed: .*another session of claude holds it.*session session-a/);

    // Nothing changed: still in progress, held by A.
    const shown = request(repo, { action: 'listHandoffs', handoffId: id }, null);
    const h = (shown.data.handoffs as { status: string; claimed_session: unknown }[])[0];
    assert.equal(h.status, 'in_progress');
    // list and show say where the claim was taken.
    assert.match(cli(repo, ['list'], null).stdout, /\(claimed by Claude \(session session-a, worktree main, branch main\)\)/);
    assert.match(cli(repo, ['show', id], null).stdout, /claimed by claude \(session session-a, worktree main, branch main\)/);

    // The holder: heartbeat and complete go through (session by the environment, then by parameter).
    assert.equal(request(repo, { action: 'heartbeat', handoffId: id, agent: 'claude' }, 'session-a').ok, true);
    const done = request(repo, { action: 'completeHandoff', handoffId: id, agent: 'claude', session: 'session-a' }, null);
    assert.equal(done.ok, true, JSON.stringify(done));
  });

  it('a human may release held work; a claim without a session id is held by every session of its agent', () => {
    const { repo, id } = repoWithHandoff();
    assert.equal(request(repo, { action: 'claimHandoff', handoffId: id, agent: 'claude' }, 'session-a').ok, true);
    const released = request(repo, { action: 'transitionHandoff', handoffId: id, agent: 'human', to: 'queued' }, null);
    assert.equal(released.ok, true, JSON.stringify(released));
    assert.equal((released.data.handoff as { claimed_session?: unknown }).claimed_session, undefined, 'release clears claimed_session');
    // Released work is claimable again, by another session, which then holds it.
    const again = request(repo, { action: 'claimHandoff', handoffId: id, agent: 'claude' }, 'session-b');
    assert.deepEqual((again.data.handoff as { claimed_session?: unknown }).claimed_session, {
      id: 'session-b',
      worktree: 'main',
      branch: 'main',
    });
    assert.equal(request(repo, { action: 'transitionHandoff', handoffId: id, agent: 'claude', to: 'queued' }, 'session-b').ok, true);
    // Claimed with no session id, in the main worktree: nothing recorded, and any session of claude holds it.
    const plain = request(repo, { action: 'claimHandoff', handoffId: id, agent: 'claude' }, null);
    assert.equal(plain.ok, true);
    assert.equal((plain.data.handoff as { claimed_session?: unknown }).claimed_session, undefined);
    assert.equal(fs.readFileSync(path.join(repo, '.agentsync/handoffs.json'), 'utf8').includes('claimed_session'), false);
    assert.equal(request(repo, { action: 'completeHandoff', handoffId: id, agent: 'claude' }, 'session-z').ok, true);
  });

  it("the radar warns another session of the same agent, not the holder's own session", () => {
    const { repo, id } = repoWithHandoff('src/app.ts');
    assert.equal(request(repo, { action: 'claimHandoff', handoffId: id, agent: 'claude' }, 'session-a').ok, true);
    const other = claudeHook(repo, 'pre-tool-use', 'session-b', 'src/app.ts');
    assert.match(other.stdout, /conflict radar/, other.stdout + other.stderr);
    assert.match(other.stdout, /claimed by claude \(session session-a, worktree main, branch main\)/);
    const own = claudeHook(repo, 'pre-tool-use', 'session-a', 'src/app.ts');
    assert.equal(own.stdout.trim(), '', own.stdout + own.stderr);
  });

  it('a claim taken in a linked git worktree records that worktree and its branch', () => {
    const { repo, id } = repoWithHandoff();
    gitOk(repo, 'add', '-A');
    gitOk(repo, 'commit', '-q', '-m', 'a handoff');
    const wt = path.join(tempWorkspace('sessions-wt'), 'agent-claude');
    gitOk(repo, 'worktree', 'add', '-q', '-b', 'feature/claude', wt);
    const claimed = request(wt, { action: 'claimHandoff', handoffId: id, agent: 'claude' }, null);
    assert.equal(claimed.ok, true, JSON.stringify(claimed));
    assert.deepEqual((claimed.data.handoff as { claimed_session: unknown }).claimed_session, {
      id: null,
      worktree: 'agent-claude',
      branch: 'feature/claude',
    });
  });

  it('two sessions of one agent in two linked worktrees: one holder; the other is refused with claimedSession and warned', () => {
    const { repo, id } = repoWithHandoff('src/app.ts');
    gitOk(repo, 'add', '-A');
    gitOk(repo, 'commit', '-q', '-m', 'a handoff');
    const top = tempWorkspace('sessions-two');
    const one = path.join(top, 'wt-one');
    const two = path.join(top, 'wt-two');
    gitOk(repo, 'worktree', 'add', '-q', '-b', 'one', one);
    gitOk(repo, 'worktree', 'add', '-q', '-b', 'two', two);
    const claimed = request(one, { action: 'claimHandoff', handoffId: id, agent: 'claude' }, 'session-a');
    assert.equal(claimed.ok, true, JSON.stringify(claimed));
    const where = { id: 'session-a', worktree: 'wt-one', branch: 'one' };
    for (const [body, session, what] of [
      [{ action: 'claimHandoff', handoffId: id, agent: 'claude' }, 'session-b', 'claim by B'],
      [{ action: 'completeHandoff', handoffId: id, agent: 'claude' }, 'session-b', 'complete by B'],
      [{ action: 'transitionHandoff', handoffId: id, agent: 'claude', to: 'queued' }, 'session-b', 'release by B'],
      // A worktree-isolated subagent sharing its parent's session id, in another worktree, is not the holder either.
      [{ action: 'completeHandoff', handoffId: id, agent: 'claude' }, 'session-a', 'session A from the other worktree'],
    ] as const) {
      const a = request(two, body, session);
      assert.equal(a.ok, false, `${what}: ${JSON.stringify(a)}`);
      assert.equal(a.reason, 'already_claimed', what);
      assert.deepEqual(a.claimedSession, where, what);
    }
    const warned = claudeHook(two, 'pre-tool-use', 'session-b', 'src/app.ts');
    assert.match(warned.stdout, /claimed by claude \(session session-a, worktree wt-one, branch one\)/, warned.stdout + warned.stderr);
    assert.equal(claudeHook(one, 'pre-tool-use', 'session-a', 'src/app.ts').stdout.trim(), '');
    const done = request(one, { action: 'completeHandoff', handoffId: id, agent: 'claude' }, 'session-a');
    assert.equal(done.ok, true, JSON.stringify(done));
  });

  it('the stop gate blocks the holding session in a linked worktree too (its marker lives in the home)', () => {
    const { repo, id } = repoWithHandoff();
    const configFile = path.join(repo, '.agentsync.json');
    const config = JSON.parse(fs.readFileSync(configFile, 'utf8')) as Record<string, unknown>;
    fs.writeFileSync(configFile, JSON.stringify({ ...config, requireHandoffOnEndSession: true }, null, 2) + '\n');
    gitOk(repo, 'add', '-A');
    gitOk(repo, 'commit', '-q', '-m', 'stop gate on');
    const wt = path.join(tempWorkspace('sessions-stop'), 'agent-claude');
    gitOk(repo, 'worktree', 'add', '-q', '-b', 'stop', wt);
    assert.equal(request(wt, { action: 'claimHandoff', handoffId: id, agent: 'claude' }, 'session-s').ok, true);
    const input = { session_id: 'session-s', cwd: wt, hook_event_name: 'Stop', stop_hook_active: false };
    const r = spawnSync(process.execPath, [CLI, 'hook', 'stop', '--agent', 'claude', '--format', 'claude'], {
      cwd: wt,
      input: JSON.stringify(input),
      encoding: 'utf8',
      env: agentEnv('session-s'),
    });
    assert.equal(r.stderr, '', r.stderr);
    assert.match(r.stdout, /"decision":\s*"block"/, r.stdout);
    assert.match(r.stdout, new RegExp(id), r.stdout);
  });
});
