// Without --dir the CLI finds its workspace the way git finds .git: the nearest folder at or above the current one
// that holds .agentsync.json or .agentsync/handoffs.json (docs/agentsync-documentation.md, "Which workspace").
// From a subfolder every verb answers about that workspace and writes nothing in the subfolder; from a folder
// outside any workspace the answer is not_a_workspace and nothing is created. Real processes, real files.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { CLI, runCliIn, tempWorkspace, type CliRun } from './processHarness';

function runIn(cwd: string, args: string[], input?: string): CliRun {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8', input });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Every file and folder under `dir`, relative to it. */
function tree(dir: string): string[] {
  return (fs.readdirSync(dir, { recursive: true }) as string[]).sort();
}

function initializedWithOneHandoff(): { ws: string; id: string; sub: string } {
  const ws = tempWorkspace('discovery');
  assert.equal(runCliIn(ws, ['init']).code, 0);
  const created = runCliIn(ws, ['--json', 'create', '--from', 'claude', '--to', 'codex', '--summary', 'Fix the auth refresh']);
  assert.equal(created.code, 0, created.stderr);
  const id = (JSON.parse(created.stdout) as { data: { handoff: { handoff_id: string } } }).data.handoff.handoff_id;
  const sub = path.join(ws, 'src', 'auth');
  fs.mkdirSync(sub, { recursive: true });
  fs.writeFileSync(path.join(sub, 'token.ts'), 'export {};\n');
  return { ws, id, sub };
}

describe('the workspace found from any subfolder', function () {
  this.timeout(60_000);

  it('from src/auth, list and claim answer about the workspace above and write nothing in src/auth', () => {
    const { ws, id, sub } = initializedWithOneHandoff();
    const before = tree(sub);
    const list = runIn(sub, ['--json', 'list', '--open']);
    assert.equal(list.code, 0, list.stderr);
    const listed = JSON.parse(list.stdout) as { data: { handoffs: { handoff_id: string }[] } };
    assert.deepEqual(
      listed.data.handoffs.map((h) => h.handoff_id),
      [id],
    );
    const claim = runIn(sub, ['--json', 'claim', id, '--agent', 'codex']);
    assert.equal(claim.code, 0, claim.stdout + claim.stderr);
    assert.equal((JSON.parse(claim.stdout) as { data: { handoff: { status: string } } }).data.handoff.status, 'in_progress');
    const store = JSON.parse(fs.readFileSync(path.join(ws, '.agentsync/handoffs.json'), 'utf8')) as {
      handoffs: { handoff_id: string; status: string }[];
    };
    assert.equal(store.handoffs.find((h) => h.handoff_id === id)?.status, 'in_progress');
    const deeper = path.join(sub, 'deeper');
    fs.mkdirSync(deeper);
    const show = runIn(deeper, ['--json', 'show', id]);
    assert.equal(show.code, 0, show.stderr);
    assert.deepEqual(tree(sub), [...before, 'deeper'].sort());
  });

  it('outside any workspace: not_a_workspace, exit 1, and no file created', () => {
    const dir = tempWorkspace('not-a-workspace');
    for (const args of [
      ['list'],
      ['claim', 'H-1', '--agent', 'codex'],
      ['create', '--from', 'claude', '--summary', 'x'],
      ['request', '-'],
    ]) {
      const r = runIn(dir, ['--json', ...args], '{"action":"listHandoffs"}');
      assert.equal(r.code, 1, `${args.join(' ')}: ${r.stdout}${r.stderr}`);
      const answer = JSON.parse(r.stdout) as { ok: boolean; reason: string; message: string };
      assert.equal(answer.ok, false);
      assert.equal(answer.reason, 'not_a_workspace');
      assert.match(answer.message, /agentsync init/);
      const human = runIn(dir, args, '{"action":"listHandoffs"}');
      assert.equal(human.code, 1);
      assert.match(human.stderr, /not_a_workspace: .*not inside an AgentSync workspace/);
    }
    assert.deepEqual(tree(dir), []);
  });

  it('init is the exception: it creates the workspace in the current folder', () => {
    const dir = tempWorkspace('init-here');
    const r = runIn(dir, ['init']);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(fs.existsSync(path.join(dir, '.agentsync.json')));
    assert.equal(runIn(dir, ['list']).code, 0);
  });

  it('a stray .agentsync/ folder without handoffs.json does not make a workspace: the one above answers', () => {
    const { id, sub } = initializedWithOneHandoff();
    fs.mkdirSync(path.join(sub, '.agentsync', 'audit'), { recursive: true });
    const list = runIn(sub, ['--json', 'list']);
    assert.equal(list.code, 0, list.stderr);
    assert.deepEqual(
      (JSON.parse(list.stdout) as { data: { handoffs: { handoff_id: string }[] } }).data.handoffs.map((h) => h.handoff_id),
      [id],
    );
  });

  it('a folder reached through a symlink belongs to the workspace of where it really is', function () {
    if (process.platform === 'win32') this.skip();
    const outside = tempWorkspace('discovery-outside');
    const linked = initializedWithOneHandoff();
    // outside/link -> <linked workspace>/src/auth: the walk starts from the real folder, so it finds the linked workspace
    fs.symlinkSync(linked.sub, path.join(outside, 'link'));
    const list = runIn(path.join(outside, 'link'), ['--json', 'list']);
    assert.equal(list.code, 0, list.stderr);
    const ids = (JSON.parse(list.stdout) as { data: { handoffs: { handoff_id: string }[] } }).data.handoffs.map((h) => h.handoff_id);
    assert.deepEqual(ids, [linked.id]);
    assert.deepEqual(fs.readdirSync(outside), ['link']);
  });

  it('an explicit --dir is the workspace, as before', () => {
    const { ws, id } = initializedWithOneHandoff();
    const r = runIn(tempWorkspace('elsewhere'), ['--json', '--dir', ws, 'list']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal((JSON.parse(r.stdout) as { data: { handoffs: { handoff_id: string }[] } }).data.handoffs[0].handoff_id, id);
  });

  it('hook and mcp from a subfolder serve the workspace above and write nothing in the subfolder', async () => {
    const { ws, id, sub } = initializedWithOneHandoff();
    const before = tree(sub);
    const input = JSON.stringify({ session_id: 's1', cwd: sub, hook_event_name: 'SessionStart', source: 'startup' });
    const hook = runIn(sub, ['hook', 'session-start', '--agent', 'codex', '--format', 'codex'], input);
    assert.equal(hook.code, 0, hook.stderr);
    assert.match(hook.stdout, new RegExp(id));
    const client = new Client({ name: 'discovery-test', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp'], cwd: sub, stderr: 'ignore' }));
    try {
      const result = (await client.callTool({ name: 'listHandoffs', arguments: {} })) as CallToolResult;
      const answer = JSON.parse((result.content[0] as { text: string }).text) as { data: { handoffs: { handoff_id: string }[] } };
      assert.deepEqual(
        answer.data.handoffs.map((h) => h.handoff_id),
        [id],
      );
    } finally {
      await client.close();
    }
    assert.deepEqual(tree(sub), before);
    assert.ok(fs.existsSync(path.join(ws, '.agentsync', 'audit')));
  });
});
