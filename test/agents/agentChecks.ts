// The checks every real-agent test makes (docs/contract.md §10a): what reached the model (the scripted server's
// request log) and what the agent's hooks did to the store (the audit log, the handoffs).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { auditSince, readStore, type AgentRun, type Scene } from './agentHarness';
import type { ModelServer } from './modelServer';

/** The heading of the AgentSync section in every instruction file (templates/agent-instructions.md). */
export const INSTRUCTIONS_HEADING = 'AgentSync: how work is handed over in this repository';

function occurrences(text: string, needle: string): number {
  let n = 0;
  for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + needle.length)) n++;
  return n;
}

/** What one run of the agent must show; `what` names the run in messages. */
export function checkRun(s: Scene, agent: string, server: ModelServer, run: AgentRun, checks: RunChecks): void {
  const seen = server.seen();
  const why = `${checks.what}: exit ${run.code}\nstderr: ${run.stderr.slice(-3000)}\nstdout: ${run.stdout.slice(-3000)}\nrequests: ${server.requests
    .map((r) => r.path)
    .join(', ')}`;
  assert.ok(server.requests.length > 0, `the agent called the scripted model (${why})`);
  const audit = auditSince(s.ws, s.auditFrom);
  // No hook acted as another agent: every audit line the run wrote is the agent's own, with one session start.
  const strangers = audit.filter((a) => a.agent !== agent);
  assert.deepEqual(strangers, [], `only ${agent} acted (${why})`);
  assert.equal(
    audit.filter((a) => a.action === 'startSession').length,
    1,
    `one session started, by ${agent} (${JSON.stringify(audit)}) (${why})`,
  );
  if (checks.instructions) assert.ok(seen.includes(INSTRUCTIONS_HEADING), `the instruction section reached the model (${why})`);
  if (checks.briefing) assert.ok(seen.includes(`AgentSync briefing for ${agent}`), `the session-start briefing reached the model (${why})`);
  if (checks.radar) {
    assert.ok(seen.includes('AgentSync conflict radar'), `the radar warning reached the model (${why})`);
    assert.ok(seen.includes(`claimed by ${s.other} in ${s.theirs}`), `the warning names the other agent and handoff (${why})`);
  }
  if (checks.stopGate) {
    const reason = `${agent} still holds ${s.mine}`;
    assert.ok(seen.includes(reason), `the stop gate's reason reached the model (${why})`);
    // Blocked once: the request after the block carries the reason; no later request adds it a second time.
    const carrying = server.requests.filter((r) => r.body.includes(reason)).map((r) => occurrences(r.body, reason));
    assert.ok(Math.max(...carrying) <= 2, `the stop reason was given once (counts per request: ${carrying.join(',')}) (${why})`);
    assert.equal(run.code, 0, `the agent stopped after the one block (${why})`);
  }
  const after = readStore(s.ws);
  if (checks.lease) {
    const mine = after.find((h) => h.handoff_id === s.mine)!;
    assert.ok(Date.parse(mine.lease_expires_at!) > Date.parse(s.leaseBefore), `the lease of ${s.mine} was renewed (${why})`);
  }
  if (checks.lease)
    assert.ok(
      audit.some((a) => a.action === 'heartbeat' && a.handoff_id === s.mine),
      `a heartbeat for ${s.mine} (${why})`,
    );
  // The other agent's claim is untouched, and no stop marker names anyone else.
  assert.equal(after.find((h) => h.handoff_id === s.theirs)!.claimed_by, s.other);
  const hooksDir = path.join(s.ws, '.agentsync/hooks');
  const markers = fs.existsSync(hooksDir) ? fs.readdirSync(hooksDir) : [];
  assert.deepEqual(
    markers.filter((m) => m !== `stop-${agent}.json`),
    [],
    `stop markers: ${markers.join(', ')}`,
  );
}

export interface RunChecks {
  what: string;
  instructions: boolean;
  briefing: boolean;
  lease: boolean;
  radar: boolean;
  stopGate: boolean;
}

export const ALL_CHECKS: Omit<RunChecks, 'what'> = { instructions: true, briefing: true, lease: true, radar: true, stopGate: true };
