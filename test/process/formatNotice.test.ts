// A store version is announced once per clone (docs/contract.md §3, "Versions"): in a linked worktree every claim
// records its session, so the file turns version 2 at each claim after a release; the first such claim says so in
// `data.notice`, later ones do not. Another clone has its own home and is told once too.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cliAt, cliAtOk, gitOk } from './processHarness';
import { initializedClone } from './worktreeScene';

type Answer = { ok: boolean; data?: { notice?: string } };
const answer = (cwd: string, ...args: string[]): Answer => {
  const r = cliAt(cwd, ['--json', ...args]);
  return JSON.parse(r.out) as Answer;
};
const versionOf = (repo: string) =>
  (JSON.parse(fs.readFileSync(path.join(repo, '.agentsync', 'handoffs.json'), 'utf8')) as { version: number }).version;

describe('the store version notice, once per clone', function () {
  this.timeout(60_000);

  it('the first claim that writes version 2 says so; after a release, the next claim writes it again without a word; another clone is told once', () => {
    const repo = initializedClone('format-notice');
    const id = cliAtOk(repo, 'create', '--from', 'codex', '--to', 'claude', '--summary', 'told once', '--quiet').trim();
    const wt = path.join(path.dirname(repo), 'agent-claude');
    gitOk(repo, 'worktree', 'add', '-q', '-b', 'agent-claude', wt);

    const first = answer(wt, 'claim', id, '--agent', 'claude');
    assert.equal(first.ok, true, JSON.stringify(first));
    assert.match(first.data?.notice ?? '', /store version 2/);
    assert.equal(versionOf(repo), 2);
    assert.equal(answer(wt, 'release', id, '--agent', 'claude').ok, true);
    assert.equal(versionOf(repo), 1, 'back to version 1 once no record holds claimed_session');

    const again = answer(wt, 'claim', id, '--agent', 'claude');
    assert.equal(again.ok, true, JSON.stringify(again));
    assert.equal(versionOf(repo), 2, 'written as version 2 again');
    assert.equal(again.data?.notice, undefined, 'this clone was told already');
    const text = cliAt(wt, ['release', id, '--agent', 'claude']);
    assert.equal(text.code, 0, text.err);
    const plain = cliAt(wt, ['claim', id, '--agent', 'claude']);
    assert.equal(plain.code, 0, plain.err);
    assert.doesNotMatch(plain.out + plain.err, /store version/, 'nor in the terminal');

    // Another clone of the repository keeps its own home: its first version-2 write says it.
    gitOk(repo, 'add', '-A');
    gitOk(repo, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '-m', 'claimed');
    const other = path.join(path.dirname(repo), 'other');
    gitOk(path.dirname(repo), 'clone', '-q', repo, other);
    const otherWt = path.join(path.dirname(repo), 'other-wt');
    gitOk(other, 'worktree', 'add', '-q', '-b', 'other-wt', otherWt);
    const otherId = cliAtOk(other, 'create', '--from', 'codex', '--to', 'claude', '--summary', 'other clone', '--quiet').trim();
    assert.equal(answer(otherWt, 'release', id, '--agent', 'claude').ok, true);
    const theirs = answer(otherWt, 'claim', otherId, '--agent', 'claude');
    assert.equal(theirs.ok, true, JSON.stringify(theirs));
    assert.match(theirs.data?.notice ?? '', /store version 2/);
  });
});
