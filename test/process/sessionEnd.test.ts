// A receiver that died (docs/contract.md §6): the session-end hook (`agentsync hook session-end`, a real process, each
// vendor's recorded input, test/fixtures/hooks/<vendor>/session-end.json) of every vendor whose module has one hands
// the pass its session held back to the origin with E011 SUBAGENT_CRASHED; a pass held by another session stays; a
// turn's end (Claude Code's Stop) hands nothing back.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { VENDOR_IDS, VENDORS, type VendorId } from '../../src/core/hooks/vendors';
import { can } from '../../src/core/hooks/vendors/vendor';
import { CLI, initWorkspace, REPO_ROOT, runCliIn } from './processHarness';

const FIXTURES = path.join(REPO_ROOT, 'test/fixtures/hooks');

interface Stored {
  handoff_id: string;
  status: string;
  from_agent: string;
  to_agents: string[];
  summary: string;
  notes: string;
  parent_uid?: string | null;
  uid?: string;
  state_history: { status: string; reason: string | null }[];
}

function fixture(vendor: string, name: string, ws: string): string {
  return fs.readFileSync(path.join(FIXTURES, vendor, `${name}.json`), 'utf8').replaceAll('__WORKSPACE__', ws);
}

/** The hook as the vendor runs it: from the workspace, its JSON on stdin, the command of its pack. */
function hook(ws: string, vendor: string, event: string, input: string): { status: number | null; stderr: string } {
  const env = { ...process.env };
  for (const k of ['AGENTSYNC_AGENT', 'COPILOT_CLI', 'COPILOT_HOOK_DIR', 'CLAUDE_CODE_SESSION_ID', 'CODEX_THREAD_ID']) delete env[k];
  const r = spawnSync(process.execPath, [CLI, 'hook', event, '--agent', vendor, '--format', vendor], {
    cwd: ws,
    input,
    encoding: 'utf8',
    env,
  });
  return { status: r.status, stderr: r.stderr };
}

function request(ws: string, body: object): { ok: boolean; data: Record<string, unknown>; message?: string } {
  return JSON.parse(runCliIn(ws, ['request', '-'], JSON.stringify(body)).stdout) as { ok: boolean; data: Record<string, unknown> };
}

function handoffs(ws: string): Stored[] {
  return (JSON.parse(runCliIn(ws, ['list', '--json']).stdout) as { data: { handoffs: Stored[] } }).data.handoffs;
}

/** alice passes work to `agent`, which claims it in session `session`. */
function passHeld(ws: string, agent: string, session: string, summary: string): string {
  const passed = request(ws, { action: 'passOver', agent: 'alice', to: agent, reason: 'audit', summary });
  assert.equal(passed.ok, true, JSON.stringify(passed));
  const id = (passed.data.handoff as { handoff_id: string }).handoff_id;
  const claimed = request(ws, { action: 'claimHandoff', handoffId: id, agent, session });
  assert.equal(claimed.ok, true, JSON.stringify(claimed));
  return id;
}

/** The session id the vendor's recorded session-end input names. */
function sessionOf(vendor: VendorId, ws: string): string {
  const id = VENDORS[vendor].sessionId(JSON.parse(fixture(vendor, 'session-end', ws)) as Record<string, unknown>);
  assert.ok(id, `${vendor}: its session-end input names a session`);
  return id;
}

/** Waits (the hook hands its work to a detached process, hookDetach.ts) until `until` holds, or fails. */
async function eventually<T>(what: string, read: () => T, until: (v: T) => boolean, ms = 30_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = read();
    if (until(v)) return v;
    if (Date.now() > end) assert.fail(`${what}: still ${JSON.stringify(v).slice(0, 1500)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

function workspace(agents: readonly string[]): string {
  const ws = initWorkspace('session-end');
  const file = path.join(ws, '.agentsync.json');
  const cfg = JSON.parse(fs.readFileSync(file, 'utf8')) as { agentCapabilities: Record<string, string[]> };
  cfg.agentCapabilities.alice = ['code_patch'];
  for (const a of agents) cfg.agentCapabilities[a] ??= ['pr_review'];
  fs.writeFileSync(file, JSON.stringify(cfg, null, 2));
  return ws;
}

describe('agentsync hook session-end (process, recorded vendor inputs): E011 SUBAGENT_CRASHED', function () {
  this.timeout(180_000);
  const withEnd = VENDOR_IDS.filter((id) => can(VENDORS[id].sessionEnd));
  let ws: string;
  afterEach(() => fs.rmSync(ws, { recursive: true, force: true }));

  it('the vendors with a session-end hook are the ones their modules say', () => {
    assert.deepEqual(withEnd, ['claude', 'codex', 'cursor', 'copilot', 'gemini']);
    ws = workspace([]);
  });

  for (const vendor of withEnd) {
    it(`${VENDORS[vendor].name}: the pass its ended session held goes back to alice with E011; another session's stays`, async () => {
      ws = workspace([vendor]);
      const session = sessionOf(vendor, ws);
      const held = passHeld(ws, vendor, session, 'Audit the login flow');
      const other = passHeld(ws, vendor, 'another-session-1', 'Audit the signup flow');
      const r = hook(ws, vendor, 'session-end', fixture(vendor, 'session-end', ws));
      assert.equal(r.status, 0, r.stderr);
      const all = await eventually(
        `${held} handed back`,
        () => handoffs(ws),
        (hs) => hs.some((h) => h.handoff_id === held && h.status === 'escalated'),
      );
      const ended = all.find((h) => h.handoff_id === held)!;
      const last = ended.state_history[ended.state_history.length - 1];
      assert.match(last.reason ?? '', new RegExp(`^E011 SUBAGENT_CRASHED: the session ${session} of ${vendor} ended`));
      assert.ok((last.reason ?? '').includes(`${VENDORS[vendor].name}'s`), last.reason ?? '');
      const back = all.find((h) => h.parent_uid === ended.uid && h.to_agents[0] === 'alice');
      assert.ok(back, `a return to alice: ${JSON.stringify(all.map((h) => [h.handoff_id, h.status, h.to_agents]))}`);
      assert.equal(back.status, 'queued');
      assert.match(back.summary, /^Session ended \(E011 SUBAGENT_CRASHED\)/);
      assert.match(back.notes, /AgentSync handed the work back to alice/);
      assert.equal(all.find((h) => h.handoff_id === other)!.status, 'in_progress', 'the pass of another session is not touched');
    });
  }

  it("Claude Code's Stop (after every turn) hands nothing back; its SessionEnd then does", async () => {
    ws = workspace(['claude']);
    const held = passHeld(ws, 'claude', sessionOf('claude', ws), 'Audit the login flow');
    for (const name of ['stop', 'stop-active']) assert.equal(hook(ws, 'claude', 'stop', fixture('claude', name, ws)).status, 0);
    await new Promise((r) => setTimeout(r, 1500));
    assert.deepEqual(
      handoffs(ws).map((h) => [h.handoff_id, h.status]),
      [[held, 'in_progress']],
      'after Stop the pass is still held and nothing went back',
    );
    assert.equal(hook(ws, 'claude', 'session-end', fixture('claude', 'session-end', ws)).status, 0);
    await eventually(
      `${held} handed back`,
      () => handoffs(ws).map((h) => h.status),
      (s) => s.length === 2 && s.includes('escalated'),
    );
  });
});
