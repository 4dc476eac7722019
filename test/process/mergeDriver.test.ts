// The merge driver with real git (docs/contract.md §8): `agentsync init --git` registers it, and a merge of two branches
// that both created handoffs and both claimed the same one goes through without conflict markers.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { handoffsFileSchema, type Handoff } from '../../src/core/domain/handoffSchema';
import { findSection, HANDOFFS_HEADING, renderHandoffsSection } from '../../src/core/domain/trackerRenderer';
import { CLI, asAnotherClone, checkoutAsAnotherClone, git, gitOk, GIT_ENV, runCliSync, tempWorkspace } from './processHarness';

function cli(dir: string, ...args: string[]): Record<string, unknown> {
  return JSON.parse(runCliSync(['--dir', dir, '--json', ...args])) as Record<string, unknown>;
}

function createHandoff(dir: string, summary: string): string {
  return (cli(dir, 'create', '--from', 'copilot', '--to', 'claude,codex', '--summary', summary).data as { handoff: Handoff }).handoff
    .handoff_id;
}

/** Commits the committed AgentSync files (AgentTracker.md and the audit log stay untracked: this test is about handoffs.json). */
function commit(dir: string, message: string): void {
  gitOk(dir, 'add', '.agentsync.json', '.gitignore', '.gitattributes', '.agentsync/handoffs.json');
  gitOk(dir, 'commit', '-q', '-m', message);
}

const ATTRS =
  '.agentsync/handoffs.json merge=agentsync\nAgentTracker.md merge=agentsync-tracker\n.agentsync/audit/*.jsonl merge=union\n' +
  '.agentsync/archive/*.jsonl merge=union\ndecisions.md merge=union\n';

/** Commits everything AgentSync leaves for git (its .gitignore keeps the runtime files out). */
function commitAll(dir: string, message: string): void {
  gitOk(dir, 'add', '-A');
  gitOk(dir, 'commit', '-q', '-m', message);
}

const spin = (ms: number) => {
  const until = Date.now() + ms;
  while (Date.now() < until); // the later side's timestamps must be strictly later
};

const readStore = (dir: string) => fs.readFileSync(path.join(dir, '.agentsync/handoffs.json'), 'utf8');

describe('agentsync merge-driver with git', function () {
  this.timeout(120_000);
  let dirs: string[] = [];
  const track = (dir: string) => (dirs.push(dir), dir);
  afterEach(function () {
    // Kept for inspection when a test fails.
    if (this.currentTest?.state === 'passed') for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
    dirs = [];
  });
  before(() =>
    assert.ok(fs.existsSync(path.join(path.dirname(CLI), '../dist/cli.js')), 'run `node esbuild.mjs` first: the test runs the bundled CLI'),
  );

  it('init --git registers the driver and the .gitattributes line, once', () => {
    const dir = track(tempWorkspace('mergedrv-init'));
    gitOk(dir, 'init', '-q');
    const first = cli(dir, 'init', '--git').data as { git: { gitattributes: string } };
    assert.equal(first.git.gitattributes, 'created');
    assert.equal(gitOk(dir, 'config', 'merge.agentsync.name').trim(), 'AgentSync handoffs merge');
    // Not on PATH: a shim in .git that finds the CLI at merge time (an upgrade moves it), never this install's path.
    const shim = path.join(fs.realpathSync(dir), '.git', 'agentsync', 'cli.cjs');
    assert.equal(gitOk(dir, 'config', 'merge.agentsync.driver').trim(), `node ${shim} merge-driver %O %A %B %P`);
    assert.equal(gitOk(dir, 'config', 'merge.agentsync-tracker.driver').trim(), `node ${shim} merge-tracker %O %A %B %P`);
    assert.match(fs.readFileSync(shim, 'utf8'), new RegExp(JSON.stringify(CLI).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
    assert.equal((cli(dir, 'init', '--git').data as { git: { gitattributes: string } }).git.gitattributes, 'unchanged');
    assert.equal(fs.readFileSync(path.join(dir, '.gitattributes'), 'utf8'), ATTRS);
    assert.match(gitOk(dir, 'check-attr', 'merge', 'AgentTracker.md'), /merge: agentsync-tracker/);
    assert.match(gitOk(dir, 'check-attr', 'merge', 'decisions.md'), /merge: union/);
    assert.match(gitOk(dir, 'check-attr', 'merge', '.agentsync/archive/2026-01.jsonl'), /merge: union/);
    assert.match(gitOk(dir, 'check-attr', 'merge', '.agentsync/handoffs.json'), /merge: agentsync/);
  });

  it('init --git appends to an existing .gitattributes without a trailing newline', () => {
    const dir = track(tempWorkspace('mergedrv-attr'));
    gitOk(dir, 'init', '-q');
    fs.writeFileSync(path.join(dir, '.gitattributes'), '*.png binary');
    runCliSync(['--dir', dir, 'init', '--git']);
    assert.equal(fs.readFileSync(path.join(dir, '.gitattributes'), 'utf8'), `*.png binary\n${ATTRS}`);
  });

  it('init --git outside a git repository: clear error, exit 1, nothing created', () => {
    const dir = track(tempWorkspace('mergedrv-nogit'));
    const r = spawnSync(process.execPath, [CLI, '--dir', dir, 'init', '--git'], {
      encoding: 'utf8',
      env: { ...GIT_ENV, GIT_CEILING_DIRECTORIES: path.dirname(dir) },
    });
    assert.equal(r.status, 1, r.stdout + r.stderr);
    assert.match(r.stderr, /not inside a git repository.*git init/);
    assert.deepEqual(fs.readdirSync(dir), []);
  });

  it('merges two branches that each created a handoff and claimed the same one: 3 handoffs, unique ids, the claim conflict recorded', () => {
    const dir = track(tempWorkspace('mergedrv-merge'));
    gitOk(dir, 'init', '-q', '-b', 'main');
    runCliSync(['--dir', dir, 'init', '--git']);
    const baseId = createHandoff(dir, 'base work');
    commit(dir, 'base');

    checkoutAsAnotherClone(dir, '-q', '-b', 'a');
    createHandoff(dir, 'made on branch a');
    cli(dir, 'claim', baseId, '--agent', 'claude');
    commit(dir, 'a');

    checkoutAsAnotherClone(dir, '-q', '-b', 'b', 'main');
    const sleepUntil = Date.now() + 20;
    while (Date.now() < sleepUntil); // codex's claim must be strictly later than claude's
    createHandoff(dir, 'made on branch b');
    cli(dir, 'claim', baseId, '--agent', 'codex');
    commit(dir, 'b');

    checkoutAsAnotherClone(dir, '-q', 'a');
    const merge = git(dir, 'merge', '--no-edit', 'b');
    asAnotherClone(dir); // reads below: a clone that pulls this merge
    assert.equal(merge.status, 0, `git merge failed: ${merge.out}`);
    assert.match(merge.out, /claimed_by differs/, 'the driver tells the user about the conflict it resolved');

    const text = readStore(dir);
    assert.doesNotMatch(text, /^(<<<<<<<|=======|>>>>>>>)/m);
    const parsed = handoffsFileSchema.safeParse(JSON.parse(text));
    assert.ok(parsed.success, parsed.success ? '' : parsed.error.message);
    const handoffs = parsed.data.handoffs;
    assert.deepEqual(
      handoffs.map((h) => h.summary),
      ['base work', 'made on branch a', 'made on branch b'],
    );
    assert.equal(new Set(handoffs.map((h) => h.handoff_id)).size, 3);
    assert.equal(new Set(handoffs.map((h) => h.uid)).size, 3);

    const baseRecord = handoffs[0];
    assert.equal(baseRecord.handoff_id, baseId);
    assert.equal(baseRecord.claimed_by, 'codex');
    assert.deepEqual(
      baseRecord.conflicts?.map(({ field, ours, theirs, resolved_to }) => ({ field, ours, theirs, resolved_to })),
      [{ field: 'claimed_by', ours: 'claude', theirs: 'codex', resolved_to: 'codex' }],
    );
    assert.deepEqual(
      baseRecord.state_history.map((e) => `${e.status}:${e.agent}`),
      ['queued:copilot', 'in_progress:claude', 'in_progress:codex'],
    );
    // `git merge b`: b is the side merged in, so its new handoff keeps HO-…-002 and a's own new one moves.
    const [, renumbered, kept] = handoffs;
    assert.match(renumbered.state_history.at(-1)!.reason ?? '', /^renumbered from HO-\d{8}-002 by merge$/);
    assert.deepEqual(renumbered.previous_ids, [kept.handoff_id]);
    assert.equal(git(dir, 'status', '--porcelain', '.agentsync/handoffs.json').out, '', 'the merge committed the driver result');

    // The CLI loads the merged store.
    assert.equal((cli(dir, 'list').data as { count: number }).count, 3);
  });

  it('merged on one branch, claimed later on the other: stays merged, the claim is recorded in conflicts, decisions.md agrees', () => {
    const dir = track(tempWorkspace('mergedrv-terminal'));
    gitOk(dir, 'init', '-q', '-b', 'main');
    runCliSync(['--dir', dir, 'init', '--git']);
    const id = createHandoff(dir, 'finish me');
    commitAll(dir, 'base');

    checkoutAsAnotherClone(dir, '-q', '-b', 'a');
    cli(dir, 'claim', id, '--agent', 'claude');
    cli(dir, 'complete', id, '--agent', 'claude');
    cli(dir, 'approve', id, '--agent', 'copilot');
    assert.equal((cli(dir, 'merge', id, '--agent', 'copilot').data as { handoff: Handoff }).handoff.status, 'merged');
    commitAll(dir, 'a: merged');

    checkoutAsAnotherClone(dir, '-q', '-b', 'b', 'main');
    spin(20);
    cli(dir, 'claim', id, '--agent', 'codex');
    commitAll(dir, 'b: claimed later');

    checkoutAsAnotherClone(dir, '-q', 'a');
    const merge = git(dir, 'merge', '--no-edit', 'b');
    asAnotherClone(dir); // reads below: a clone that pulls this merge
    assert.equal(merge.status, 0, `git merge failed: ${merge.out}`);
    const h = handoffsFileSchema.parse(JSON.parse(readStore(dir))).handoffs[0];
    assert.equal(h.status, 'merged');
    assert.deepEqual(
      h.conflicts?.map((c) => [c.field, c.ours, c.theirs, c.resolved_to]),
      [
        ['status', 'merged', 'in_progress', 'merged'],
        ['claimed_by', 'claude', 'codex', 'claude'],
      ],
    );
    assert.ok(
      h.state_history.some((e) => e.status === 'in_progress' && e.agent === 'codex'),
      'histories united',
    );
    assert.equal(h.state_history.at(-1)!.status, 'merged');
    const decisions = fs
      .readFileSync(path.join(dir, 'decisions.md'), 'utf8')
      .split('\n')
      .filter((l) => l.includes(`| ${id} |`));
    assert.equal(decisions.length, 1);
    assert.match(decisions[0], / \| merged \| /);
    assert.equal((cli(dir, 'show', id).data as { handoff: Handoff }).handoff.status, 'merged');
  });

  it('git pull with both clones changing handoffs: no conflict in AgentTracker.md, its section is the merged store, human edits kept', () => {
    const top = track(tempWorkspace('mergedrv-pull'));
    const origin = path.join(top, 'origin.git');
    gitOk(top, 'init', '-q', '--bare', '-b', 'main', origin);
    const c1 = path.join(top, 'c1');
    const c2 = path.join(top, 'c2');
    gitOk(top, 'clone', '-q', origin, c1);
    runCliSync(['--dir', c1, 'init', '--git']);
    const tracker1 = path.join(c1, 'AgentTracker.md');
    fs.writeFileSync(
      tracker1,
      `# Agent Tracker\n\nTop notes.\n\n${fs.readFileSync(tracker1, 'utf8').replace(/^# Agent Tracker\n+/, '')}\n## Team notes\n\n- one\n- two\n`,
    );
    const baseId = createHandoff(c1, 'base work');
    commitAll(c1, 'base');
    gitOk(c1, 'push', '-q', 'origin', 'HEAD:main');
    gitOk(top, 'clone', '-q', origin, c2);
    runCliSync(['--dir', c2, 'init', '--git']); // registration is per clone (.git/config is not committed)

    createHandoff(c1, 'made in clone 1');
    cli(c1, 'claim', baseId, '--agent', 'claude');
    fs.writeFileSync(tracker1, fs.readFileSync(tracker1, 'utf8').replace('Top notes.', 'Top notes, edited in clone 1.'));
    commitAll(c1, 'c1');
    gitOk(c1, 'push', '-q', 'origin', 'HEAD:main');

    spin(20);
    createHandoff(c2, 'made in clone 2');
    const tracker2 = path.join(c2, 'AgentTracker.md');
    fs.writeFileSync(tracker2, fs.readFileSync(tracker2, 'utf8').replace('- two\n', '- two\n- three, from clone 2\n'));
    commitAll(c2, 'c2');

    const pull = git(c2, 'pull', '--no-rebase', '--no-edit', 'origin', 'main');
    assert.equal(pull.status, 0, `git pull failed: ${pull.out}`);
    const text = fs.readFileSync(tracker2, 'utf8');
    assert.doesNotMatch(text, /^(<<<<<<<|=======|>>>>>>>)/m);
    const store = handoffsFileSchema.parse(JSON.parse(readStore(c2)));
    assert.equal(store.handoffs.length, 3);
    const found = findSection(text, HANDOFFS_HEADING)!;
    assert.equal(text.slice(found.start, found.end), renderHandoffsSection(store.handoffs), 'the section is the merged store, rendered');
    assert.match(text, /Top notes, edited in clone 1\./);
    assert.match(text, /- three, from clone 2\n/);
    assert.equal(git(c2, 'status', '--porcelain').out, '', 'the merge committed cleanly');
  });

  it('an upgrade that moves the install to a new versioned folder: merges still find the CLI', () => {
    const top = track(tempWorkspace('mergedrv-upgrade'));
    const repoRoot = path.resolve(path.dirname(CLI), '..');
    const v1 = path.join(top, 'ext', 'agentsync.agentsync-0.4.0');
    for (const part of ['bin', 'dist', 'templates', 'package.json'])
      fs.cpSync(path.join(repoRoot, part), path.join(v1, part), { recursive: true });
    const dir = path.join(top, 'ws');
    fs.mkdirSync(dir);
    gitOk(dir, 'init', '-q', '-b', 'main');
    const r = spawnSync(process.execPath, [path.join(v1, 'bin', 'agentsync.js'), '--dir', dir, 'init', '--git'], {
      encoding: 'utf8',
      env: GIT_ENV,
    });
    assert.equal(r.status, 0, r.stderr);
    const id = createHandoff(dir, 'base');
    commitAll(dir, 'base');
    fs.renameSync(v1, path.join(top, 'ext', 'agentsync.agentsync-0.5.0')); // the editor replaced 0.4.0 with 0.5.0

    checkoutAsAnotherClone(dir, '-q', '-b', 'a');
    cli(dir, 'claim', id, '--agent', 'claude');
    commitAll(dir, 'a');
    checkoutAsAnotherClone(dir, '-q', '-b', 'b', 'main');
    spin(20);
    cli(dir, 'claim', id, '--agent', 'codex');
    commitAll(dir, 'b');
    const merge = git(dir, 'merge', '--no-edit', 'a');
    asAnotherClone(dir); // reads below: a clone that pulls this merge
    assert.equal(merge.status, 0, `git merge failed: ${merge.out}`);
    assert.match(merge.out, /claimed_by differs/, 'the driver ran (from the 0.5.0 folder)');
  });

  it('with agentsync on PATH (npm i -g), the drivers are registered as plain `agentsync` commands', () => {
    const top = track(tempWorkspace('mergedrv-path'));
    const bin = path.join(top, 'bin');
    fs.mkdirSync(bin);
    fs.writeFileSync(path.join(bin, 'agentsync'), `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(CLI)} "$@"\n`, {
      mode: 0o755,
    });
    const dir = path.join(top, 'ws');
    fs.mkdirSync(dir);
    gitOk(dir, 'init', '-q');
    const r = spawnSync(process.execPath, [CLI, '--dir', dir, 'init', '--git'], {
      encoding: 'utf8',
      env: { ...GIT_ENV, PATH: `${bin}${path.delimiter}${GIT_ENV.PATH}` },
    });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(gitOk(dir, 'config', 'merge.agentsync.driver').trim(), 'agentsync merge-driver %O %A %B %P');
    assert.equal(gitOk(dir, 'config', 'merge.agentsync-tracker.driver').trim(), 'agentsync merge-tracker %O %A %B %P');
    assert.equal(fs.existsSync(path.join(dir, '.git', 'agentsync')), false);
  });

  it('an input that does not validate: exit 1, says why, writes nothing', () => {
    const dir = track(tempWorkspace('mergedrv-bad'));
    const good = '{\n  "version": 1,\n  "handoffs": []\n}\n';
    fs.writeFileSync(path.join(dir, 'base.json'), good);
    fs.writeFileSync(path.join(dir, 'ours.json'), good);
    fs.writeFileSync(path.join(dir, 'theirs.json'), '{"version": 1, "handoffs": [{"handoff_id": "nope"}]}');
    const r = spawnSync(process.execPath, [CLI, 'merge-driver', 'base.json', 'ours.json', 'theirs.json'], { cwd: dir, encoding: 'utf8' });
    assert.equal(r.status, 1);
    assert.match(r.stderr, /theirs version does not match the handoffs.json schema: handoffs\.0\.handoff_id/);
    assert.equal(fs.readFileSync(path.join(dir, 'ours.json'), 'utf8'), good);
    fs.writeFileSync(path.join(dir, 'ours.json'), '{ not json');
    const r2 = spawnSync(process.execPath, [CLI, 'merge-driver', 'base.json', 'ours.json', 'base.json'], { cwd: dir, encoding: 'utf8' });
    assert.equal(r2.status, 1);
    assert.match(r2.stderr, /ours version is not valid JSON/);
    assert.equal(fs.readFileSync(path.join(dir, 'ours.json'), 'utf8'), '{ not json');
  });

  it('a handoff archived on one branch and claimed on the other: merged with the archived copy in the work tree, still merged', () => {
    const dir = track(tempWorkspace('mergedrv-archive'));
    gitOk(dir, 'init', '-q', '-b', 'main');
    runCliSync(['--dir', dir, 'init', '--git']);
    fs.writeFileSync(path.join(dir, '.agentsync.json'), JSON.stringify({ archive: { after_days: 0 } }));
    const id = createHandoff(dir, 'archived on main, claimed on b');
    commitAll(dir, 'base');

    checkoutAsAnotherClone(dir, '-q', '-b', 'b');
    cli(dir, 'claim', id, '--agent', 'codex');
    commitAll(dir, 'b');

    checkoutAsAnotherClone(dir, '-q', 'main');
    cli(dir, 'claim', id, '--agent', 'claude');
    cli(dir, 'complete', id, '--agent', 'claude');
    cli(dir, 'approve', id, '--agent', 'copilot');
    cli(dir, 'merge', id, '--agent', 'copilot');
    createHandoff(dir, 'the next write, which archives it');
    const onMain = handoffsFileSchema.parse(JSON.parse(readStore(dir)));
    assert.ok(!onMain.handoffs.some((x) => x.handoff_id === id) && onMain.id_high_water === id, 'archived on main');
    commitAll(dir, 'main: merged and archived');

    const merge = git(dir, 'merge', '--no-edit', 'b');

    asAnotherClone(dir); // reads below: a clone that pulls this merge
    assert.equal(merge.status, 0, `git merge failed: ${merge.out}`);
    assert.match(merge.out, /archived on ours but changed on the other side/);
    const store = handoffsFileSchema.parse(JSON.parse(readStore(dir)));
    const h = store.handoffs.find((x) => x.handoff_id === id)!;
    assert.equal(h.status, 'merged', 'the finished status stands');
    assert.equal(h.conflicts?.[0].field, 'status', "b's claim is recorded for a human");
    assert.equal(store.id_high_water, id);
    const shown = cli(dir, 'show', id).data as { handoff: Handoff; archived: boolean };
    assert.equal(shown.archived, false, 'the copy in handoffs.json is the one shown');
    assert.equal(shown.handoff.rev, h.rev);
  });
});
