// The tool hooks' index (src/core/store/hookIndex.ts; docs/contract.md §14) with real processes, in a linked git
// worktree: every write leaves in the clone's home the live claims, naming the store file's stat key; a hook reads the
// index while that key is the store's, and the store itself once the store changed behind the index's back, so its
// radar (warn, and deny under "radar": "deny") answers what the store says.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileStatKeyOf } from '../../src/core/disk/fileStatKey';
import { derivedFrom } from '../../src/core/store/hookIndex';
import { WorkspaceLayout } from '../../src/core/workspace/workspaceLayout';
import { CLI, NO_SESSION_ENV, gitOk, runCliSync, tempWorkspace } from './processHarness';

function env(): NodeJS.ProcessEnv {
  return NO_SESSION_ENV;
}

function request(dir: string, body: object): { ok: boolean; data: Record<string, unknown> } {
  const r = spawnSync(process.execPath, [CLI, 'request', '-'], { cwd: dir, input: JSON.stringify(body), encoding: 'utf8', env: env() });
  return JSON.parse(r.stdout) as { ok: boolean; data: Record<string, unknown> };
}

/** Claude's pre-tool hook in `cwd` for a Write of `file` (absolute): what it prints. */
function preTool(cwd: string, file: string): string {
  const input = { session_id: 's1', cwd, hook_event_name: 'PreToolUse', tool_name: 'Write', tool_input: { file_path: file, content: 'x' } };
  const r = spawnSync(process.execPath, [CLI, 'hook', 'pre-tool-use', '--agent', 'claude', '--format', 'claude'], {
    cwd,
    input: JSON.stringify(input),
    encoding: 'utf8',
    env: env(),
  });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout;
}

/** A clone with AgentSync committed, codex's live claim on src/app.ts, and a linked worktree. */
function clone(config: object = {}): { repo: string; linked: string; layout: WorkspaceLayout } {
  const repo = tempWorkspace('hook-index');
  gitOk(repo, 'init', '-q', '-b', 'main');
  runCliSync(['--dir', repo, 'init']);
  const file = path.join(repo, '.agentsync.json');
  fs.writeFileSync(file, JSON.stringify({ ...JSON.parse(fs.readFileSync(file, 'utf8')), ...config }, null, 2));
  const handoff = { from_agent: 'human', to_agents: ['codex'], owner_mode: 'single', summary: 'Fix', files: ['src/app.ts'] };
  const id = ((request(repo, { action: 'createHandoff', handoff }).data.handoff ?? {}) as { handoff_id: string }).handoff_id;
  assert.equal(request(repo, { action: 'claimHandoff', handoffId: id, agent: 'codex' }).ok, true);
  gitOk(repo, 'add', '-A');
  gitOk(repo, 'commit', '-q', '-m', 'agentsync, a claim');
  const linked = path.join(tempWorkspace('hook-index-linked'), 'agent-claude');
  gitOk(repo, 'worktree', 'add', '-q', '-b', 'claude-work', linked);
  return { repo, linked, layout: new WorkspaceLayout(linked) };
}

/** The store rewritten by hand, as AgentSync lays it out, with `edit` applied to every record. */
function editStore(layout: WorkspaceLayout, edit: (h: Record<string, unknown>) => void): void {
  const store = JSON.parse(fs.readFileSync(layout.handoffsFile, 'utf8')) as { handoffs: Record<string, unknown>[] };
  store.handoffs.forEach(edit);
  fs.writeFileSync(layout.handoffsFile, JSON.stringify(store, null, 2) + '\n');
}

describe("the tool hooks' index (process, a linked git worktree)", function () {
  this.timeout(120_000);

  it('every write leaves the live claims in the home, naming the store file as it is now', () => {
    const { layout } = clone();
    const index = fs.readFileSync(layout.hookIndexFile);
    assert.equal(derivedFrom(index)?.stat, fileStatKeyOf(layout.handoffsFile));
    const claims = (JSON.parse(index.toString('utf8')) as { handoffs: { claimed_by: string; files: string[] }[] }).handoffs;
    assert.deepEqual(
      claims.map((h) => [h.claimed_by, h.files]),
      [['codex', ['src/app.ts']]],
    );
  });

  it('a hook answers from the index while it names the store as it is: the store is not read', () => {
    const { linked, layout } = clone();
    assert.match(preTool(linked, path.join(linked, 'src/app.ts')), /src\/app\.ts: claimed by codex/);
    // An index that says more than the store, still naming the store's stat: only a hook that reads the index says it.
    const index = fs.readFileSync(layout.hookIndexFile, 'utf8');
    fs.writeFileSync(layout.hookIndexFile, index.replace('"src/app.ts"', '"src/only-in-index.ts"'));
    assert.match(preTool(linked, path.join(linked, 'src/only-in-index.ts')), /src\/only-in-index\.ts: claimed by codex/);
    assert.equal(preTool(linked, path.join(linked, 'src/app.ts')).trim(), '');
  });

  it('a store changed behind the index is read instead: the radar warns of what the store says', () => {
    const { linked, layout } = clone();
    const before = fs.readFileSync(layout.hookIndexFile);
    editStore(layout, (h) => (h.files = ['src/moved.ts']));
    assert.ok(fs.readFileSync(layout.hookIndexFile).equals(before), 'the index is as the last write left it');
    assert.match(preTool(linked, path.join(linked, 'src/moved.ts')), /src\/moved\.ts: claimed by codex/);
    assert.equal(preTool(linked, path.join(linked, 'src/app.ts')).trim(), '', 'the stale index is not believed');
    // The next write brings the index up to date.
    const created = request(linked, {
      action: 'createHandoff',
      handoff: { from_agent: 'human', to_agents: ['codex'], owner_mode: 'single', summary: 'More' },
    });
    assert.equal(created.ok, true);
    assert.equal(derivedFrom(fs.readFileSync(layout.hookIndexFile))?.stat, fileStatKeyOf(layout.handoffsFile));
    assert.match(fs.readFileSync(layout.hookIndexFile, 'utf8'), /src\/moved\.ts/);
  });

  it('a batch that changes nothing brings a stale index up to date, so hooks stop reading the whole store', () => {
    const { linked, layout } = clone();
    editStore(layout, (h) => (h.files = ['src/moved.ts']));
    assert.notEqual(derivedFrom(fs.readFileSync(layout.hookIndexFile))?.stat, fileStatKeyOf(layout.handoffsFile));
    // A store written behind the index (seeded, joined, or a shared state adopted unchanged), then a refused claim.
    const id = (JSON.parse(fs.readFileSync(layout.handoffsFile, 'utf8')) as { handoffs: { handoff_id: string }[] }).handoffs[0].handoff_id;
    assert.equal(request(linked, { action: 'claimHandoff', handoffId: id, agent: 'gemini' }).ok, false);
    assert.equal(derivedFrom(fs.readFileSync(layout.hookIndexFile))?.stat, fileStatKeyOf(layout.handoffsFile));
    assert.match(fs.readFileSync(layout.hookIndexFile, 'utf8'), /src\/moved\.ts/);
    assert.match(preTool(linked, path.join(linked, 'src/moved.ts')), /src\/moved\.ts: claimed by codex/);
  });

  it('under "radar": "deny", a claim released behind the index denies nothing, and one taken behind it is denied', () => {
    const { linked, layout } = clone({ radar: 'deny' });
    assert.match(preTool(linked, path.join(linked, 'src/app.ts')), /"permissionDecision":"deny"/);
    editStore(layout, (h) => {
      h.status = 'queued';
      delete h.claimed_by;
    });
    assert.equal(preTool(linked, path.join(linked, 'src/app.ts')).trim(), '', 'released in the store: no denial');
    editStore(layout, (h) => {
      Object.assign(h, { status: 'in_progress', claimed_by: 'gemini', files: ['src/b.ts'] });
      h.lease_expires_at = new Date(Date.now() + 30 * 60_000).toISOString();
    });
    const out = preTool(linked, path.join(linked, 'src/b.ts'));
    assert.match(out, /"permissionDecision":"deny"/);
    assert.match(out, /src\/b\.ts: claimed by gemini/);
  });
});
