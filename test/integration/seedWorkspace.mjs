// Seeds a throw-away workspace for the integration suite: .agentsync.json, a handoffs.json whose records cover
// every tree group (one stale, one chained, one with files and todos), the files they name, and a git repository
// (End Session reads hot files from git). Written directly, like a teammate's `git pull` would.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const HOUR = 3_600_000;

/** A valid ULID (Crockford base32) made from a small number, so records are easy to tell apart. */
const uid = (n) => `01JSEED${String(n).padStart(19, '0')}`;

function record(n, fields, now) {
  const day = new Date(now).toISOString().slice(0, 10).replace(/-/g, '');
  const at = new Date(now - (fields.ageHours ?? 1) * HOUR).toISOString();
  const { ageHours: _a, ...rest } = fields;
  const base = {
    handoff_id: `HO-${day}-${String(n).padStart(3, '0')}`,
    task_id: null,
    from_agent: 'codex',
    to_agents: ['human'],
    owner_mode: 'single',
    status: 'queued',
    required_capabilities: [],
    summary: '',
    notes: '',
    no_handoff_reason: null,
    files: [],
    branch: null,
    commit: null,
    prior_attempts: 0,
    created_at: at,
    updated_at: at,
    state_history: [],
    uid: uid(n),
    rev: 1,
  };
  const h = { ...base, ...rest };
  if (h.state_history.length === 0) h.state_history = [{ status: 'queued', agent: h.from_agent, timestamp: at, reason: 'created' }];
  if (h.status !== 'queued' && h.state_history.length === 1)
    h.state_history.push({
      status: h.status,
      agent: h.claimed_by ?? h.from_agent,
      timestamp: at,
      reason: h.status === 'blocked' ? 'unroutable: nobody has legal_review' : h.status.replace(/_/g, ' '),
    });
  return h;
}

export function seedHandoffs(now = Date.now()) {
  return [
    record(
      1,
      {
        summary: 'Review the token refresh fix',
        notes: 'Check regression risk in the token refresh path before merge. The race shows up under load only.',
        files: ['src/auth/session.ts', 'test/auth/session.test.ts'],
        todos: [
          { id: 't1', content: 'Reproduce the race with two tabs', status: 'completed', priority: 'high' },
          { id: 't2', content: 'Add a regression test', status: 'pending', priority: 'medium' },
        ],
        priority: 'high',
      },
      now,
    ),
    record(
      2,
      {
        summary: 'Pair on the rate limiter',
        from_agent: 'codex',
        to_agents: ['human', 'claude'],
        owner_mode: 'shared',
        status: 'in_progress',
        claimed_by: 'claude',
        claimed_at: new Date(now - HOUR).toISOString(),
        lease_expires_at: new Date(now + 30 * 60_000).toISOString(),
      },
      now,
    ),
    record(3, { summary: 'Update the release checklist', from_agent: 'claude', ageHours: 72 }, now),
    record(
      4,
      {
        summary: 'Decide the data retention policy',
        from_agent: 'codex',
        to_agents: [],
        owner_mode: 'auto',
        status: 'blocked',
        required_capabilities: ['legal_review'],
      },
      now,
    ),
    record(
      5,
      {
        summary: 'Add tests for the parser',
        from_agent: 'human',
        to_agents: ['codex'],
        status: 'ready_for_review',
        claimed_by: 'codex',
        result: {
          status: 'complete',
          decision: 'PROCEED',
          findings: {},
          context_summary: '14 tests added; coverage of parser.ts is 96%.',
          issues: [],
        },
      },
      now,
    ),
    record(6, { summary: 'Write the parser', from_agent: 'human', to_agents: ['codex'], status: 'merged' }, now),
    record(7, { summary: 'Run the auth regression suite', from_agent: 'codex', parent_uid: uid(1), chain: ['codex'] }, now),
    record(8, { summary: 'Refactor the logging setup', from_agent: 'human', to_agents: ['copilot'] }, now),
  ];
}

export const SEED_CONFIG = {
  staleAfterHours: 24,
  autoStaleSessionMinutes: 0,
  requireHandoffOnEndSession: true,
  commands: { test: ['node', '-e', "console.log('12 passing')"] },
  agentCapabilities: {
    codex: ['code_patch', 'test_authoring', 'shell_checks'],
    copilot: ['inline_refactor', 'pr_review'],
    claude: ['workflow_orchestration', 'policy_review', 'risk_decision'],
  },
  humans: [],
  maxAttempts: 3,
  passOver: {},
};

/** state.json with a session of `agent` started 3 h ago and never ended (the editor closed mid-session). */
export function openSessionState(agent, now = Date.now()) {
  const session = {
    id: '01JSEEDSESS10N000000000000',
    agent,
    goal: 'Finish the auth work',
    startedAt: new Date(now - 3 * HOUR).toISOString(),
    handoffId: null,
    handoffUid: null,
    request_id: null,
  };
  return {
    sessionActive: true,
    activeSession: session,
    activeSessions: { [agent]: session },
    lastSession: null,
    health: null,
    hotFiles: [],
  };
}

export function seedWorkspace(dir, { initialized = true, openSessionOf } = {}) {
  const git = (...args) => execFileSync('git', args, { cwd: dir, stdio: 'ignore' });
  mkdirSync(join(dir, 'src/auth'), { recursive: true });
  mkdirSync(join(dir, 'test/auth'), { recursive: true });
  writeFileSync(join(dir, 'src/auth/session.ts'), 'export function refresh(token: string): string {\n  return token;\n}\n');
  writeFileSync(join(dir, 'test/auth/session.test.ts'), "import { refresh } from '../../src/auth/session';\n");
  writeFileSync(join(dir, 'README.md'), '# Demo project\n');
  if (initialized) {
    mkdirSync(join(dir, '.agentsync'), { recursive: true });
    writeFileSync(join(dir, '.agentsync.json'), JSON.stringify(SEED_CONFIG, null, 2) + '\n');
    writeFileSync(join(dir, '.agentsync/handoffs.json'), JSON.stringify({ version: 1, handoffs: seedHandoffs() }, null, 2) + '\n');
    writeFileSync(join(dir, 'AgentTracker.md'), '# Agent Tracker\n\nTeam notes live here.\n');
    if (openSessionOf) writeFileSync(join(dir, '.agentsync/state.json'), JSON.stringify(openSessionState(openSessionOf), null, 2) + '\n');
  }
  git('init', '-q', '-b', 'main');
  git('-c', 'user.name=Seed', '-c', 'user.email=seed@example.invalid', 'add', '-A');
  git('-c', 'user.name=Seed', '-c', 'user.email=seed@example.invalid', 'commit', '-q', '-m', 'seed');
}

/**
 * A clone with a linked worktree (docs/contract.md §14): `<dir>/clone`, seeded and initialized as above, and
 * `<dir>/linked`, a worktree of it on branch `feature`. Returns both paths; the window opens the linked one.
 */
export function seedLinkedWorktree(dir) {
  const clone = join(dir, 'clone');
  const linked = join(dir, 'linked');
  mkdirSync(clone);
  seedWorkspace(clone, { initialized: true });
  execFileSync('git', ['worktree', 'add', '-q', '-b', 'feature', linked], { cwd: clone, stdio: 'ignore' });
  return { clone, linked };
}
