// `agentsync mcp` driven by the real MCP SDK client over stdio (docs/contract.md §1, §8): every action is a tool, calls go
// through the one dispatcher (same store, same refusals, audit surface "mcp"), stdout carries only the protocol,
// and the server exits by itself when its stdin closes.
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ACTION_NAMES } from '../../src/core/requests/catalog';
import { handoffsFileSchema, type Handoff } from '../../src/core/domain/handoffSchema';
import { WorkspaceLayout } from '../../src/core/workspace/workspaceLayout';
import { auditLines, CLI, initWorkspace } from './processHarness';

function readStore(layout: WorkspaceLayout): Handoff[] {
  const parsed = handoffsFileSchema.safeParse(JSON.parse(fs.readFileSync(layout.handoffsFile, 'utf8')));
  assert.ok(parsed.success, `handoffs.json must match the schema: ${!parsed.success && parsed.error.message}`);
  return parsed.data.handoffs;
}

/** The response envelope a tool call answered with (its one text content, parsed). */
function envelopeOf(result: Awaited<ReturnType<Client['callTool']>>): Record<string, unknown> {
  const content = (result as CallToolResult).content;
  assert.equal(content.length, 1, 'one content item');
  assert.equal(content[0].type, 'text');
  return JSON.parse((content[0] as { text: string }).text) as Record<string, unknown>;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('agentsync mcp (a real MCP client over stdio)', function () {
  this.timeout(120_000);
  let dir: string;
  let layout: WorkspaceLayout;
  let client: Client;
  let transport: StdioClientTransport;
  let stderr = '';
  const clientErrors: Error[] = [];

  before(async () => {
    assert.ok(fs.existsSync(path.join(path.dirname(CLI), '../dist/cli.js')), 'run `node esbuild.mjs` first: the test runs the bundled CLI');
    dir = initWorkspace('mcp');
    layout = new WorkspaceLayout(dir);
    transport = new StdioClientTransport({ command: process.execPath, args: [CLI, '--dir', dir, 'mcp', '--verbose'], stderr: 'pipe' });
    transport.stderr!.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    client = new Client({ name: 'agentsync-test', version: '1.0.0' });
    // A line on stdout that is not JSON-RPC would surface here.
    client.onerror = (e) => clientErrors.push(e);
    await client.connect(transport);
  });

  after(async () => {
    await client?.close().catch(() => undefined);
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('lists every action as a tool with an object input schema that leaves out "action"', async () => {
    assert.equal(client.getServerVersion()?.name, 'agentsync');
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    assert.deepEqual([...names].sort(), [...ACTION_NAMES].sort());
    for (const tool of tools) {
      assert.equal(tool.inputSchema.type, 'object', `${tool.name} takes an object`);
      assert.ok(tool.description && tool.description.length > 20, `${tool.name} says what it does`);
      assert.ok(!('action' in (tool.inputSchema.properties ?? {})), `${tool.name}: the tool name supplies the action`);
      assert.ok(!(tool.inputSchema.required ?? []).includes('action'));
    }
    const create = tools.find((t) => t.name === 'createHandoff')!;
    assert.deepEqual(create.inputSchema.required, ['handoff']);
    const claim = tools.find((t) => t.name === 'claimHandoff')!;
    assert.deepEqual(claim.inputSchema.required, ['agent']);
    assert.ok('handoffId' in claim.inputSchema.properties! && 'expected_rev' in claim.inputSchema.properties);
  });

  it('creates and claims through the tools; a second claimer is refused with already_claimed and claimedBy', async () => {
    const created = await client.callTool({
      name: 'createHandoff',
      arguments: {
        handoff: { from_agent: 'codex', to_agents: ['claude', 'copilot'], owner_mode: 'shared', summary: 'Review the auth change' },
      },
    });
    const createdEnv = envelopeOf(created);
    assert.equal(created.isError, false, JSON.stringify(createdEnv));
    assert.equal(createdEnv.ok, true);
    const id = (createdEnv.data as { handoff: Handoff }).handoff.handoff_id;
    assert.match(id, /^HO-\d{8}-\d{3}$/);

    const first = await client.callTool({ name: 'claimHandoff', arguments: { handoffId: id, agent: 'Claude' } });
    assert.equal(first.isError, false, JSON.stringify(envelopeOf(first)));
    assert.equal((envelopeOf(first).data as { handoff: Handoff }).handoff.claimed_by, 'claude');

    const second = await client.callTool({
      name: 'claimHandoff',
      arguments: { handoffId: id, agent: 'copilot', request_id: 'mcp-claim-2' },
    });
    const refused = envelopeOf(second);
    assert.equal(second.isError, true);
    assert.equal(refused.ok, false);
    assert.equal(refused.reason, 'already_claimed');
    assert.equal(refused.claimedBy, 'claude');
    assert.equal(refused.request_id, 'mcp-claim-2');

    // The store on disk is what the calls said.
    const [record] = readStore(layout).filter((h) => h.handoff_id === id);
    assert.equal(record.status, 'in_progress');
    assert.equal(record.claimed_by, 'claude');
    assert.equal(record.summary, 'Review the auth change');

    // Every call left an audit line marked with the MCP surface, the refusal included.
    const audit = auditLines(layout).filter((l) => l.handoff_id === id || l.request_id === 'mcp-claim-2');
    const claims = audit.filter((l) => l.action === 'claimHandoff');
    assert.ok(
      audit.some((l) => l.action === 'createHandoff' && l.surface === 'mcp'),
      JSON.stringify(audit),
    );
    assert.ok(
      claims.some((l) => l.agent === 'claude' && !l.refused && l.surface === 'mcp'),
      JSON.stringify(claims),
    );
    assert.ok(
      claims.some((l) => l.request_id === 'mcp-claim-2' && l.refused === true && l.surface === 'mcp'),
      JSON.stringify(claims),
    );
  });

  it('refuses a bad argument with invalid_request and changes nothing', async () => {
    const before = fs.readFileSync(layout.handoffsFile);
    const bad = await client.callTool({
      name: 'createHandoff',
      arguments: { handoff: { from_agent: 'codex', to_agents: ['claude'], owner_mode: 'sideways', summary: 'x' } },
    });
    const env = envelopeOf(bad);
    assert.equal(bad.isError, true);
    assert.equal(env.reason, 'invalid_request');
    assert.match(String(env.message), /owner_mode/);

    const unknownKey = await client.callTool({
      name: 'claimHandoff',
      arguments: { handoffId: 'HO-20260101-001', agent: 'claude', colour: 'blue' },
    });
    assert.equal(unknownKey.isError, true);
    assert.equal(envelopeOf(unknownKey).reason, 'invalid_request');
    assert.equal(envelopeOf(unknownKey).field, 'colour');

    // The tool name decides the action; an "action" argument naming another one is refused, not followed.
    const redirected = await client.callTool({ name: 'listHandoffs', arguments: { action: 'expireLeases' } });
    assert.equal(redirected.isError, true);
    assert.equal(envelopeOf(redirected).reason, 'invalid_request');

    assert.deepEqual(fs.readFileSync(layout.handoffsFile), before, 'handoffs.json is byte-for-byte unchanged');
  });

  it('answers an unknown tool with isError and the list of tools', async () => {
    const r = await client.callTool({ name: 'deleteEverything', arguments: {} });
    const env = envelopeOf(r);
    assert.equal(r.isError, true);
    assert.equal(env.reason, 'unknown_action');
    assert.deepEqual(env.actions, ACTION_NAMES);
    assert.match(String(env.message), /createHandoff/);
  });

  it('passes work over and lists it, as the same core would through any surface', async () => {
    const [held] = readStore(layout).filter((h) => h.status === 'in_progress');
    const passed = await client.callTool({
      name: 'passOver',
      arguments: { agent: 'claude', to: 'copilot', handoffId: held.handoff_id, reason: 'needs UI eyes', summary: 'Check the login form' },
    });
    const env = envelopeOf(passed);
    assert.equal(passed.isError, false, JSON.stringify(env));
    const newId = (env.data as { handoff: Handoff }).handoff.handoff_id;
    const list = envelopeOf(await client.callTool({ name: 'listHandoffs', arguments: { open: true } }));
    assert.ok((list.data as { handoffs: Handoff[] }).handoffs.some((h) => h.handoff_id === newId));
    assert.ok(readStore(layout).some((h) => h.handoff_id === newId && h.summary === 'Check the login form'));
  });

  it('exits by itself when the client closes its stdin, with no stray output', async () => {
    const pid = transport.pid;
    assert.ok(pid, 'the server child is running');
    await client.close();
    assert.equal(isAlive(pid), false, 'the server process is gone');
    // --verbose logs to stderr: it stopped because stdin closed, not because the client had to signal it.
    assert.match(stderr, /stopped \(stdin closed\)/, stderr);
    assert.deepEqual(clientErrors, []);
  });

  it('writes only JSON-RPC to stdout and exits 0 when stdin ends (a raw child, no SDK client)', async () => {
    const child = spawn(process.execPath, [CLI, '--dir', dir, 'mcp'], { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const send = (m: object) => child.stdin.write(JSON.stringify(m) + '\n');
    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'status', arguments: {} } });
    child.stdin.end();
    assert.equal(await exited, 0);
    const lines = out
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { jsonrpc: string; id: number; result?: { isError?: boolean; content: { text: string }[] } });
    assert.deepEqual(
      lines.map((l) => [l.jsonrpc, l.id]),
      [
        ['2.0', 1],
        ['2.0', 2],
      ],
      'one answer per request, nothing else, even though stdin closed right after the call',
    );
    assert.equal(lines[1].result!.isError, false);
    assert.equal((JSON.parse(lines[1].result!.content[0].text) as { action: string }).action, 'status');
  });
});
