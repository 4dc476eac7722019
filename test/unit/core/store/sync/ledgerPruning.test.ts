// Format 2's ledger pruning (src/core/store/sync/ledgerPruning.ts): a write that adds a ledger answer removes the
// answers of the same leaf folder older than the retention; a newer answer, one that cannot be dated, one of another
// leaf, and the answer being written are kept. Real git in a temp repository, read through a cat-file session.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { GitObjectSession } from '../../../../../src/core/git/gitObjectSession';
import { expiredLedgerAnswers, LEDGER_ANSWER_DAYS } from '../../../../../src/core/store/sync/ledgerPruning';
import { ledgerPath } from '../../../../../src/core/store/sync/sharedTreeLayout';
import { writeSharedCommit, type TreeChange } from '../../../../../src/core/store/sync/sharedTreeWriter';

const DAY = 24 * 3600 * 1000;
const leafOf = (id: string) => path.posix.dirname(ledgerPath(id));

/** `n` request ids whose answers fall in the leaf folder of `of`, other than `of`. */
function sameLeaf(of: string, n: number): string[] {
  const out: string[] = [];
  for (let i = 0; out.length < n; i++) if (leafOf(`r-${i}`) === leafOf(of) && `r-${i}` !== of) out.push(`r-${i}`);
  return out;
}

const answer = (id: string, at: Date | null): TreeChange => ({
  path: ledgerPath(id),
  data: JSON.stringify({ request_id: id, hash: 'h', response: at ? { ok: true, timestamp: at.toISOString() } : { ok: true } }) + '\n',
});

describe('shared format 2: ledger pruning', function () {
  this.timeout(60_000);
  let repo = '';
  let session: GitObjectSession | null = null;
  beforeEach(() => {
    repo = fs.mkdtempSync(path.join(os.tmpdir(), 'agentsync-ledger-prune-'));
    assert.equal(spawnSync('git', ['init', '-q', '--bare'], { cwd: repo }).status, 0);
  });
  afterEach(() => {
    session?.close();
    fs.rmSync(repo, { recursive: true, force: true });
  });

  it('removes the old answers of the leaf it writes into, and only those', async () => {
    const now = new Date('2026-11-29T00:00:00Z');
    const [old, fresh, undated, writing] = sameLeaf('r-new', 4);
    const elsewhere = Array.from({ length: 50 }, (_, i) => `x-${i}`).find((id) => leafOf(id) !== leafOf('r-new'))!;
    const ago = (days: number) => new Date(now.getTime() - days * DAY);
    const seed = [
      answer(old, ago(LEDGER_ANSWER_DAYS + 1)),
      answer(fresh, ago(LEDGER_ANSWER_DAYS - 1)),
      answer(undated, null),
      answer(writing, ago(30)),
      answer(elsewhere, ago(30)),
    ];
    const commit = writeSharedCommit(repo, { scratchRef: 'refs/t', parent: null, message: 'seed', changes: seed, when: 1 });
    session = new GitObjectSession(repo);
    // `writing` is answered again by this write (its path is written, so never removed); `r-new` is new.
    const removed = await expiredLedgerAnswers(session, commit, [answer('r-new', now), answer(writing, now)], now);
    assert.deepEqual(removed, [{ path: ledgerPath(old), data: null }]);
    assert.deepEqual(await expiredLedgerAnswers(session, commit, [{ path: 'records/a/b/c/x.json', data: '{}' }], now), []);
  });
});
