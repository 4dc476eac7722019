// `agentsync mcp` under hostile or broken clients (docs/contract.md §8): an over-size message gets a JSON-RPC error
// and the server keeps serving (also past the SDK's 10 MiB buffer, where it used to exit 0 in silence); a client
// that closes its end (EPIPE) ends the server cleanly; `findings` over 64 KiB is refused on every surface.
import * as assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { handoffsFileSchema } from '../../src/core/domain/handoffSchema';
import { WorkspaceLayout } from '../../src/core/workspace/workspaceLayout';
import { CLI, initWorkspace, runCliSync } from './processHarness';

interface RpcLine {
  id?: number | string;
  result?: CallToolResult;
  error?: { code: number; message: string; data?: { reason?: string; limit?: number } };
}

/** Servers started by a test, killed after it so a failing test cannot leave one running. */
const started: ChildProcessWithoutNullStreams[] = [];

/** A raw `agentsync mcp` child: write lines, await the answer with a given id. */
function rawServer(dir: string) {
  const child = spawn(process.execPath, [CLI, '--dir', dir, 'mcp'], { stdio: ['pipe', 'pipe', 'pipe'] });
  started.push(child);
  child.stdin.on('error', () => undefined); // a server that died is reported by the assertions, not as EPIPE here
  const answers: RpcLine[] = [];
  const waiting = new Map<number | string, (l: RpcLine) => void>();
  let partial = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => {
    const parts = (partial + c.toString('utf8')).split('\n');
    partial = parts.pop()!;
    for (const text of parts.filter(Boolean)) {
      const line = JSON.parse(text) as RpcLine;
      answers.push(line);
      if (line.id !== undefined) waiting.get(line.id)?.(line);
    }
  });
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return {
    child,
    answers,
    exited,
    stderr: () => stderr,
    write: (text: string) => child.stdin.write(text),
    answer(id: number | string): Promise<RpcLine> {
      const seen = answers.find((a) => a.id === id);
      return seen ? Promise.resolve(seen) : new Promise((resolve) => waiting.set(id, resolve));
    },
    async initialize(): Promise<void> {
      child.stdin.write(
        JSON.stringify({
          jsonrpc: '2.0',
          id: 0,
          method: 'initialize',
          params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
        }) + '\n',
      );
      await this.answer(0);
      child.stdin.write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) + '\n');
    },
  };
}

/** A tools/call line of about `bytes` bytes, the id last as the SDK's client writes it. */
function hugeCall(id: number, bytes: number): string {
  return (
    JSON.stringify({
      method: 'tools/call',
      params: {
        name: 'createHandoff',
        arguments: {
          handoff: { from_agent: 'codex', to_agents: ['claude'], owner_mode: 'single', summary: 'big', notes: 'x'.repeat(bytes) },
        },
      },
      jsonrpc: '2.0',
      id,
    }) + '\n'
  );
}

function listCall(id: number): string {
  return JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'listHandoffs', arguments: {} } }) + '\n';
}

describe('agentsync mcp: message size cap, broken clients, findings limit (docs/contract.md §8)', function () {
  this.timeout(120_000);
  let dir: string;
  let layout: WorkspaceLayout;

  beforeEach(() => {
    dir = initWorkspace('mcplimits');
    layout = new WorkspaceLayout(dir);
  });

  afterEach(() => {
    for (const child of started.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('a 2 MiB message gets a JSON-RPC error with its id, nothing is stored, and the server goes on', async () => {
    const server = rawServer(dir);
    await server.initialize();
    server.write(hugeCall(7, 2 * 1024 * 1024));
    const refused = await server.answer(7);
    assert.equal(refused.error?.code, -32600, JSON.stringify(refused).slice(0, 500));
    assert.equal(refused.error?.data?.reason, 'too_large');
    assert.equal(refused.error?.data?.limit, 1024 * 1024);
    assert.match(refused.error.message, /over the 1048576-byte limit/);

    server.write(listCall(8));
    const listed = await server.answer(8);
    assert.equal(listed.result?.isError, false);
    assert.equal(handoffsFileSchema.parse(JSON.parse(fs.readFileSync(layout.handoffsFile, 'utf8'))).handoffs.length, 0, 'nothing stored');
    server.child.stdin.end();
    assert.deepEqual(await server.exited, { code: 0, signal: null });
  });

  it('an 11 MiB message (past the SDK buffer) does not end the server: it answers an error and serves the next call', async () => {
    const server = rawServer(dir);
    await server.initialize();
    server.write(hugeCall(9, 11 * 1024 * 1024));
    const refused = await server.answer(9);
    assert.equal(refused.error?.data?.reason, 'too_large');
    server.write(listCall(10));
    assert.equal((await server.answer(10)).result?.isError, false);
    server.child.stdin.end();
    assert.deepEqual(await server.exited, { code: 0, signal: null });
  });

  it('a client that closes its end of stdout (EPIPE) ends the server cleanly, without a crash', async () => {
    const server = rawServer(dir);
    await server.initialize();
    server.child.stdout.destroy();
    // The answers to these go to a closed pipe.
    for (let id = 20; id < 25; id++) server.write(listCall(id));
    const exit = await server.exited;
    assert.deepEqual(exit, { code: 0, signal: null }, server.stderr());
    assert.doesNotMatch(server.stderr(), /Error: write EPIPE|\n\s+at /, 'no uncaught error stack');
    assert.match(server.stderr(), /stopped \(the client closed its end \(stdout: EPIPE\)\)/);
  });

  it('findings over 64 KiB are refused through MCP and the CLI, naming the field and the limit', async () => {
    const created = JSON.parse(
      runCliSync(['--dir', dir, '--json', 'create', '--from', 'codex', '--to', 'claude', '--summary', 'audit']),
    ) as { data: { handoff: { handoff_id: string } } };
    const id = created.data.handoff.handoff_id;
    runCliSync(['--dir', dir, 'claim', id, '--agent', 'claude']);
    const big = { status: 'complete', decision: 'PROCEED', context_summary: 'done', findings: { log: 'y'.repeat(70 * 1024) } };

    const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, '--dir', dir, 'mcp'], stderr: 'pipe' });
    const client = new Client({ name: 'limits-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const r = (await client.callTool({
        name: 'completeHandoff',
        arguments: { handoffId: id, agent: 'claude', result: big },
      })) as CallToolResult;
      assert.equal(r.isError, true);
      const env = JSON.parse((r.content[0] as { text: string }).text) as { reason: string; field: string; message: string };
      assert.equal(env.reason, 'CONTEXT_OVERFLOW');
      assert.equal(env.field, 'result.findings');
      assert.match(env.message, /result\.findings is \d+ bytes as JSON, over the 65536-byte \(64 KiB\) limit/);

      const ok = (await client.callTool({
        name: 'completeHandoff',
        arguments: { handoffId: id, agent: 'claude', result: { ...big, findings: { log: 'short' } } },
      })) as CallToolResult;
      assert.equal(ok.isError, false, (ok.content[0] as { text: string }).text);
    } finally {
      await client.close();
    }

    // The CLI (and so the drop zone and editor, through the same dispatcher) refuses it the same way.
    const second = JSON.parse(
      runCliSync(['--dir', dir, '--json', 'create', '--from', 'codex', '--to', 'claude', '--summary', 'again']),
    ) as { data: { handoff: { handoff_id: string } } };
    runCliSync(['--dir', dir, 'claim', second.data.handoff.handoff_id, '--agent', 'claude']);
    const file = path.join(dir, 'report.json');
    fs.writeFileSync(file, JSON.stringify(big));
    const r = spawnSync(
      process.execPath,
      [CLI, '--dir', dir, 'complete', second.data.handoff.handoff_id, '--agent', 'claude', '--result', file],
      { encoding: 'utf8' },
    );
    assert.equal(r.status, 1);
    assert.match(r.stderr, /CONTEXT_OVERFLOW: result\.findings is \d+ bytes as JSON, over the 65536-byte/);
    const stored = handoffsFileSchema.parse(JSON.parse(fs.readFileSync(layout.handoffsFile, 'utf8'))).handoffs;
    assert.equal(stored.find((h) => h.handoff_id === second.data.handoff.handoff_id)?.status, 'in_progress', 'nothing changed');
  });
});
