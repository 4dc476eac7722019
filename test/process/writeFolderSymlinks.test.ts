// Every folder AgentSync writes in is checked component by component: a repository that commits `.claude`,
// `.github`, `.codex`, `.cursor` or `.agentsync/hooks` as a symlink (say `.claude -> ../../.claude`, the user's own
// settings) must not get AgentSync to write, or delete, through it. Each refusal names the link and changes nothing
// (docs/agentsync-documentation.md, "Guarantees and how they are kept"). Real CLI processes on real folders.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CLI, runCliIn, runCliSync, tempWorkspace } from './processHarness';

/** Every entry below `dir` with its bytes (files) or '/' (folders), to compare before and after. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const rel of (fs.readdirSync(dir, { recursive: true }) as string[]).sort()) {
    const st = fs.lstatSync(path.join(dir, rel));
    out[rel] = st.isDirectory()
      ? '/'
      : st.isSymbolicLink()
        ? `-> ${fs.readlinkSync(path.join(dir, rel))}`
        : fs.readFileSync(path.join(dir, rel), 'utf8');
  }
  return out;
}

function request(ws: string, body: object): { ok: boolean; data: Record<string, unknown> } {
  return JSON.parse(runCliIn(ws, ['request', '-'], JSON.stringify(body)).stdout) as { ok: boolean; data: Record<string, unknown> };
}

function stopHook(ws: string): { status: number | null; stdout: string; stderr: string } {
  const env = { ...process.env };
  delete env.AGENTSYNC_AGENT;
  const input = JSON.stringify({ session_id: 's1', cwd: ws, hook_event_name: 'Stop', stop_hook_active: false });
  const r = spawnSync(process.execPath, [CLI, 'hook', 'stop', '--agent', 'claude', '--format', 'claude'], {
    cwd: ws,
    input,
    encoding: 'utf8',
    env,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('folders AgentSync writes in are never symlinks: init, init --hooks, the stop hook, reads (processes)', function () {
  this.timeout(120_000);
  let ws: string;
  let outside: string;

  beforeEach(() => {
    ws = tempWorkspace('writelink');
    outside = tempWorkspace('writelink-outside');
  });

  afterEach(() => {
    fs.rmSync(ws, { recursive: true, force: true });
    fs.rmSync(outside, { recursive: true, force: true });
  });

  const cases: { link: string; args: string[]; target: string }[] = [
    { link: '.github', args: ['init'], target: 'copilot-instructions.md' },
    { link: '.claude', args: ['init', '--hooks'], target: 'settings.json' },
    { link: '.codex', args: ['init', '--hooks'], target: 'hooks.json' },
    { link: '.cursor', args: ['init', '--hooks'], target: 'hooks.json' },
    { link: '.github', args: ['init', '--hooks'], target: 'hooks/agentsync.json' },
    { link: '.github/hooks', args: ['init', '--hooks'], target: 'agentsync.json' },
  ];
  for (const c of cases) {
    it(`${c.args.join(' ')} with ${c.link} a symlink: refused naming the link, nothing written there or in the workspace`, () => {
      fs.writeFileSync(path.join(outside, 'settings.json'), '{"the user\'s own": true}\n');
      fs.mkdirSync(path.dirname(path.join(ws, c.link)), { recursive: true });
      fs.symlinkSync(outside, path.join(ws, c.link), 'dir');
      const before = { ws: snapshot(ws), outside: snapshot(outside) };
      const r = runCliIn(ws, c.args);
      assert.equal(r.code, 1, r.stdout + r.stderr);
      assert.match(
        r.stderr,
        new RegExp(`${c.link.replaceAll('.', '\\.')} is not a folder \\(it is a symlink\\); AgentSync will not write through it`),
      );
      assert.match(r.stderr, /Nothing was changed/);
      assert.deepEqual(snapshot(outside), before.outside, `nothing written to ${c.target} or anywhere through ${c.link}`);
      assert.deepEqual(snapshot(ws), before.ws, 'init changed nothing in the workspace either');
    });
  }

  it('init with .agentsync a symlink: refused before the instruction files are written', () => {
    fs.symlinkSync(outside, path.join(ws, '.agentsync'), 'dir');
    const before = snapshot(ws);
    const r = runCliIn(ws, ['init']);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stderr, /\.agentsync is not a folder \(it is a symlink\)/);
    assert.deepEqual(snapshot(ws), before, 'no AGENTS.md, CLAUDE.md or .agentsync.json was created');
    assert.deepEqual(snapshot(outside), {});
  });

  it('the stop hook with .agentsync/hooks a symlink: the marker there is neither deleted nor written', () => {
    runCliSync(['--dir', ws, 'init']);
    const marker = path.join(outside, 'stop-claude.json');
    fs.writeFileSync(marker, "not AgentSync's file\n");
    fs.symlinkSync(outside, path.join(ws, '.agentsync', 'hooks'), 'dir');
    // The rule off: the hook would clear the marker.
    const off = stopHook(ws);
    assert.equal(off.status, 0, off.stderr);
    assert.deepEqual(JSON.parse(off.stdout), {}, 'the agent is let through: a failing hook never stops it');
    assert.match(off.stderr, /\.agentsync\/hooks is not a folder \(it is a symlink\); AgentSync will not write through it/);
    assert.equal(fs.readFileSync(marker, 'utf8'), "not AgentSync's file\n", 'the file the link points at was not deleted');
    // The rule on with held work: the hook would write the marker.
    fs.rmSync(marker);
    const cfg = JSON.parse(fs.readFileSync(path.join(ws, '.agentsync.json'), 'utf8')) as Record<string, unknown>;
    fs.writeFileSync(path.join(ws, '.agentsync.json'), JSON.stringify({ ...cfg, requireHandoffOnEndSession: true }));
    const created = request(ws, {
      action: 'createHandoff',
      handoff: { from_agent: 'codex', to_agents: ['claude'], owner_mode: 'single', summary: 'x' },
    });
    const id = (created.data.handoff as { handoff_id: string }).handoff_id;
    assert.equal(request(ws, { action: 'claimHandoff', handoffId: id, agent: 'claude' }).ok, true);
    const on = stopHook(ws);
    assert.equal(on.status, 0, on.stderr);
    assert.match(on.stderr, /\.agentsync\/hooks is not a folder \(it is a symlink\)/);
    assert.deepEqual(snapshot(outside), {}, 'no marker written through the link');
  });

  it('a read (list) with .agentsync a symlink: refused, nothing written through it (reads log, store stamp)', () => {
    runCliSync(['--dir', ws, 'init']);
    const data = path.join(ws, '.agentsync');
    for (const name of fs.readdirSync(data)) fs.renameSync(path.join(data, name), path.join(outside, name));
    fs.rmdirSync(data);
    fs.symlinkSync(outside, data, 'dir');
    const before = snapshot(outside);
    const r = runCliIn(ws, ['list']);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stderr, /store_unsafe: \.agentsync is not a folder \(it is a symlink\)/);
    assert.deepEqual(snapshot(outside), before);
  });
});
