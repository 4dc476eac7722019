// The checks every real-agent test makes (docs/contract.md §10a): what reached the model (the scripted server's
// request log) and what the agent's hooks did to the store (the audit log, the handoffs).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { auditSince, liveStoreFile, readStore, treeOf, type AgentRun, type Scene } from './agentHarness';
import type { ModelServer, Step } from './modelServer';

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
  // Stop markers live in the clone's home (docs/contract.md §14), one per agent and session.
  const hooksDir = path.join(path.dirname(liveStoreFile(s.ws)), 'hooks');
  const markers = fs.existsSync(hooksDir) ? fs.readdirSync(hooksDir) : [];
  assert.deepEqual(
    markers.filter((m) => !new RegExp(`^stop-${agent}(-[0-9a-f]{16})?\\.json$`).test(m)),
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

/** Printed by the scripted shell commands before their output, to find that output among what reached the model. */
export const SUB_MARK = 'agentsync-from-subfolder:';
export const DROP_MARK = 'agentsync-drop-zone-answer:';

/** The agent's own tools, as its vendor names them and their arguments. */
export interface AgentTools {
  shell(command: string): Step;
  /** A new file, by its path relative to the workspace. */
  write(file: string, content: string): Step;
}

/** The drop zone request the agent writes, and where its answer lands (relative to the workspace). */
export function dropRequest(s: Scene, agent: string): { file: string; content: string; requestId: string; answer: string } {
  const requestId = `${agent}-drop-claim`;
  return {
    file: `.agentsync/requests/${agent}-claim.json`,
    content: JSON.stringify({ action: 'claimHandoff', request_id: requestId, handoffId: s.queued, agent }) + '\n',
    requestId,
    answer: path.join(s.ws, `.agentsync/responses/${requestId}.json`),
  };
}

/**
 * Three steps of the script: the shell lists the open handoffs from a subfolder; the file-writing tool writes a
 * claimHandoff request into the drop zone; the shell waits for the answer (the watcher's) and prints it. Paths after
 * the `cd` are absolute: some shells keep the folder from one call to the next.
 */
export function wayInSteps(s: Scene, agent: string, tools: AgentTools): Step[] {
  const req = dropRequest(s, agent);
  return [
    tools.shell(`cd ${s.sub} && echo ${SUB_MARK} && agentsync list --open`),
    tools.write(req.file, req.content),
    tools.shell(`timeout 20 sh -c 'until [ -f "$0" ]; do sleep 0.1; done' ${req.answer}; echo ${DROP_MARK}; cat ${req.answer}`),
  ];
}

/** Every string inside every request body (parsed), e.g. each tool output as the agent sent it. */
function stringsSeen(server: ModelServer): string[] {
  const out: string[] = [];
  const walk = (v: unknown): void => {
    if (typeof v === 'string') out.push(v);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') Object.values(v).forEach(walk);
  };
  for (const r of server.requests) {
    try {
      walk(JSON.parse(r.body));
    } catch {
      out.push(r.body);
    }
  }
  return out;
}

/** The tool outputs that carry `mark` (not the command that prints it). */
export function outputsWith(server: ModelServer, mark: string): string[] {
  return stringsSeen(server).filter((t) => t.includes(mark) && !t.includes(`echo ${mark}`));
}

/** From a subfolder, `agentsync list --open` answered about the workspace, and nothing was written in that folder. */
export function checkSubfolder(s: Scene, server: ModelServer, what: string): void {
  const outputs = outputsWith(server, SUB_MARK);
  assert.ok(outputs.length > 0, `${what}: the subfolder command's output reached the model`);
  assert.ok(
    outputs.some((o) => o.includes(s.mine) && o.includes(s.theirs)),
    `${what}: the list from ${s.sub} names the workspace's handoffs ${s.mine}, ${s.theirs}: ${outputs.join('\n---\n').slice(0, 3000)}`,
  );
  assert.deepEqual(treeOf(path.join(s.ws, s.sub)), s.subBefore, `${what}: nothing was written under ${s.sub}`);
}

/** The request the agent wrote was answered by the watcher, the answer reached the model, and the claim is in the store. */
export function checkDropZone(s: Scene, agent: string, server: ModelServer, what: string, watcherLog: string): void {
  const req = dropRequest(s, agent);
  const why = `${what}; watcher: ${watcherLog.slice(-2000)}`;
  assert.ok(fs.existsSync(req.answer), `the watcher answered ${req.file} in ${req.answer} (${why})`);
  const answer = JSON.parse(fs.readFileSync(req.answer, 'utf8')) as { ok: boolean; request_id: string; message?: string };
  assert.equal(answer.ok, true, `the drop zone answer is ok: ${answer.message} (${why})`);
  const outputs = outputsWith(server, DROP_MARK);
  assert.ok(
    outputs.some((o) => o.includes(req.requestId) && /"ok":\s*true/.test(o)),
    `the answer (ok: true, ${req.requestId}) reached the model: ${outputs.join('\n---\n').slice(0, 3000)} (${why})`,
  );
  const h = readStore(s.ws).find((x) => x.handoff_id === s.queued)!;
  assert.equal(h.status, 'in_progress', `${s.queued} is in progress (${why})`);
  assert.equal(h.claimed_by, agent, `${s.queued} is claimed by ${agent} (${why})`);
}
