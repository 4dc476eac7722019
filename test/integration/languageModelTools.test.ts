// Copilot's way in (docs/contract.md §10a) in the real editor: the AgentSync language-model tools are in vscode.lm.tools,
// invoking them through vscode.lm.invokeTool creates and claims a handoff on disk; the MCP provider's definition,
// spawned as given, is a server that answers tools/list. Under test the workbench accepts confirmations without a
// dialog (its DialogService does so in extension tests), so the confirmation texts are checked from the tool itself.
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { RequestResponse } from '../../src/core/requests/requestDispatcher';
import type { Handoff } from '../../src/core/domain/handoffSchema';
import { LANGUAGE_MODEL_TOOLS } from '../../src/vscode/agents/languageModelToolCatalog';
import { confirmationFor } from '../../src/vscode/agents/languageModelTools';
import { api, plainText, readHandoffs, workspaceRoot } from './helpers';

function envelope(result: vscode.LanguageModelToolResult): RequestResponse {
  const part = result.content.find((p): p is vscode.LanguageModelTextPart => p instanceof vscode.LanguageModelTextPart);
  assert.ok(part, 'the result has a text part');
  return JSON.parse(part.value) as RequestResponse;
}

/** Invokes a tool through the editor's tool service; answers its envelope and the confirmation it asks for. */
async function invokeConfirmed(name: string, input: Record<string, unknown>): Promise<{ response: RequestResponse; dialog: string }> {
  const a = await api();
  const spec = LANGUAGE_MODEL_TOOLS.find((t) => t.name === name)!;
  const asked = confirmationFor({ services: a.services, me: () => a.identity().id, log: undefined as never }, spec, input);
  const response = envelope(await vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined }));
  return { response, dialog: `${asked.title}\n${plainText(asked.message)}` };
}

/** Newline-delimited JSON-RPC over a child's stdio: send, and wait for the answer with that id. */
function rpcClient(child: ReturnType<typeof spawn>) {
  let buffer = '';
  const waiting = new Map<number, (msg: Record<string, unknown>) => void>();
  child.stdout!.setEncoding('utf8');
  child.stdout!.on('data', (chunk: string) => {
    buffer += chunk;
    let nl: number;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, nl).trim();
      buffer = buffer.slice(nl + 1);
      if (!line) continue;
      const msg = JSON.parse(line) as { id?: number };
      if (typeof msg.id === 'number') waiting.get(msg.id)?.(msg);
    }
  });
  let next = 1;
  return {
    request(method: string, params: object): Promise<Record<string, unknown>> {
      const id = next++;
      const answer = new Promise<Record<string, unknown>>((resolve, reject) => {
        waiting.set(id, resolve);
        child.once('exit', (code) => reject(new Error(`the server exited (${code}) before answering ${method}`)));
      });
      child.stdin!.write(JSON.stringify({ jsonrpc: '2.0', id, method, params }) + '\n');
      return answer;
    },
    notify(method: string): void {
      child.stdin!.write(JSON.stringify({ jsonrpc: '2.0', method }) + '\n');
    },
  };
}

describe('language-model tools and MCP discovery', () => {
  it('every AgentSync tool is registered in vscode.lm.tools with its input schema', async () => {
    await api();
    const registered = vscode.lm.tools.filter((t) => t.name.startsWith('agentsync_'));
    assert.deepEqual(registered.map((t) => t.name).sort(), LANGUAGE_MODEL_TOOLS.map((t) => t.name).sort());
    const create = registered.find((t) => t.name === 'agentsync_createHandoff')!;
    assert.deepEqual((create.inputSchema as { required?: string[] }).required, ['handoff']);
    assert.match(create.description, /^Use when/);
  });

  it('invokeTool creates a handoff (after the confirmation), then a claim tool call claims it; both on disk', async () => {
    const summary = 'Port the CSV importer to streams (via Copilot tool)';
    const created = await invokeConfirmed('agentsync_createHandoff', {
      handoff: { owner_mode: 'single', to_agents: ['copilot'], summary },
    });
    assert.match(created.dialog, /Create an AgentSync handoff\?/);
    assert.match(created.dialog, /from Human to Copilot \(single\)/);
    assert.equal(created.response.ok, true, JSON.stringify(created.response));
    const id = (created.response.data!.handoff as Handoff).handoff_id;
    let h = readHandoffs().find((x) => x.handoff_id === id)!;
    assert.equal(h.summary, summary);
    assert.equal(h.from_agent, 'human', 'the window identity authored it');

    const claimed = await invokeConfirmed('agentsync_claimHandoff', { handoffId: id, agent: 'copilot' });
    assert.match(claimed.dialog, new RegExp(`Claim ${id}\\?`));
    assert.match(claimed.dialog, /held by Copilot/);
    assert.equal(claimed.response.ok, true, JSON.stringify(claimed.response));
    h = readHandoffs().find((x) => x.handoff_id === id)!;
    assert.equal(h.status, 'in_progress');
    assert.equal(h.claimed_by, 'copilot');
    // Through the folder's dispatcher, audited as the lm-tool surface.
    const dir = path.join(workspaceRoot(), '.agentsync/audit');
    const audit = fs.readdirSync(dir).flatMap((f) =>
      fs
        .readFileSync(path.join(dir, f), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { handoff_id: string; action: string; agent: string; surface: string }),
    );
    const mine = audit.filter((l) => l.handoff_id === id).map((l) => [l.action, l.agent, l.surface]);
    assert.deepEqual(mine, [
      ['createHandoff', 'human', 'lm-tool'],
      ['claimHandoff', 'copilot', 'lm-tool'],
    ]);
  });

  it('a read-only tool answers its data; a refused call answers the refusal envelope', async () => {
    const list = envelope(
      await vscode.lm.invokeTool('agentsync_listHandoffs', { input: { status: 'in_progress' }, toolInvocationToken: undefined }),
    );
    assert.equal(list.ok, true);
    assert.ok((list.data!.count as number) >= 1);
    const refused = envelope(
      await vscode.lm.invokeTool('agentsync_claimHandoff', { input: { handoffId: 'HO-19990101-999' }, toolInvocationToken: undefined }),
    );
    assert.equal(refused.ok, false);
    assert.equal(refused.reason, 'not_found');
  });

  it('the MCP provider offers `agentsync mcp` for the folder; spawned as defined, it answers initialize and tools/list', async () => {
    const a = await api();
    const defs = a.mcp.provideMcpServerDefinitions();
    assert.equal(defs.length, 1);
    const def = defs[0];
    assert.deepEqual(def.args.slice(1), ['mcp', '--dir', workspaceRoot()]);
    const child = spawn(def.command, def.args, {
      cwd: def.cwd?.fsPath,
      env: { ...process.env, ...(def.env as Record<string, string>) },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    try {
      const rpc = rpcClient(child);
      const init = await rpc.request('initialize', {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'agentsync-editor-test', version: '1' },
      });
      assert.equal((init.result as { serverInfo: { name: string } }).serverInfo.name, 'agentsync');
      rpc.notify('notifications/initialized');
      const list = await rpc.request('tools/list', {});
      const names = (list.result as { tools: { name: string }[] }).tools.map((t) => t.name);
      for (const action of ['createHandoff', 'claimHandoff', 'completeHandoff', 'passOver', 'returnHandoff', 'status'])
        assert.ok(names.includes(action), `${action} is an MCP tool`);
    } finally {
      child.kill();
    }
  });

  it('in Restricted Mode no MCP server is offered (and VS Code is told to ask again); trusted again, it is back', async () => {
    const a = await api();
    let changes = 0;
    const sub = a.mcp.onDidChangeMcpServerDefinitions(() => changes++);
    try {
      a.trust.simulate(false);
      assert.deepEqual(a.mcp.provideMcpServerDefinitions(), []);
      a.trust.simulate(undefined);
      assert.equal(a.mcp.provideMcpServerDefinitions().length, 1);
      assert.ok(changes >= 2, `told VS Code of ${changes} change(s)`);
    } finally {
      sub.dispose();
      a.trust.simulate(undefined);
    }
  });
});
