// What a receiver may do (docs/contract.md §6): the pre-tool hook (`agentsync hook pre-tool-use`, a real process, the
// Claude Code format) of the agent holding a pass with can_modify_files: false refuses an Edit with E013 while a Read
// passes; with can_run_tools: false only AgentSync's own tools pass; each vendor's shell tool is read from its own input
// (Copilot's toolArgs). A limited pass is refused at claim (E013) to a vendor whose hooks cannot deny before a tool.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CLI, configureAgents, runCliIn, runCliSync, tempWorkspace } from './processHarness';

function preTool(ws: string, tool: string, toolInput: Record<string, unknown>, format = 'claude'): string {
  const env = { ...process.env };
  delete env.AGENTSYNC_AGENT;
  delete env.COPILOT_CLI;
  delete env.COPILOT_HOOK_DIR;
  const input = JSON.stringify(
    format === 'copilot'
      ? { sessionId: 'sess-1', cwd: ws, toolName: tool, toolArgs: toolInput }
      : { session_id: 'sess-1', cwd: ws, hook_event_name: 'PreToolUse', tool_name: tool, tool_input: toolInput },
  );
  const r = spawnSync(process.execPath, [CLI, 'hook', 'pre-tool-use', '--agent', 'audit', '--format', format], {
    cwd: ws,
    input,
    encoding: 'utf8',
    env,
  });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout;
}

function pass(ws: string, to: string, override: Record<string, unknown>): string {
  const body = { action: 'passOver', agent: 'alice', to, reason: 'audit', summary: 'Audit login', override };
  const passed = JSON.parse(runCliIn(ws, ['--json', 'request', '-'], JSON.stringify(body)).stdout) as {
    ok: boolean;
    data: { handoff: { handoff_id: string } };
  };
  assert.equal(passed.ok, true, JSON.stringify(passed));
  return passed.data.handoff.handoff_id;
}

function passAndClaim(ws: string, override: Record<string, unknown>): string {
  const id = pass(ws, 'audit', override);
  assert.equal(runCliIn(ws, ['claim', id, '--agent', 'audit']).code, 0);
  return id;
}

describe('a receiver limited by its pass: the pre-tool hook denies with E013 (real hook process)', function () {
  this.timeout(120_000);
  let ws: string;

  beforeEach(() => {
    ws = tempWorkspace('perm');
    runCliSync(['--dir', ws, 'init']);
    configureAgents(ws);
    fs.mkdirSync(path.join(ws, 'src'));
    fs.writeFileSync(path.join(ws, 'src/a.ts'), 'export const a = 1;\n');
  });
  afterEach(() => fs.rmSync(ws, { recursive: true, force: true }));

  it('can_modify_files: false: Edit and a writing shell command are denied with E013, Read and `agentsync …` pass', () => {
    const edit = { file_path: path.join(ws, 'src/a.ts'), old_string: '1', new_string: '2' };
    assert.equal(preTool(ws, 'Edit', edit), '', 'no pass held yet: nothing to say');
    const id = passAndClaim(ws, { can_modify_files: false });
    const denied = preTool(ws, 'Edit', edit);
    assert.match(denied, /"permissionDecision":"deny"/);
    assert.match(denied, new RegExp(`E013 PERMISSION_DENIED: ${id} was passed to you with can_modify_files: false`));
    assert.match(preTool(ws, 'Bash', { command: 'rm -rf src' }), /E013 PERMISSION_DENIED/);
    assert.equal(preTool(ws, 'Read', { file_path: path.join(ws, 'src/a.ts') }), '');
    assert.equal(preTool(ws, 'Bash', { command: 'git diff' }), '');
    assert.equal(preTool(ws, 'Bash', { command: `agentsync return ${id} --agent audit` }), '');
    const brief = JSON.parse(
      runCliIn(ws, ['--json', 'request', '-'], JSON.stringify({ action: 'startSession', agent: 'audit' })).stdout,
    ) as {
      data: { briefing: { pass_limits?: string[] } };
    };
    assert.match((brief.data.briefing.pass_limits ?? []).join('\n'), new RegExp(`${id}: can_modify_files: false .*E013 PERMISSION_DENIED`));
  });

  it('can_run_tools: false: even Read is denied; AgentSync MCP tools and `agentsync …` pass', () => {
    passAndClaim(ws, { can_run_tools: false });
    assert.match(preTool(ws, 'Read', { file_path: path.join(ws, 'src/a.ts') }), /E013 PERMISSION_DENIED: .* can_run_tools: false/);
    assert.match(preTool(ws, 'Bash', { command: 'agentsync list; rm -rf src' }), /E013/, 'a chained command is not AgentSync alone');
    assert.equal(preTool(ws, 'mcp__agentsync__completeHandoff', { handoffId: 'x' }), '');
    assert.equal(preTool(ws, 'Bash', { command: 'agentsync list' }), '');
  });

  it("Copilot's shell tool is read from its toolArgs: `python x.py` is denied to a read-only receiver, `git diff` passes", () => {
    passAndClaim(ws, { can_modify_files: false });
    assert.match(preTool(ws, 'bash', { command: 'python3 fix.py' }, 'copilot'), /"permissionDecision":"deny".*E013 PERMISSION_DENIED/);
    assert.equal(preTool(ws, 'bash', { command: 'git diff' }, 'copilot'), '');
    assert.equal(preTool(ws, 'view', { path: 'src/a.ts' }, 'copilot'), '');
  });

  it('E013 at claim: a limited pass to Cursor (no pre-tool hook) is refused, saying why and what to do; nothing changes', () => {
    const cfg = path.join(ws, '.agentsync.json');
    const config = JSON.parse(fs.readFileSync(cfg, 'utf8')) as { agentCapabilities: Record<string, string[]> };
    config.agentCapabilities.cursor = ['pr_review'];
    config.agentCapabilities.claude = ['pr_review'];
    fs.writeFileSync(cfg, JSON.stringify(config, null, 2));
    const limited = pass(ws, 'cursor', { can_modify_files: false });
    const refused = JSON.parse(
      runCliIn(ws, ['--json', 'request', '-'], JSON.stringify({ action: 'claimHandoff', handoffId: limited, agent: 'cursor' })).stdout,
    ) as { ok: boolean; reason: string; code: string; message: string };
    assert.equal(refused.ok, false);
    assert.equal(refused.reason, 'PERMISSION_DENIED');
    assert.equal(refused.code, 'E013');
    assert.match(refused.message, new RegExp(`${limited} was passed with can_modify_files: false`));
    assert.match(refused.message, /Cursor's hooks cannot refuse a tool before it runs: AgentSync installs no pre-tool hook for Cursor/);
    assert.match(refused.message, /Claim it from an agent whose hooks can \(claude, codex, copilot, gemini, opencode\), or ask alice/);
    const shown = JSON.parse(runCliIn(ws, ['show', limited, '--json']).stdout) as { data: { handoff: { status: string } } };
    assert.equal(shown.data.handoff.status, 'queued', 'nothing changed');
    assert.equal(runCliIn(ws, ['claim', pass(ws, 'cursor', {}), '--agent', 'cursor']).code, 0, 'an unlimited pass is claimed');
    assert.equal(
      runCliIn(ws, ['claim', pass(ws, 'claude', { can_run_tools: false }), '--agent', 'claude']).code,
      0,
      'Claude Code can deny',
    );
  });
});
