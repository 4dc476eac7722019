// The shared tree formats (docs/contract.md §13, "Sync that costs what the change costs"; docs/upgrading.md): a
// format-1 ref written by 0.4.0 (fixtures/sync-format1.bundle, made by fixtures/sync-format1.sh with that build) is
// still read and written on in format 1; `agentsync sync --upgrade-format` writes the newest format (3) once,
// announced; a newer format is refused store_too_new; a write in either format costs at most 3 git processes in the
// clone. Real CLI, real git. (A format-2 ref and its upgrade: syncFormat3.test.ts.)
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cli, git, gitServerPerTest, storeBytes, type Answer } from '../gitServer';
import { CLI, tempWorkspace } from '../processHarness';
import { FIXTURE_RETRY, FIXTURES, loadFormatFixture, REF } from './formatFixtures';
import { ledgerPath } from '../../../src/core/store/sync/sharedTreeLayout';

/** The CLI with extra environment (the git process log), answering JSON. */
function cliEnv(ws: string, args: string[], env: NodeJS.ProcessEnv, input?: string): Answer {
  const r = spawnSync(process.execPath, [CLI, '--dir', ws, '--json', ...args], {
    encoding: 'utf8',
    input,
    env: { ...process.env, ...env },
  });
  return JSON.parse(r.stdout) as Answer;
}

/** The git processes one command started in the clone (AGENTSYNC_TEST_GIT_LOG), by subcommand. */
function gitProcesses(ws: string, args: string[]): { answer: Answer; gits: string[] } {
  const log = path.join(tempWorkspace('gitlog'), 'git.log');
  const answer = cliEnv(ws, args, { AGENTSYNC_TEST_GIT_LOG: log });
  const gits = fs.existsSync(log)
    ? fs
        .readFileSync(log, 'utf8')
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((l) => l.split(' ')[1])
    : [];
  return { answer, gits };
}

const tree = (bare: string) => git(bare, ['ls-tree', '-r', '--name-only', REF]).split('\n');

describe('sync: the shared tree format, and reading format 1 (0.4.0)', function () {
  this.timeout(180_000);
  const server = gitServerPerTest();
  const bare = () => path.join(server.base, 'shared.git');
  /** The server's ref set to the fixture's: three records and a ledger, written in format 1 by the build before format 2. */
  const loadFixture = () => loadFormatFixture(bare(), 1);
  const idOf = (a: string, summary: string) =>
    (JSON.parse(storeBytes(a)!.toString()) as { handoffs: { handoff_id: string; summary: string; uid: string }[] }).handoffs.find(
      (h) => h.summary === summary,
    )!;

  it('a format-1 ref written by the build before format 2 is read and written on in format 1; its ledger answers a retry', () => {
    loadFixture();
    const a = server.clone('a');
    const listed = cli(a, ['list', '--fresh']);
    assert.equal(listed.ok, true, JSON.stringify(listed));
    assert.equal((listed.data!.handoffs as unknown[]).length, 3);
    const queued = idOf(a, 'created with a request id').handoff_id;
    const claim = cli(a, ['claim', queued, '--agent', 'codex']);
    assert.equal(claim.ok, true, JSON.stringify(claim));
    assert.deepEqual(tree(bare()), ['handoffs.json', 'ledger.jsonl'], 'still format 1: no upgrade was asked');
    const again = cli(a, ['request', '-'], FIXTURE_RETRY);
    assert.equal(again.ok, true, JSON.stringify(again));
    assert.equal(again.data!.handoff!.handoff_id, queued, 'answered from the format-1 ledger, not created again');
    assert.equal((cli(a, ['list']).data!.handoffs as unknown[]).length, 3);
  });

  it('sync --upgrade-format writes format 3 once, announced; the state reads the same; a month-old merged record moves to the archive', () => {
    loadFixture();
    const a = server.clone('a');
    assert.equal(cli(a, ['sync']).ok, true);
    const before = storeBytes(a)!.toString();
    const up = cli(a, ['sync', '--upgrade-format']);
    assert.equal(up.ok, true, JSON.stringify(up));
    assert.equal(up.data!.format_upgrade, 'written');
    const human = spawnSync(process.execPath, [CLI, '--dir', a, 'sync', '--upgrade-format'], { encoding: 'utf8' });
    assert.match(human.stdout, /already in shared format 3/);
    const files = tree(bare());
    assert.deepEqual(
      files.filter((f) => !f.startsWith('ledger/')).map((f) => f.replace(/\/.\/.\/.\/.*$/, '/…')),
      ['format', 'meta.json', 'records/…', 'records/…', 'records/…'],
    );
    assert.equal(git(bare(), ['show', `${REF}:format`]), '3');
    assert.ok(
      files.some((f) => f.startsWith('ledger/')),
      'the format-1 ledger answers are kept',
    );
    assert.equal(storeBytes(a)!.toString(), before, 'the same state, byte for byte');
    // The next write runs the archive pass in the same commit: the merged record leaves records/ for archive/.
    const merged = idOf(a, 'finished a month ago');
    const claim = cli(a, ['claim', idOf(a, 'created with a request id').handoff_id, '--agent', 'codex']);
    assert.equal(claim.ok, true, JSON.stringify(claim));
    const after = tree(bare());
    assert.equal(after.filter((f) => f.startsWith('records/')).length, 2);
    assert.deepEqual(
      after.filter((f) => f.startsWith('archive/')),
      // Format 3: the archive over two levels of fan-out (format 2 had three).
      [`archive/${merged.uid.slice(-1)}/${merged.uid.slice(-2, -1)}/${merged.uid}.json`],
    );
    assert.equal(git(bare(), ['rev-list', '--count', REF]), String(Number(git(bare(), ['rev-list', '--count', `${REF}~1`])) + 1));
    assert.ok(!idOf(a, 'finished a month ago'), 'gone from the open records here too');
    const shown = cli(a, ['show', merged.handoff_id]);
    assert.equal(shown.ok, true, JSON.stringify(shown));
    assert.equal((shown.data!.handoff as unknown as { status: string }).status, 'merged');
    // A retry answered before the upgrade is answered from the format-3 ledger, not applied again.
    const again = cli(a, ['request', '-'], FIXTURE_RETRY);
    assert.equal(
      (again.data!.handoff as unknown as { summary?: string } | undefined)?.summary,
      'created with a request id',
      JSON.stringify(again),
    );
    assert.equal((cli(a, ['list']).data!.handoffs as unknown[]).length, 2);
    // Another clone reads format 3 and writes on it.
    const b = server.clone('b');
    const listed = cli(b, ['list', '--fresh']);
    assert.equal((listed.data!.handoffs as unknown[]).length, 2, JSON.stringify(listed));
    const made = cli(b, ['create', '--from', 'codex', '--to', 'claude', '--summary', 'made on format 3']);
    assert.equal(made.ok, true, JSON.stringify(made));
    assert.equal(tree(bare()).filter((f) => f.startsWith('records/')).length, 3);
  });

  it('a shared state in a newer format is refused store_too_new, saying to upgrade AgentSync; nothing changes', () => {
    loadFixture();
    const a = server.clone('a');
    assert.equal(cli(a, ['sync', '--upgrade-format']).ok, true);
    const head = git(bare(), ['rev-parse', REF]);
    const four = git(bare(), ['hash-object', '-w', '--stdin'], '4\n');
    const entries = git(bare(), ['ls-tree', REF]).replace(/^(100644 blob )[0-9a-f]+(\tformat)$/m, `$1${four}$2`);
    const newer = git(bare(), [
      '-c',
      'user.name=x',
      '-c',
      'user.email=x@x',
      'commit-tree',
      git(bare(), ['mktree'], `${entries}\n`),
      '-p',
      head,
      '-m',
      'f4',
    ]);
    git(bare(), ['update-ref', REF, newer]);
    const before = storeBytes(a);
    for (const args of [['claim', idOf(a, 'created with a request id').handoff_id, '--agent', 'codex'], ['sync'], ['list', '--fresh']]) {
      const r = cli(a, args);
      assert.equal(r.reason, 'store_too_new', JSON.stringify(r));
      assert.match(String(r.message), /shared format 4.*reads up to format 3.*Upgrade AgentSync/s);
      assert.doesNotMatch(String(r.message), /git push --force|restore/i, 'never advises an older state');
    }
    assert.equal(git(bare(), ['rev-parse', REF]), newer, 'nothing pushed');
    assert.deepEqual(storeBytes(a), before, 'nothing changed here');
  });

  it('an uncontended write costs at most 3 git processes in the clone, in format 1 and in format 3', () => {
    loadFixture();
    const a = server.clone('a');
    // A first write: its push tells what the remote's URL is (no ssh here, so no core.sshCommand lookup after it).
    assert.equal(cli(a, ['create', '--from', 'codex', '--to', 'claude', '--summary', 'first push']).ok, true);
    const one = gitProcesses(a, ['claim', idOf(a, 'created with a request id').handoff_id, '--agent', 'codex']);
    assert.equal(one.answer.ok, true, JSON.stringify(one.answer));
    assert.ok(one.gits.length <= 3, `format 1: ${one.gits.join(', ')}`);
    assert.equal(cli(a, ['sync', '--upgrade-format']).ok, true);
    const two = gitProcesses(a, ['release', idOf(a, 'created with a request id').handoff_id, '--agent', 'codex']);
    assert.equal(two.answer.ok, true, JSON.stringify(two.answer));
    assert.deepEqual(two.gits, ['cat-file', 'fast-import', 'push'], `format 3: ${two.gits.join(', ')}`);
  });

  it('a write after a fast-import killed mid-update (its scratch ref lock left behind) succeeds; the lock is gone', () => {
    loadFixture();
    const a = server.clone('a');
    assert.equal(cli(a, ['sync', '--upgrade-format']).ok, true);
    // What a SIGKILL between fast-import's ref lock and its rename leaves: the scratch ref's lock file, no process.
    const lock = path.join(a, '.git', 'agentsync', '@state.git', 'refs', 'agentsync-scratch', 'origin', 'agentsync', 'state.lock');
    fs.mkdirSync(path.dirname(lock), { recursive: true });
    fs.writeFileSync(lock, `${'0'.repeat(40)}\n`);
    const claimed = cli(a, ['claim', idOf(a, 'created with a request id').handoff_id, '--agent', 'codex']);
    assert.equal(claimed.ok, true, JSON.stringify(claimed));
    assert.equal(fs.existsSync(lock), false);
    // The claim is on the remote: another clone sees it held.
    const b = server.clone('b');
    assert.equal(cli(b, ['sync']).ok, true);
    const shown = cli(b, ['show', idOf(a, 'created with a request id').handoff_id]);
    assert.equal(shown.data?.handoff?.claimed_by, 'codex', JSON.stringify(shown));
  });

  it('a write removes the ledger answers of its leaf folder older than 7 days, never a newer one; a retry of a pruned id applies nothing twice', () => {
    loadFixture();
    const a = server.clone('a');
    assert.equal(cli(a, ['sync', '--upgrade-format']).ok, true);
    const leaf = (id: string) => path.posix.dirname(ledgerPath(id));
    const first = 'prune-first';
    // Request ids whose answers share the first one's leaf (ledger/<a>/<b>/<c>/): the writes that can prune it.
    const sameLeaf: string[] = [];
    for (let i = 0; sameLeaf.length < 2; i++) if (leaf(`prune-${i}`) === leaf(first) && `prune-${i}` !== first) sameLeaf.push(`prune-${i}`);
    const create = (requestId: string, summary: string, days: number) =>
      cliEnv(a, ['create', '--from', 'codex', '--to', 'claude', '--summary', summary, '--request-id', requestId], {
        AGENTSYNC_TEST_CLOCK_OFFSET_MS: String(days * 24 * 3600 * 1000),
      });
    const ledger = () => git(bare(), ['ls-tree', '-r', '--name-only', REF, 'ledger/']).split('\n');
    assert.equal(create(first, 'answered first', 0).ok, true);
    assert.ok(ledger().includes(ledgerPath(first)));
    // Six days on, a write into the same leaf keeps it; eight days on, the next one removes it.
    assert.equal(create(sameLeaf[0], 'six days on', 6).ok, true);
    assert.ok(ledger().includes(ledgerPath(first)), 'an answer younger than 7 days is kept');
    const before = git(bare(), ['ls-tree', '-r', '--name-only', REF]).split('\n').length;
    assert.equal(create(sameLeaf[1], 'eight days on', 8).ok, true);
    assert.ok(!ledger().includes(ledgerPath(first)), 'the answer older than 7 days is gone');
    assert.ok(ledger().includes(ledgerPath(sameLeaf[1])));
    // One record added, one answer added, two answers older than 7 days removed (the first's and six days on's).
    assert.equal(git(bare(), ['ls-tree', '-r', '--name-only', REF]).split('\n').length, before + 2 - 2);
    // The first request retried after its answer went: found from the record's request marker, not created again.
    const count = () =>
      (JSON.parse(storeBytes(a)!.toString()) as { handoffs: { summary: string }[] }).handoffs.filter((h) => h.summary === 'answered first')
        .length;
    const retried = create(first, 'answered first', 8);
    assert.equal(retried.ok, true, JSON.stringify(retried));
    assert.equal(count(), 1);
  });

  it("an uncontended write reads sync.json once and this clone's store once", () => {
    loadFixture();
    const a = server.clone('a');
    assert.equal(cli(a, ['sync']).ok, true);
    const counts = path.join(tempWorkspace('reads'), 'reads.json');
    const preload = `--require ${path.join(FIXTURES, 'countReads.js')}`;
    const claim = cliEnv(a, ['claim', idOf(a, 'created with a request id').handoff_id, '--agent', 'codex'], {
      NODE_OPTIONS: preload,
      COUNT_READS_FILE: counts,
    });
    assert.equal(claim.ok, true, JSON.stringify(claim));
    const reads = JSON.parse(fs.readFileSync(counts, 'utf8')) as Record<string, number>;
    const of = (suffix: string) => Object.entries(reads).filter(([f]) => f.endsWith(suffix));
    assert.deepEqual(
      of('sync.json').map(([, n]) => n),
      [1],
      JSON.stringify(reads),
    );
    // The clone's record (in its home under the git common dir): read once for the batch (the working tree's copy is
    // only compared when it is followed).
    assert.deepEqual(
      of(`agentsync${path.sep}@${path.sep}handoffs.json`).map(([, n]) => n),
      [1],
      JSON.stringify(reads),
    );
  });
});
