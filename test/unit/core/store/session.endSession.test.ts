// Sessions in a REAL git repository (docs/contract.md §10): hot files (unstaged, staged, untracked) relative to the
// workspace folder even when it is a subfolder of the repository; requireHandoffOnEndSession on and off; another
// agent's In Progress line survives; sessions from claimed handoffs; replays; status and staleness.
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { HandoffStore } from '../../../../src/core/store/handoffStore';
import { RequestDispatcher, type RequestResponse } from '../../../../src/core/requests/requestDispatcher';
import { parsePorcelainZ } from '../../../../src/core/git/gitStatus';
import { initWorkspace } from '../../../../src/core/workspace/workspaceInit';
import { storeSeed } from '../../../../src/core/store/storeReader';
import { WorkspaceLayout } from '../../../../src/core/workspace/workspaceLayout';
import type { Handoff } from '../../../../src/core/domain/handoffSchema';
import { makeTempDir, removeTempDirs, TestClock } from '../../helpers/testWorkspace';
import { trustWorkspace, useTempTrustFile } from '../../helpers/commandTrust';

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8' });
}

/** A git repository with one commit; `sub` (if given) is the AgentSync workspace inside it. */
class RepoWorkspace {
  readonly repo: string;
  readonly root: string;
  readonly layout: WorkspaceLayout;
  readonly clock = new TestClock();
  readonly dispatcher: RequestDispatcher;

  constructor(options: { sub?: string; config?: Record<string, unknown> } = {}) {
    this.repo = makeTempDir('agentsync-git-');
    git(this.repo, 'init', '-q', '-b', 'main');
    git(this.repo, 'config', 'user.email', 'test@example.com');
    git(this.repo, 'config', 'user.name', 'AgentSync Test');
    git(this.repo, 'config', 'commit.gpgsign', 'false');
    this.root = options.sub ? path.join(this.repo, options.sub) : this.repo;
    fs.mkdirSync(this.root, { recursive: true });
    initWorkspace(this.root, storeSeed(this.root));
    const config = {
      ...(JSON.parse(fs.readFileSync(path.join(this.root, '.agentsync.json'), 'utf8')) as Record<string, unknown>),
      ...options.config,
    };
    fs.writeFileSync(path.join(this.root, '.agentsync.json'), JSON.stringify(config, null, 2));
    this.write('src/app.ts', 'export const a = 1;\n');
    this.write('src/old-name.ts', 'old\n');
    fs.writeFileSync(path.join(this.repo, 'outside.txt'), 'outside the workspace\n');
    git(this.repo, 'add', '-A');
    git(this.repo, 'commit', '-q', '-m', 'initial');
    this.layout = new WorkspaceLayout(this.root);
    this.dispatcher = new RequestDispatcher(new HandoffStore(this.layout, { now: this.clock.now }), 'test');
  }

  write(rel: string, text: string): void {
    fs.mkdirSync(path.dirname(path.join(this.root, rel)), { recursive: true });
    fs.writeFileSync(path.join(this.root, rel), text);
  }

  /** Unstaged, staged, untracked, and a staged rename. */
  makeChanges(): string[] {
    this.write('src/app.ts', 'export const a = 2;\n'); // unstaged
    this.write('src/staged.ts', 'new\n');
    git(this.root, 'add', 'src/staged.ts'); // staged
    this.write('docs/deep/untracked file.md', 'draft\n'); // untracked, nested, with a space
    git(this.root, 'mv', 'src/old-name.ts', 'src/new-name.ts'); // staged rename
    return ['docs/deep/untracked file.md', 'src/app.ts', 'src/new-name.ts', 'src/staged.ts'];
  }

  send(request: Record<string, unknown>): Promise<RequestResponse> {
    return this.dispatcher.dispatch(request);
  }

  tracker(): string {
    return fs.readFileSync(this.layout.trackerFile, 'utf8');
  }

  state(): Record<string, unknown> {
    return JSON.parse(fs.readFileSync(this.layout.stateFile, 'utf8')) as Record<string, unknown>;
  }

  handoffs(): Handoff[] {
    return (JSON.parse(fs.readFileSync(this.layout.handoffsFile, 'utf8')) as { handoffs: Handoff[] }).handoffs;
  }

  bytes(): Record<string, string | null> {
    const read = (f: string) => (fs.existsSync(f) ? fs.readFileSync(f, 'utf8') : null);
    return { store: read(this.layout.handoffsFile), tracker: read(this.layout.trackerFile), state: read(this.layout.stateFile) };
  }
}

const ok = (r: RequestResponse): RequestResponse => {
  assert.equal(r.ok, true, `${r.reason}: ${r.message}`);
  return r;
};

const handoffBody = {
  owner_mode: 'single',
  to_agents: ['copilot'],
  summary: 'Review the login fix',
  notes: 'Check the token refresh path.',
};

describe('sessions in a real git repository', function () {
  this.timeout(20_000);
  after(removeTempDirs);
  useTempTrustFile();

  it("a repository's core.fsmonitor program does not run when AgentSync reads git (endSession)", async () => {
    const ws = new RepoWorkspace();
    const marker = path.join(ws.repo, 'fsmonitor-ran');
    const hook = path.join(ws.repo, '.git', 'evil-fsmonitor.sh');
    fs.writeFileSync(hook, `#!/bin/sh\necho ran >> '${marker}'\nexit 1\n`, { mode: 0o755 });
    git(ws.repo, 'config', 'core.fsmonitor', hook);
    ws.makeChanges();
    git(ws.repo, 'status', '--porcelain');
    assert.equal(fs.existsSync(marker), true, 'control: plain git status runs the configured fsmonitor program');
    fs.rmSync(marker);
    const r = ok(await ws.send({ action: 'endSession', agent: 'claude', summary: 'done' }));
    assert.ok((r.data!.hotFiles as string[]).length > 0, 'git was read');
    assert.equal(fs.existsSync(marker), false, 'AgentSync ran git with core.fsmonitor=false');
  });

  it("a repository's filter and diff programs do not run when AgentSync reads git (endSession), a user's own filter still does", async () => {
    const ws = new RepoWorkspace();
    const marks = makeTempDir('agentsync-marks-'); // outside the repository: a marker is no hot file
    const ran = (name: string) => path.join(marks, `${name}-ran`);
    const script = path.join(marks, 'record-and-cat.sh');
    fs.writeFileSync(script, '#!/bin/sh\necho ran >> "$1"\ncat\n', { mode: 0o755 });
    const program = (name: string) => `${script} ${ran(name)}`;
    const attributes = ['a.ts filter=x diff=t', 'b.ts filter=p', 'c.ts filter=included', 'd.ts filter=mine'];
    fs.writeFileSync(path.join(ws.root, '.gitattributes'), `${attributes.join('\n')}\n`);
    for (const f of ['a.ts', 'b.ts', 'c.ts', 'd.ts']) ws.write(f, `${f}\n`);
    git(ws.repo, 'add', '-A');
    git(ws.repo, 'commit', '-q', '-m', 'attributes');
    fs.writeFileSync(path.join(ws.repo, 'local.cfg'), `[filter "included"]\n\tclean = ${program('included')}\n`);
    git(ws.repo, 'add', 'local.cfg');
    git(ws.repo, 'commit', '-q', '-m', 'a config file');
    git(ws.repo, 'config', 'include.path', '../local.cfg'); // a committed file the repository's config includes
    git(ws.repo, 'config', 'filter.x.clean', program('clean'));
    git(ws.repo, 'config', 'filter.x.required', 'true');
    git(ws.repo, 'config', 'filter.p.process', program('process'));
    git(ws.repo, 'config', 'diff.t.textconv', program('textconv'));
    git(ws.repo, 'config', 'diff.t.command', program('command'));
    git(ws.repo, 'config', 'diff.external', program('external'));
    const userConfig = path.join(marks, 'user.gitconfig');
    fs.writeFileSync(userConfig, `[filter "mine"]\n\tclean = ${program('user')}\n`);
    const previous = process.env.GIT_CONFIG_GLOBAL;
    process.env.GIT_CONFIG_GLOBAL = userConfig;
    try {
      const touch = () => {
        const later = new Date(Date.now() + 5_000);
        for (const f of ['a.ts', 'b.ts', 'c.ts', 'd.ts']) fs.utimesSync(path.join(ws.root, f), later, later); // stat changed: git compares contents
      };
      touch();
      const quiet = { cwd: ws.repo, stdio: ['ignore', 'pipe', 'pipe'] as ('ignore' | 'pipe')[] };
      execFileSync('git', ['status', '--porcelain'], quiet);
      execFileSync('git', ['diff', 'HEAD~2'], quiet); // diff.t.command for a.ts, diff.external for the others
      execFileSync('git', ['diff', '--no-ext-diff', 'HEAD~2', '--', 'a.ts'], quiet); // textconv
      for (const f of ['clean', 'process', 'included', 'textconv', 'command', 'external', 'user']) {
        assert.equal(fs.existsSync(ran(f)), true, `control: plain git runs ${f}`);
        fs.rmSync(ran(f));
      }
      touch();
      ws.write('src/app.ts', 'export const a = 2;\n');
      const r = ok(await ws.send({ action: 'endSession', agent: 'claude', summary: 'done' }));
      assert.deepEqual(r.data!.hotFiles, ['src/app.ts'], 'git was read; touched files with unchanged contents are not hot');
      for (const f of ['clean', 'process', 'included', 'textconv', 'command', 'external'])
        assert.equal(fs.existsSync(ran(f)), false, `${f} must not run`);
      assert.equal(fs.existsSync(ran('user')), true, "the user's own (global) filter is the user's consent and still runs");
    } finally {
      if (previous === undefined) delete process.env.GIT_CONFIG_GLOBAL;
      else process.env.GIT_CONFIG_GLOBAL = previous;
    }
  });

  it("a submodule's own filter does not run when AgentSync reads git (endSession)", async () => {
    const ws = new RepoWorkspace();
    const inner = makeTempDir('agentsync-sub-');
    git(inner, 'init', '-q', '-b', 'main');
    fs.writeFileSync(path.join(inner, 'b.txt'), 'b\n');
    git(inner, 'add', '-A');
    git(inner, '-c', 'user.email=t@example.com', '-c', 'user.name=T', '-c', 'commit.gpgsign=false', 'commit', '-q', '-m', 'inner');
    git(ws.repo, '-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', inner, 'sub');
    git(ws.repo, 'commit', '-q', '-m', 'submodule');
    const marker = path.join(ws.repo, 'sub-filter-ran');
    const sub = path.join(ws.repo, 'sub');
    fs.writeFileSync(path.join(sub, '.gitattributes'), 'b.txt filter=z\n');
    git(sub, 'config', 'filter.z.clean', `sh -c 'echo ran >> "${marker}"; cat'`);
    const later = new Date(Date.now() + 5_000);
    fs.utimesSync(path.join(sub, 'b.txt'), later, later);
    git(ws.repo, 'status', '--porcelain');
    assert.equal(fs.existsSync(marker), true, "control: plain git status runs the submodule's filter");
    fs.rmSync(marker);
    fs.utimesSync(path.join(sub, 'b.txt'), later, new Date(Date.now() + 10_000));
    ok(await ws.send({ action: 'endSession', agent: 'claude', summary: 'done' }));
    assert.equal(fs.existsSync(marker), false, "the submodule's filter must not run");
  });

  it('untrusted commands: endSession still ends the session, runs nothing, marks each check Skipped and says commands_untrusted', async () => {
    const mark = (name: string) => ['node', '-e', `require('fs').writeFileSync(${JSON.stringify(name)}, 'ran')`];
    const ws = new RepoWorkspace({
      config: { commands: { build: mark('build-ran'), test: mark('test-ran'), deploy: mark('deploy-ran') } },
    });
    const r = ok(await ws.send({ action: 'endSession', agent: 'claude', summary: 'done' }));
    assert.deepEqual(r.data!.health, { Build: 'Skipped', Tests: 'Skipped', Deploy: 'Skipped' });
    assert.equal((r.data!.commandsUntrusted as { reason: string }).reason, 'commands_untrusted');
    assert.match((r.data!.commandsUntrusted as { message: string }).message, /agentsync trust/);
    for (const f of ['build-ran', 'test-ran', 'deploy-ran']) assert.equal(fs.existsSync(path.join(ws.root, f)), false, `${f}: nothing ran`);
    assert.equal(ws.state().sessionActive, false, 'the session was ended');
    trustWorkspace(ws.root);
    const trusted = ok(await ws.send({ action: 'endSession', agent: 'claude', summary: 'done again' }));
    assert.deepEqual(
      trusted.data!.health,
      { Build: 'Pass', Tests: 'Pass', Deploy: 'Pass' },
      'after trust, endSession runs all three (deploy included)',
    );
    assert.equal(trusted.data!.commandsUntrusted, undefined);
  });

  it("hot files: unstaged, staged, untracked and a rename, relative to the workspace; AgentSync's own files are not counted", async () => {
    const ws = new RepoWorkspace();
    ok(await ws.send({ action: 'startSession', agent: 'Claude', goal: 'fix login' })); // writes AgentTracker.md
    const expected = ws.makeChanges();
    const r = ok(await ws.send({ action: 'endSession', agent: 'claude', summary: 'Fixed login' }));
    assert.deepEqual([...(r.data!.hotFiles as string[])].sort(), expected);
    assert.equal(r.data!.branch, 'main');
    assert.match(r.data!.commit as string, /^[0-9a-f]{7,}$/);
    assert.deepEqual([...(ws.state().hotFiles as string[])].sort(), expected);
    for (const f of expected) assert.ok(ws.tracker().includes(`- \`${f}\``), f);
    assert.ok(!ws.tracker().includes('old-name'), 'a rename counts once, under its new name');
  });

  it('hot files of a workspace in a subfolder of the repository are relative to that subfolder, and only its own', async () => {
    const ws = new RepoWorkspace({ sub: 'packages/app' });
    assert.equal(git(ws.root, 'rev-parse', '--show-prefix').trim(), 'packages/app/');
    const expected = ws.makeChanges();
    fs.writeFileSync(path.join(ws.repo, 'outside.txt'), 'changed outside\n');
    fs.mkdirSync(path.join(ws.repo, 'packages/other'), { recursive: true });
    fs.writeFileSync(path.join(ws.repo, 'packages/other/x.ts'), 'x\n');
    const r = ok(await ws.send({ action: 'endSession', agent: 'codex', summary: 'sub' }));
    assert.deepEqual([...(r.data!.hotFiles as string[])].sort(), expected);
  });

  it('parses porcelain -z output: rename sources skipped, prefix stripped, other folders and AgentSync files left out', () => {
    const out = [
      'R  pkg/new.ts',
      'pkg/old.ts',
      ' M pkg/a.ts',
      '?? pkg/.agentsync/state.json',
      ' M pkg/AgentTracker.md',
      '?? other/b.ts',
      'A  pkg/.agentsync.json',
      '',
    ].join('\0');
    assert.deepEqual(parsePorcelainZ(out, 'pkg/'), ['new.ts', 'a.ts', '.agentsync.json']);
  });

  it('a misspelled requireHandoffOnEndSession counts as on in endSession, and the answer names the key', async () => {
    const ws = new RepoWorkspace({ config: { requireHandoffOnEndsession: true } });
    ok(await ws.send({ action: 'startSession', agent: 'claude', goal: 'fix login' }));
    ws.makeChanges();
    const before = ws.bytes();
    const r = await ws.send({ action: 'endSession', agent: 'claude', summary: 'done' });
    assert.equal(r.reason, 'handoff_required', JSON.stringify(r));
    assert.match(r.message!, /"requireHandoffOnEndsession" \(did you mean "requireHandoffOnEndSession"\?\)/);
    assert.deepEqual(ws.bytes(), before, 'nothing changed');
  });

  it('requireHandoffOnEndSession with hot files and neither handoff nor reason: handoff_required, nothing changed', async () => {
    const ws = new RepoWorkspace({ config: { requireHandoffOnEndSession: true } });
    ok(await ws.send({ action: 'startSession', agent: 'claude', goal: 'fix login' }));
    ws.makeChanges();
    const before = ws.bytes();
    const r = await ws.send({ action: 'endSession', agent: 'claude', summary: 'done' });
    assert.equal(r.ok, false);
    assert.equal(r.reason, 'handoff_required');
    assert.match(r.message!, /4 file\(s\) changed .*"handoff".*"no_handoff_reason"/);
    assert.equal(r.hotFileCount, 4);
    assert.deepEqual(ws.bytes(), before, 'store, tracker and state.json unchanged');
    assert.equal(ws.state().sessionActive, true, 'the session is still active');

    const noNotes = await ws.send({ action: 'endSession', agent: 'claude', summary: 'done', handoff: { ...handoffBody, notes: ' ' } });
    assert.deepEqual(
      { ok: noNotes.ok, reason: noNotes.reason, field: noNotes.field },
      { ok: false, reason: 'invalid_request', field: 'handoff.notes' },
    );
    const badTarget = await ws.send({
      action: 'endSession',
      agent: 'claude',
      summary: 'done',
      handoff: { ...handoffBody, to_agents: ['claude', 'copilot'] },
    });
    assert.equal(
      badTarget.reason,
      'invalid_request',
      "an invalid handoff (single with two owners) is refused by createHandoff's own rules",
    );
    assert.deepEqual(ws.bytes(), before);
  });

  it('a refused end runs none of the configured commands (deploy included): refused means nothing happened', async () => {
    const marker = (name: string) => ['node', '-e', `require('fs').writeFileSync(${JSON.stringify(name)}, 'ran')`];
    const ws = new RepoWorkspace({
      config: { requireHandoffOnEndSession: true, commands: { build: marker('build-ran'), deploy: marker('deploy-ran') } },
    });
    trustWorkspace(ws.root);
    ws.makeChanges();
    const r = await ws.send({ action: 'endSession', agent: 'claude', summary: 'done' });
    assert.equal(r.reason, 'handoff_required');
    assert.equal(fs.existsSync(path.join(ws.root, 'build-ran')), false);
    assert.equal(fs.existsSync(path.join(ws.root, 'deploy-ran')), false);
    ok(await ws.send({ action: 'endSession', agent: 'claude', summary: 'done', no_handoff_reason: 'docs only' }));
    assert.equal(fs.existsSync(path.join(ws.root, 'build-ran')), true, 'an accepted end runs them');
  });

  it('requireHandoffOnEndSession: a valid handoff is created through createHandoff, with the hot files, branch and commit', async () => {
    const ws = new RepoWorkspace({ config: { requireHandoffOnEndSession: true } });
    ok(await ws.send({ action: 'startSession', agent: 'claude', goal: 'fix login' }));
    const hot = ws.makeChanges();
    const r = ok(
      await ws.send({ action: 'endSession', agent: 'claude', summary: 'Fixed login', nextWork: 'Run the e2e suite', handoff: handoffBody }),
    );
    const h = r.data!.handoff as Handoff;
    assert.deepEqual(
      { from: h.from_agent, to: h.to_agents, status: h.status, files: [...h.files].sort(), branch: h.branch },
      { from: 'claude', to: ['copilot'], status: 'queued', files: hot, branch: 'main' },
    );
    assert.equal(h.commit, r.data!.commit);
    assert.deepEqual(
      ws.handoffs().map((x) => x.uid),
      [h.uid],
    );
    assert.equal(h.state_history[0].request_id, r.request_id, "createHandoff's marker: a replay after a crash answers from it");
    const tracker = ws.tracker();
    assert.ok(tracker.includes(`- [ ] ${h.handoff_id} | from: Claude | to: Copilot | mode: single | status: queued`));
    assert.ok(tracker.includes('- **Summary:** Fixed login'));
    assert.ok(tracker.includes('- Run the e2e suite'));
    const state = ws.state();
    assert.equal(state.sessionActive, false);
    assert.equal(state.openHandoffCount, 1, 'handoff fields of state.json kept');
    assert.deepEqual(state.activeHandoffIds, [h.handoff_id]);
    assert.equal((state.lastSession as { handoffId: string }).handoffId, h.handoff_id);
  });

  it("requireHandoffOnEndSession: a no_handoff_reason is accepted and recorded in a record's no_handoff_reason", async () => {
    const ws = new RepoWorkspace({ config: { requireHandoffOnEndSession: true } });
    const hot = ws.makeChanges();
    const r = ok(
      await ws.send({
        action: 'endSession',
        agent: 'codex',
        summary: 'Spike, thrown away',
        no_handoff_reason: 'exploratory spike, nothing to hand over',
      }),
    );
    const [rec] = ws.handoffs();
    assert.equal(rec.no_handoff_reason, 'exploratory spike, nothing to hand over');
    assert.deepEqual([...rec.files].sort(), hot);
    assert.equal((r.data!.handoff as Handoff).handoff_id, rec.handoff_id);
    assert.ok(ws.tracker().includes('  - skipped: exploratory spike, nothing to hand over'));
  });

  it('requireHandoffOnEndSession: a handoff carrying its own no_handoff_reason needs no note; one holding only the reason is refused', async () => {
    const ws = new RepoWorkspace({ config: { requireHandoffOnEndSession: true } });
    ws.makeChanges();
    ok(await ws.send({ action: 'listHandoffs' })); // the first request rebuilds the derived files (docs/contract.md §2)
    const before = ws.bytes();
    const bare = await ws.send({ action: 'endSession', agent: 'codex', summary: 'done', handoff: { no_handoff_reason: 'docs only' } });
    assert.deepEqual([bare.ok, bare.reason], [false, 'invalid_request']);
    assert.deepEqual(ws.bytes(), before, 'nothing written');
    const { notes: _notes, ...noNotes } = handoffBody;
    const r = ok(
      await ws.send({ action: 'endSession', agent: 'codex', summary: 'done', handoff: { ...noNotes, no_handoff_reason: 'docs only' } }),
    );
    assert.equal((r.data!.handoff as Handoff).no_handoff_reason, 'docs only');
  });

  it('requireHandoffOnEndSession with no hot files, and the flag off with hot files: the session ends without a handoff', async () => {
    const clean = new RepoWorkspace({ config: { requireHandoffOnEndSession: true } });
    const a = ok(await clean.send({ action: 'endSession', agent: 'codex', summary: 'read only' }));
    assert.deepEqual(a.data!.hotFiles, []);
    assert.ok(clean.tracker().includes('## Hot Files\n\n*None*\n'));

    const off = new RepoWorkspace({ config: { requireHandoffOnEndSession: false } });
    off.makeChanges();
    const b = ok(await off.send({ action: 'endSession', agent: 'codex', summary: 'changed things' }));
    assert.equal(b.data!.handoff, null);
    assert.equal((b.data!.hotFiles as string[]).length, 4);
    assert.deepEqual((JSON.parse(fs.readFileSync(off.layout.handoffsFile, 'utf8')) as { handoffs: unknown[] }).handoffs, []);
  });

  it("ending a session removes only that agent's In Progress line; another agent's line (naming it) survives byte for byte", async () => {
    const ws = new RepoWorkspace();
    const human =
      '# Agent Tracker\n\nHuman preface, kept.\n\n## In Progress\n\n- [ ] Claude-Code (manual): pairing with Claude\n\n## Notes\n\nOur ' +
      'notes.\n\n## Agent Handoffs\n\n_No handoffs yet._\n';
    fs.writeFileSync(ws.layout.trackerFile, human);
    ok(await ws.send({ action: 'startSession', agent: 'claude', goal: 'fix login' }));
    ok(await ws.send({ action: 'startSession', agent: 'copilot', goal: 'review what Claude did' }));
    const copilotLine = ws
      .tracker()
      .split('\n')
      .find((l) => l.startsWith('- [ ] Copilot ('))!;
    assert.equal(copilotLine, `- [ ] Copilot (${ws.clock.iso()}): review what Claude did`);
    assert.deepEqual(Object.keys(ws.state().activeSessions as object).sort(), ['claude', 'copilot']);

    ok(await ws.send({ action: 'endSession', agent: 'claude', summary: 'done' }));
    const t = ws.tracker();
    const inProgress = t.slice(t.indexOf('## In Progress'), t.indexOf('## Notes'));
    assert.equal(inProgress, `## In Progress\n\n- [ ] Claude-Code (manual): pairing with Claude\n${copilotLine}\n\n`);
    assert.ok(t.startsWith('# Agent Tracker\n\nHuman preface, kept.\n\n'));
    assert.ok(t.includes('## Notes\n\nOur notes.\n\n'));
    const state = ws.state();
    assert.equal(state.sessionActive, true);
    assert.equal((state.activeSession as { agent: string }).agent, 'copilot');
    assert.deepEqual(Object.keys(state.activeSessions as object), ['copilot']);
    for (const h of ['## Last Session', '## Current Health', '## Hot Files', '## In Progress', '## Notes', '## Agent Handoffs']) {
      assert.equal(t.split('\n').filter((l) => l === h).length, 1, `${h} once`);
    }
  });

  it('health checks from commands.* run at End Session and fill Current Health (without a shell)', async () => {
    const node = process.execPath;
    const ws = new RepoWorkspace({
      config: {
        commands: { build: [node, '-e', 'process.exit(0)'], test: `"${node}" -e "console.log('1 failing'); process.exitCode = 1"` },
      },
    });
    trustWorkspace(ws.root);
    const r = ok(await ws.send({ action: 'endSession', agent: 'codex', summary: 'checked' }));
    assert.deepEqual(r.data!.health, { Build: 'Pass', Tests: 'Fail', Deploy: 'Not configured' });
    const t = ws.tracker();
    assert.ok(t.includes('| Build  | Pass |\n| Tests  | Fail |\n| Deploy | Not configured |\n\n**Tests output:**\n```\n1 failing\n```\n'));
    assert.deepEqual((ws.state().health as Record<string, { status: string }>).Tests.status, 'Fail');
  });

  it('a session from a claimed handoff records its uid; from one not claimed by the agent it is refused', async () => {
    const ws = new RepoWorkspace();
    const created = ok(
      await ws.send({
        action: 'createHandoff',
        handoff: { from_agent: 'codex', owner_mode: 'single', to_agents: ['claude'], summary: 'Fix the login' },
      }),
    );
    const h = created.data!.handoff as Handoff;
    const refused = await ws.send({ action: 'startSession', agent: 'claude', handoffId: h.handoff_id });
    assert.deepEqual({ ok: refused.ok, reason: refused.reason }, { ok: false, reason: 'not_claimed' });
    assert.match(refused.message!, /Claim it first/);
    ok(await ws.send({ action: 'claimHandoff', handoffId: h.handoff_id, agent: 'claude' }));
    const r = ok(await ws.send({ action: 'startSession', agent: 'claude', handoffId: h.handoff_id }));
    const session = r.data!.session as { id: string; handoffUid: string; goal: string };
    assert.match(session.id, /^[0-9A-HJKMNP-TV-Z]{26}$/);
    assert.equal(session.handoffUid, h.uid);
    assert.equal(session.goal, 'Fix the login', 'the goal defaults to the handoff summary');
    assert.equal((ws.state().activeSession as { handoffUid: string }).handoffUid, h.uid);
  });

  it('the same endSession request_id twice: answered again, ended once (one record, one Suggested Next line)', async () => {
    const ws = new RepoWorkspace();
    ws.makeChanges();
    const req = {
      action: 'endSession',
      request_id: 'end-1',
      agent: 'codex',
      summary: 's',
      nextWork: 'only once',
      no_handoff_reason: 'spike',
    };
    const first = ok(await ws.send(req));
    const again = ok(await ws.send(req));
    assert.deepEqual(again.data, first.data);
    assert.equal(ws.handoffs().length, 1);
    assert.equal(
      ws
        .tracker()
        .split('\n')
        .filter((l) => l === '- only once').length,
      1,
    );
  });

  it('a replayed startSession/endSession whose ledger entry was lost (killed before it was written) is recognised from state.json', async () => {
    const ws = new RepoWorkspace();
    const start = { action: 'startSession', request_id: 'start-1', agent: 'codex', goal: 'g' };
    const end = { action: 'endSession', request_id: 'end-2', agent: 'codex', summary: 's', nextWork: 'next, once' };
    ok(await ws.send(start));
    fs.rmSync(ws.layout.ledgerFile, { force: true });
    const again = ok(await ws.send(start));
    assert.equal(again.data!.replayed, true);
    ok(await ws.send(end));
    fs.rmSync(ws.layout.ledgerFile, { force: true });
    const endAgain = ok(await ws.send(end));
    assert.equal(endAgain.data!.replayed, true);
    assert.equal(
      ws
        .tracker()
        .split('\n')
        .filter((l) => l === '- next, once').length,
      1,
    );
    assert.equal(ws.state().sessionActive, false);
  });

  it('status: sessions, last session, counts; staleAfterHours 0 means never stale', async () => {
    for (const [hours, expectStale] of [
      [24, true],
      [0, false],
    ] as const) {
      const ws = new RepoWorkspace({ config: { staleAfterHours: hours } });
      ok(
        await ws.send({
          action: 'createHandoff',
          handoff: { from_agent: 'codex', owner_mode: 'single', to_agents: ['claude'], summary: 'old work' },
        }),
      );
      ok(await ws.send({ action: 'endSession', agent: 'codex', summary: 'ended' }));
      ok(await ws.send({ action: 'startSession', agent: 'claude', goal: 'g' }));
      ws.clock.advance(72 * 3_600_000);
      const r = ok(await ws.send({ action: 'status', agent: 'claude' }));
      const d = r.data!;
      assert.equal(d.sessionActive, true);
      assert.equal((d.activeSession as { agent: string }).agent, 'claude');
      assert.equal((d.lastSession as { summary: string }).summary, 'ended');
      assert.equal(d.openHandoffCount, 1);
      assert.equal(d.assignedOpenCount, 1);
      assert.deepEqual((d.tracker as { summary: string }).summary, 'ended');
      assert.equal((d.staleHandoffIds as string[]).length, expectStale ? 1 : 0, `staleAfterHours ${hours}`);
      assert.equal(
        (d.warnings as string[]).some((w) => w.startsWith('Tracker is stale')),
        expectStale,
      );
    }
  });
});
