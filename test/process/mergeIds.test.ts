// Ids across clones without `sync` (docs/contract.md §3, §8): with real git (a bare remote, two clones, `git pull`), a
// published id keeps its record, only the local one is renumbered (keeping `previous_ids`), the clone whose record
// moved refuses its old id with `id_moved` until its agents were told, ids are not reused through the archive, a
// merge never reopens finished archived work, and the drivers refuse files they are not for.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { handoffsFileSchema, type Handoff, type HandoffsFile } from '../../src/core/domain/handoffSchema';
import { checkoutAsAnotherClone, git, gitOk, runCliIn, runCliSync, tempWorkspace } from './processHarness';

/** The CLI's JSON answer, whatever its exit code. */
function cli(dir: string, ...args: string[]): { ok: boolean; reason?: string; data?: Record<string, unknown> } & Record<string, unknown> {
  const r = runCliIn(dir, ['--json', ...args]);
  return JSON.parse(r.stdout) as { ok: boolean; data?: Record<string, unknown> };
}

function create(dir: string, summary: string): Handoff {
  const r = cli(dir, 'create', '--from', 'copilot', '--to', 'claude,codex', '--summary', summary);
  assert.ok(r.ok, JSON.stringify(r));
  return (r.data as { handoff: Handoff }).handoff;
}

function commitAll(dir: string, message: string): void {
  gitOk(dir, 'add', '-A');
  gitOk(dir, 'commit', '-q', '-m', message);
}

const store = (dir: string): HandoffsFile =>
  handoffsFileSchema.parse(JSON.parse(fs.readFileSync(path.join(dir, '.agentsync/handoffs.json'), 'utf8')));

/** Every id in the store and the archive, with the uid it names (one uid per id, or the test fails). */
function everyId(dir: string): Map<string, string> {
  const ids = new Map<string, string>();
  const archive = path.join(dir, '.agentsync/archive');
  const archived = fs.existsSync(archive)
    ? fs
        .readdirSync(archive)
        .flatMap((f) => fs.readFileSync(path.join(archive, f), 'utf8').split('\n').filter(Boolean))
        .map((l) => JSON.parse(l) as Handoff)
    : [];
  for (const h of [...store(dir).handoffs, ...archived]) {
    const seen = ids.get(h.handoff_id);
    assert.ok(!seen || seen === h.uid, `${h.handoff_id} names two handoffs: ${seen} and ${h.uid}`);
    ids.set(h.handoff_id, h.uid!);
  }
  return ids;
}

describe('ids across clones, without sync (real git: bare remote, two clones, pull)', function () {
  this.timeout(180_000);
  let dirs: string[] = [];
  const track = (dir: string) => (dirs.push(dir), dir);
  afterEach(function () {
    if (this.currentTest?.state === 'passed') for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
    dirs = [];
  });

  /** A bare remote and two clones of it, both registered (init --git), with `config` committed. */
  function twoClones(prefix: string, config?: object): { c1: string; c2: string } {
    const top = track(tempWorkspace(prefix));
    const origin = path.join(top, 'origin.git');
    gitOk(top, 'init', '-q', '--bare', '-b', 'main', origin);
    const c1 = path.join(top, 'c1');
    const c2 = path.join(top, 'c2');
    gitOk(top, 'clone', '-q', origin, c1);
    runCliSync(['--dir', c1, 'init', '--git']);
    if (config) fs.writeFileSync(path.join(c1, '.agentsync.json'), JSON.stringify(config));
    commitAll(c1, 'init');
    gitOk(c1, 'push', '-q', 'origin', 'HEAD:main');
    gitOk(top, 'clone', '-q', origin, c2);
    runCliSync(['--dir', c2, 'init', '--git']);
    return { c1, c2 };
  }

  for (const mode of ['--no-rebase', '--rebase'] as const) {
    it(`git pull ${mode}: the published handoff keeps its id; the local one is renumbered and keeps its old id in previous_ids`, () => {
      const { c1, c2 } = twoClones(`ids-pull${mode}`);
      const published = create(c1, 'pushed first, from clone 1');
      commitAll(c1, 'c1');
      gitOk(c1, 'push', '-q', 'origin', 'HEAD:main');
      const local = create(c2, 'made in clone 2, not pushed');
      assert.equal(local.handoff_id, published.handoff_id, 'both clones allocated the same id');
      commitAll(c2, 'c2');

      const pull = git(c2, 'pull', mode, '--no-edit', 'origin', 'main');
      assert.equal(pull.status, 0, pull.out);
      const byUid = new Map(store(c2).handoffs.map((h) => [h.uid, h]));
      assert.equal(byUid.get(published.uid)!.handoff_id, published.handoff_id, 'the published id names the published handoff');
      assert.equal(byUid.get(published.uid)!.previous_ids, undefined);
      const moved = byUid.get(local.uid)!;
      assert.notEqual(moved.handoff_id, published.handoff_id);
      assert.deepEqual(moved.previous_ids, [published.handoff_id]);
      assert.match(moved.state_history.at(-1)!.reason ?? '', /^renumbered from HO-\d{8}-001 by merge$/);
      assert.equal(git(c2, 'status', '--porcelain').out, '', 'the merge committed cleanly');

      // Clone 1 gets the merge as it is: its agents' id still names its handoff, nothing is refused there.
      gitOk(c2, 'push', '-q', 'origin', 'HEAD:main');
      gitOk(c1, 'pull', '-q', '--no-rebase', 'origin', 'main');
      const shown = cli(c1, 'show', published.handoff_id);
      assert.ok(shown.ok, JSON.stringify(shown));
      assert.equal((shown.data as { handoff: Handoff }).handoff.uid, published.uid);
    });
  }

  it("in the clone whose record moved, its old id is refused id_moved (naming both records' ids) until a session start told its agents", () => {
    const { c1, c2 } = twoClones('ids-moved');
    const published = create(c1, 'pushed first, from clone 1');
    commitAll(c1, 'c1');
    gitOk(c1, 'push', '-q', 'origin', 'HEAD:main');
    const local = create(c2, 'made in clone 2: its agents know it by the old id');
    commitAll(c2, 'c2');
    const pull = git(c2, 'pull', '--no-rebase', '--no-edit', 'origin', 'main');
    assert.equal(pull.status, 0, pull.out);
    const newId = store(c2).handoffs.find((h) => h.uid === local.uid)!.handoff_id;
    const before = fs.readFileSync(path.join(c2, '.agentsync/handoffs.json'), 'utf8');

    for (const args of [
      ['claim', local.handoff_id, '--agent', 'claude'],
      ['show', local.handoff_id],
    ]) {
      const r = runCliIn(c2, ['--json', ...args]);
      assert.equal(r.code, 1, r.stdout + r.stderr);
      const answer = JSON.parse(r.stdout) as Record<string, unknown>;
      assert.equal(answer.reason, 'id_moved', r.stdout);
      assert.deepEqual(answer.moved, { handoff_id: newId, uid: local.uid });
      assert.deepEqual(answer.now_names, { handoff_id: published.handoff_id, uid: published.uid });
      assert.match(String(answer.message), new RegExp(`${newId}.*${published.uid}`));
      assert.equal(answer.data, undefined, 'never an answer about the other handoff');
    }
    assert.equal(fs.readFileSync(path.join(c2, '.agentsync/handoffs.json'), 'utf8'), before, 'the refusals changed nothing');

    // By uid, or by the new id, the request acts on the handoff the sender meant.
    const byUid = cli(c2, 'show', local.uid!);
    assert.equal((byUid.data as { handoff: Handoff }).handoff.uid, local.uid);
    const claimed = cli(c2, 'claim', newId, '--agent', 'claude');
    assert.ok(claimed.ok, JSON.stringify(claimed));
    assert.equal((claimed.data as { handoff: Handoff }).handoff.uid, local.uid);

    // The next session start tells the clone's agents (its briefing lists the move); from then on the id names the published one.
    const started = JSON.parse(
      runCliIn(c2, ['--json', 'request', '-'], JSON.stringify({ action: 'startSession', agent: 'codex', goal: 'next session' })).stdout,
    ) as { ok: boolean; data: { briefing: { moved_ids?: { id: string; moved_to: string; uid: string; now_names: string | null }[] } } };
    assert.ok(started.ok, JSON.stringify(started));
    assert.deepEqual(
      started.data.briefing.moved_ids?.map((m) => [m.id, m.moved_to, m.uid, m.now_names]),
      [[published.handoff_id, newId, local.uid, published.handoff_id]],
    );
    const after = cli(c2, 'show', published.handoff_id);
    assert.ok(after.ok, JSON.stringify(after));
    assert.equal((after.data as { handoff: Handoff }).handoff.uid, published.uid);
  });

  it('a handoff archived upstream and a new one made in the pulling clone never share an id (store and archive)', () => {
    const { c1, c2 } = twoClones('ids-archive-up', { archive: { after_days: 0 } });
    const done = create(c1, 'finished and archived in clone 1');
    cli(c1, 'claim', done.handoff_id, '--agent', 'claude');
    cli(c1, 'complete', done.handoff_id, '--agent', 'claude');
    cli(c1, 'approve', done.handoff_id, '--agent', 'copilot');
    cli(c1, 'merge', done.handoff_id, '--agent', 'copilot');
    create(c1, 'the next write, which archives the first');
    assert.equal(store(c1).id_high_water, done.handoff_id, 'archived in clone 1');
    commitAll(c1, 'c1');
    gitOk(c1, 'push', '-q', 'origin', 'HEAD:main');

    const local = create(c2, 'made in clone 2');
    assert.equal(local.handoff_id, done.handoff_id);
    commitAll(c2, 'c2');
    const pull = git(c2, 'pull', '--no-rebase', '--no-edit', 'origin', 'main');
    assert.equal(pull.status, 0, pull.out);
    const ids = everyId(c2);
    assert.equal(ids.get(done.handoff_id), done.uid, 'the archived id keeps its handoff');
    const moved = store(c2).handoffs.find((h) => h.uid === local.uid)!;
    assert.notEqual(moved.handoff_id, done.handoff_id);
    assert.deepEqual(moved.previous_ids, [done.handoff_id]);
  });

  it('a handoff archived in the pulling clone and a new one published upstream never share an id: the archived one comes back renumbered', () => {
    const { c1, c2 } = twoClones('ids-archive-down', { archive: { after_days: 0 } });
    const published = create(c1, 'published by clone 1');
    commitAll(c1, 'c1');
    gitOk(c1, 'push', '-q', 'origin', 'HEAD:main');

    const done = create(c2, 'finished and archived in clone 2, never pushed');
    cli(c2, 'claim', done.handoff_id, '--agent', 'claude');
    cli(c2, 'complete', done.handoff_id, '--agent', 'claude');
    cli(c2, 'approve', done.handoff_id, '--agent', 'copilot');
    cli(c2, 'merge', done.handoff_id, '--agent', 'copilot');
    const next = create(c2, 'the next write, which archives the first');
    assert.equal(store(c2).id_high_water, done.handoff_id);
    commitAll(c2, 'c2');
    const pull = git(c2, 'pull', '--no-rebase', '--no-edit', 'origin', 'main');
    assert.equal(pull.status, 0, pull.out);
    const live = store(c2).handoffs;
    const byUid = new Map(live.map((h) => [h.uid, h]));
    assert.equal(byUid.get(published.uid)!.handoff_id, published.handoff_id, 'the published id stays');
    const back = byUid.get(done.uid)!;
    assert.ok(back, 'the archived handoff is back in handoffs.json under a new id');
    assert.equal(back.status, 'merged');
    assert.deepEqual(back.previous_ids, [done.handoff_id]);
    assert.equal(new Set(live.map((h) => h.handoff_id)).size, live.length);
    assert.ok(byUid.get(next.uid), 'the other local handoff is kept');
    assert.equal((cli(c2, 'show', back.handoff_id).data as { handoff: Handoff }).handoff.uid, done.uid);
  });

  for (const [how, into] of [
    ['merge', 'main'],
    ['merge', 'b'],
    ['rebase', 'main'],
    ['rebase', 'b'],
  ] as const) {
    it(`archived as merged on one branch, revised and claimed on the other: ${how} into ${into}, it stays merged with conflicts recorded`, () => {
      const dir = track(tempWorkspace(`ids-reopen-${how}-${into}`));
      gitOk(dir, 'init', '-q', '-b', 'main');
      runCliSync(['--dir', dir, 'init', '--git']);
      fs.writeFileSync(path.join(dir, '.agentsync.json'), JSON.stringify({ archive: { after_days: 0 } }));
      const h = create(dir, 'merged on main, revised on b');
      cli(dir, 'claim', h.handoff_id, '--agent', 'claude');
      cli(dir, 'complete', h.handoff_id, '--agent', 'claude');
      commitAll(dir, 'base: in review');

      checkoutAsAnotherClone(dir, '-q', '-b', 'b');
      assert.ok(cli(dir, 'revise', h.handoff_id, '--agent', 'copilot').ok);
      assert.ok(cli(dir, 'release', h.handoff_id, '--agent', 'claude').ok);
      assert.ok(cli(dir, 'claim', h.handoff_id, '--agent', 'codex').ok);
      commitAll(dir, 'b: revised and claimed');

      checkoutAsAnotherClone(dir, '-q', 'main');
      cli(dir, 'approve', h.handoff_id, '--agent', 'copilot');
      cli(dir, 'merge', h.handoff_id, '--agent', 'copilot');
      create(dir, 'the next write, which archives it');
      assert.ok(!store(dir).handoffs.some((x) => x.uid === h.uid), 'archived on main');
      commitAll(dir, 'main: merged and archived');

      // merge: check out `into` and merge the other in; rebase: replay the other branch onto `into`.
      const other = into === 'main' ? 'b' : 'main';
      checkoutAsAnotherClone(dir, '-q', how === 'merge' ? into : other);
      const merge = how === 'merge' ? git(dir, 'merge', '--no-edit', other) : git(dir, 'rebase', into);
      assert.equal(merge.status, 0, merge.out);
      const after = store(dir).handoffs.find((x) => x.uid === h.uid);
      const shown = (cli(dir, 'show', h.handoff_id).data as { handoff: Handoff }).handoff;
      assert.equal(shown.status, 'merged', 'finished work is not reopened');
      assert.ok(after, 'back in handoffs.json for a human to see the conflict');
      assert.equal(after.status, 'merged');
      assert.equal(after.conflicts?.[0]?.field, 'status');
      assert.equal(after.conflicts?.[0]?.resolved_to, 'merged');
      assert.ok(!after.claimed_by || after.claimed_by === 'claude', `the later claim does not stick (${after.claimed_by})`);
    });
  }

  it('the tracker driver mapped to README.md refuses: exit non-zero, the file untouched, git shows its own conflict', () => {
    const dir = track(tempWorkspace('ids-readme'));
    gitOk(dir, 'init', '-q', '-b', 'main');
    runCliSync(['--dir', dir, 'init', '--git']);
    fs.appendFileSync(path.join(dir, '.gitattributes'), 'README.md merge=agentsync-tracker\ndata.json merge=agentsync\n');
    const readme = path.join(dir, 'README.md');
    const humans = '# Project\n\n## Agent Handoffs\n\nOur own list, written by people.\n\n## Other\n\nbase\n';
    fs.writeFileSync(readme, humans);
    const data = path.join(dir, 'data.json');
    fs.writeFileSync(data, '{\n  "version": 1,\n  "handoffs": []\n}\n');
    create(dir, 'a handoff, so the store is not empty');
    commitAll(dir, 'base');
    checkoutAsAnotherClone(dir, '-q', '-b', 'b');
    fs.writeFileSync(readme, humans.replace('base', 'from b'));
    fs.writeFileSync(data, '{\n  "version": 1,\n  "handoffs": [],\n  "id_high_water": "HO-20260101-001"\n}\n');
    commitAll(dir, 'b');
    checkoutAsAnotherClone(dir, '-q', 'main');
    fs.writeFileSync(readme, humans.replace('base', 'from main'));
    fs.writeFileSync(data, '{\n  "version": 1,\n  "handoffs": [],\n  "id_high_water": "HO-20260102-001"\n}\n');
    const oursData = fs.readFileSync(data, 'utf8');
    commitAll(dir, 'main');

    const merge = git(dir, 'merge', '--no-edit', 'b');
    assert.notEqual(merge.status, 0, merge.out);
    assert.match(merge.out, /merge-tracker: README\.md is not a workspace's AgentTracker\.md/);
    assert.match(merge.out, /merge-driver: data\.json is not a workspace's \.agentsync\/handoffs\.json/);
    const text = fs.readFileSync(readme, 'utf8');
    assert.match(text, /Our own list, written by people\./, "the humans' section is not replaced");
    assert.doesNotMatch(text, /HO-\d{8}-\d{3}/);
    assert.equal(text, humans.replace('base', 'from main'), 'ours, as git leaves it when a driver fails');
    assert.equal(fs.readFileSync(data, 'utf8'), oursData, 'data.json untouched as well');
    assert.match(git(dir, 'status', '--porcelain').out, /^UU README\.md$/m);
    assert.match(git(dir, 'status', '--porcelain').out, /^UU data\.json$/m);
  });
});
