// What the per-file review diffs (docs/contract.md §6, "Per-file review"), in a real git repository: the report's commit
// against its merge base with HEAD; its parent when HEAD already holds it; the worktree branch's tip when the report
// names no commit; and with neither, or a commit this clone lacks, no sides at all and why: never a file against itself.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { blobAt, reviewDiffPlan } from '../../../../src/core/git/reviewDiff';
import type { Handoff } from '../../../../src/core/domain/handoffSchema';
import { makeHandoff } from '../../helpers/handoffFixtures';

const ENV = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' };
const ID = { user: ['-c', 'user.name=T', '-c', 'user.email=t@example.invalid'] };

function git(dir: string, ...args: string[]): string {
  return execFileSync('git', [...ID.user, ...args], { cwd: dir, env: ENV, encoding: 'utf8' }).trim();
}

function commitFile(dir: string, file: string, text: string): string {
  fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
  fs.writeFileSync(path.join(dir, file), text);
  git(dir, 'add', '-A');
  git(dir, 'commit', '-qm', file);
  return git(dir, 'rev-parse', 'HEAD');
}

function reported(overrides: Partial<Handoff>, commit?: string): Handoff {
  return makeHandoff({
    status: 'ready_for_review',
    result: {
      status: 'complete',
      decision: 'PROCEED',
      findings: {},
      context_summary: 'done',
      issues: [],
      artifacts: {
        findings: [],
        decisions: [],
        file_modifications: [
          { path: 'a.txt', change: 'modified' },
          { path: 'new.txt', change: 'added' },
        ],
      },
      ...(commit ? { commit } : {}),
    },
    ...overrides,
  });
}

describe('reviewDiffPlan (docs/contract.md §6, "Per-file review")', () => {
  let dir: string;
  let base: string;
  let fix: string;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agentsync-reviewdiff-'));
    git(dir, 'init', '-q', '-b', 'main');
    base = commitFile(dir, 'a.txt', 'one\n');
    git(dir, 'checkout', '-qb', 'fix');
    commitFile(dir, 'a.txt', 'two\n');
    fix = commitFile(dir, 'new.txt', 'new\n');
    git(dir, 'checkout', '-q', 'main');
    commitFile(dir, 'other.txt', 'main moved on\n');
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("the report's commit against its merge base with HEAD; an added file has no base side", () => {
    const plan = reviewDiffPlan(dir, reported({}, fix));
    assert.ok(plan.ok);
    assert.equal(plan.base, base);
    assert.equal(plan.head, fix);
    assert.deepEqual(plan.files[0].base, { commit: base, path: 'a.txt' });
    assert.deepEqual(plan.files[1].base, null);
    assert.equal(blobAt(dir, base, 'a.txt')?.toString(), 'one\n');
    assert.equal(blobAt(dir, fix, 'a.txt')?.toString(), 'two\n');
  });

  it('a commit HEAD already holds is diffed against its parent, never against itself', () => {
    git(dir, 'checkout', '-q', 'fix');
    try {
      const plan = reviewDiffPlan(dir, reported({}, fix));
      assert.ok(plan.ok);
      assert.notEqual(plan.base, plan.head);
      assert.equal(plan.base, git(dir, 'rev-parse', `${fix}^`));
    } finally {
      git(dir, 'checkout', '-q', 'main');
    }
  });

  it("without a commit, the worktree branch's tip; with neither, or a commit this clone lacks, no sides and why", () => {
    const bound = reviewDiffPlan(dir, reported({ worktree: { name: 'fix', branch: 'fix', commit: base } }));
    assert.ok(bound.ok);
    assert.equal(bound.head, fix);
    assert.match(bound.from, /worktree branch fix/);
    const none = reviewDiffPlan(dir, reported({}));
    assert.equal(none.ok, false);
    assert.match(!none.ok ? none.why : '', /names no commit and the handoff has no worktree/);
    assert.ok(none.files.every((f) => f.base === null && f.head === null));
    const missing = reviewDiffPlan(dir, reported({}, 'b'.repeat(40)));
    assert.match(!missing.ok ? missing.why : '', /is not in this clone; fetch it/);
  });
});
