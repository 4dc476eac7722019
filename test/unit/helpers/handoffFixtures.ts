// Handoff records for tests: the original plan's example, copied verbatim (docs/agentsync-documentation.md
// shows it under "The handoff record"), and a builder for a record
// sitting in any lifecycle status with a plausible history.
import { newUid } from '../../../src/core/domain/handoffIds';
import type { Handoff, HandoffStatus } from '../../../src/core/domain/handoffSchema';

/** The original plan's example store, byte for byte. */
export const SEED_EXAMPLE_STORE = `{
  "version": 1,
  "handoffs": [
    {
      "handoff_id": "HO-20260221-001",
      "task_id": "AS-210",
      "from_agent": "codex",
      "to_agents": ["claude", "copilot"],
      "owner_mode": "shared",
      "status": "queued",
      "required_capabilities": ["policy_review", "pr_review"],
      "summary": "Auth timeout fix implemented; needs policy and PR review",
      "notes": "Check regression risk in token refresh path before merge.",
      "no_handoff_reason": null,
      "files": ["src/auth/session.ts", "tests/auth/session.test.ts"],
      "branch": "codex/as-210-auth-timeout",
      "commit": "abc1234",
      "prior_attempts": 0,
      "created_at": "2026-02-21T21:00:00.000Z",
      "updated_at": "2026-02-21T21:00:00.000Z",
      "state_history": [
        { "status": "queued", "agent": "codex", "timestamp": "2026-02-21T21:00:00.000Z", "reason": "session ended with hot files" }
      ]
    }
  ]
}`;

/** The tracker lines of that record (docs/contract.md §11). */
export const SEED_EXAMPLE_TRACKER_LINES = [
  '- [ ] HO-20260221-001 | from: Codex | to: Claude,Copilot | mode: shared | status: queued',
  '  - task: AS-210 | files: `src/auth/session.ts`, `tests/auth/session.test.ts`',
  '  - note: Check regression risk in token refresh path before merge.',
];

export const T0 = '2026-02-21T21:00:00.000Z';

/** A valid single-owner record (codex → claude) with rev 5; override anything. */
export function makeHandoff(overrides: Partial<Handoff> = {}): Handoff {
  return {
    handoff_id: 'HO-20260221-001',
    task_id: 'AS-210',
    from_agent: 'codex',
    to_agents: ['claude'],
    owner_mode: 'single',
    status: 'queued',
    required_capabilities: [],
    summary: 'Auth timeout fix implemented',
    notes: 'Check regression risk.',
    no_handoff_reason: null,
    files: ['src/auth/session.ts'],
    branch: null,
    commit: null,
    prior_attempts: 0,
    created_at: T0,
    updated_at: T0,
    state_history: [{ status: 'queued', agent: 'codex', timestamp: T0, reason: 'created' }],
    uid: newUid(Date.parse(T0)),
    rev: 5,
    ...overrides,
  };
}

/** How a record plausibly reached each status (the history a real run would leave). */
const PATHS: Record<HandoffStatus, HandoffStatus[]> = {
  queued: ['queued'],
  in_progress: ['queued', 'in_progress'],
  blocked: ['queued', 'in_progress', 'blocked'],
  ready_for_review: ['queued', 'in_progress', 'ready_for_review'],
  approved: ['queued', 'in_progress', 'ready_for_review', 'approved'],
  merged: ['queued', 'in_progress', 'ready_for_review', 'approved', 'merged'],
  escalated: ['queued', 'in_progress', 'escalated'],
  withdrawn: ['queued', 'in_progress', 'withdrawn'],
};

/** A codex → claude record in `status`, claimed by claude once it has been in progress. */
export function handoffIn(status: HandoffStatus, overrides: Partial<Handoff> = {}): Handoff {
  const path = PATHS[status];
  const claimed = path.includes('in_progress');
  return makeHandoff({
    status,
    state_history: path.map((s, i) => ({
      status: s,
      agent: s === 'queued' || s === 'approved' || s === 'merged' ? 'codex' : 'claude',
      timestamp: new Date(Date.parse(T0) + i * 60_000).toISOString(),
      reason: `reached ${s}`,
    })),
    updated_at: new Date(Date.parse(T0) + (path.length - 1) * 60_000).toISOString(),
    claimed_by: claimed ? 'claude' : null,
    claimed_at: claimed ? new Date(Date.parse(T0) + 60_000).toISOString() : null,
    ...overrides,
  });
}

/** A minimal valid completion report (docs/contract.md §6). */
export function completionReport(
  decision: 'PROCEED' | 'STOP' | 'CLARIFY' = 'PROCEED',
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    status: decision === 'PROCEED' ? 'complete' : 'blocked',
    decision,
    findings: {},
    context_summary: 'Checked the refresh path; no regression.',
    issues: [],
    ...extra,
  };
}
