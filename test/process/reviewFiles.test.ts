// Per-file review (docs/contract.md §6, "Per-file review") as the real processes do it: `agentsync review` lists the
// report's files with the git diff of each (the report's commit against its merge base with the reviewer's HEAD, in a
// real git repository), a reviewFiles request dropped into .agentsync/requests/ is answered by `agentsync watch --once`,
// and the CLI's --accept/--reject decide the rest; bad input is refused and changes nothing.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Handoff } from '../../src/core/domain/handoffSchema';
import { cliAt, gitOk, tempWorkspace } from './processHarness';

/** A repository on main with the receiver's work on branch fix (a.ts modified, b.ts added), main moved on since. */
function repository(): { ws: string; fix: string; base: string } {
  const ws = tempWorkspace('review');
  gitOk(ws, 'init', '-q', '-b', 'main');
  fs.mkdirSync(path.join(ws, 'src'));
  fs.writeFileSync(path.join(ws, 'src/a.ts'), 'export const a = 1;\n');
  gitOk(ws, 'add', '.');
  gitOk(ws, 'commit', '-qm', 'base');
  const base = gitOk(ws, 'rev-parse', 'HEAD').trim();
  gitOk(ws, 'checkout', '-qb', 'fix');
  fs.writeFileSync(path.join(ws, 'src/a.ts'), 'export const a = 2;\n');
  fs.writeFileSync(path.join(ws, 'src/b.ts'), 'export const b = 1;\n');
  gitOk(ws, 'add', '.');
  gitOk(ws, 'commit', '-qm', 'fix');
  const fix = gitOk(ws, 'rev-parse', 'HEAD').trim();
  gitOk(ws, 'checkout', '-q', 'main');
  fs.writeFileSync(path.join(ws, 'README.md'), 'moved on\n');
  gitOk(ws, 'add', '.');
  gitOk(ws, 'commit', '-qm', 'main moves on');
  assert.equal(cliAt(ws, ['init']).code, 0);
  return { ws, fix, base };
}

/** codex passes to claude, which returns it with a report listing the two files (and `commit` when given). */
function returnedWork(ws: string, commit?: string): string {
  const id = cliAt(ws, ['pass', '--agent', 'codex', '--to', 'claude', '--reason', 'fix', '--summary', 'Fix a', '--quiet']).out.trim();
  assert.match(id, /^HO-/);
  assert.equal(cliAt(ws, ['claim', id, '--agent', 'claude']).code, 0);
  const report = {
    status: 'complete',
    decision: 'PROCEED',
    context_summary: 'a fixed, b added',
    artifacts: {
      file_modifications: [
        { path: 'src/a.ts', change: 'modified' },
        { path: 'src/b.ts', change: 'added' },
      ],
    },
    ...(commit ? { commit } : {}),
  };
  const r = cliAt(ws, ['return', id, '--agent', 'claude', '--result', '-'], JSON.stringify(report));
  assert.equal(r.code, 0, r.err);
  return id;
}

function stored(ws: string, id: string): Handoff {
  const file = path.join(ws, '.agentsync/handoffs.json');
  return (JSON.parse(fs.readFileSync(file, 'utf8')) as { handoffs: Handoff[] }).handoffs.find((h) => h.handoff_id === id)!;
}

/** A request dropped into the drop zone (temp file, then rename) and answered by one `agentsync watch --once`. */
function dropped(
  ws: string,
  request: Record<string, unknown> & { request_id: string },
): { ok: boolean; reason?: string; data?: Record<string, unknown> } {
  const data = path.join(ws, '.agentsync');
  fs.writeFileSync(path.join(data, `.${request.request_id}.tmp`), JSON.stringify(request));
  fs.renameSync(path.join(data, `.${request.request_id}.tmp`), path.join(data, 'requests', `${request.request_id}.json`));
  assert.equal(cliAt(ws, ['watch', '--once']).code, 0);
  return JSON.parse(fs.readFileSync(path.join(data, 'responses', `${request.request_id}.json`), 'utf8')) as never;
}

describe('per-file review (process)', function () {
  this.timeout(180_000);
  const made: string[] = [];
  after(() => made.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

  it('agentsync review lists each file with its diff against the merge base; the drop zone and the CLI decide', () => {
    const { ws, fix, base } = repository();
    made.push(ws);
    const id = returnedWork(ws, fix);
    const listed = cliAt(ws, ['review', id]);
    assert.equal(listed.code, 0, listed.err);
    assert.match(
      listed.out,
      new RegExp(`changes: the report's commit ${fix.slice(0, 12)}; diffs against the merge base ${base.slice(0, 12)}`),
    );
    assert.match(listed.out, new RegExp(`git diff ${base} ${fix} -- src/a\\.ts`));
    assert.match(listed.out, new RegExp(`git diff <none> ${fix} -- src/b\\.ts`), 'an added file has no base side');

    const first = dropped(ws, { action: 'reviewFiles', request_id: 'review-1', handoffId: id, agent: 'codex', accept: ['src/a.ts'] });
    assert.equal(first.ok, true, JSON.stringify(first));
    assert.equal(first.data!.outcome, 'pending');
    const unknown = dropped(ws, { action: 'reviewFiles', request_id: 'review-2', handoffId: id, agent: 'codex', accept: ['src/c.ts'] });
    assert.equal(unknown.reason, 'invalid_request');

    const before = fs.readFileSync(path.join(ws, '.agentsync/handoffs.json'));
    const receiver = cliAt(ws, ['review', id, '--agent', 'claude', '--accept', 'src/b.ts']);
    assert.equal(receiver.code, 1);
    assert.match(receiver.err, /not_assigned: claude may not review the files of/);
    const noReason = cliAt(ws, ['review', id, '--agent', 'codex', '--reject', 'src/b.ts']);
    assert.equal(noReason.code, 2);
    assert.match(noReason.err, /--reject src\/b\.ts: give <path>=<reason>/);
    const flip = cliAt(ws, ['review', id, '--agent', 'codex', '--reject', 'src/a.ts=on second thought']);
    assert.equal(flip.code, 1);
    assert.match(flip.err, /invalid_request: src\/a\.ts was already accepted by codex/);
    assert.deepEqual(fs.readFileSync(path.join(ws, '.agentsync/handoffs.json')), before, 'nothing changed');

    const rejected = cliAt(ws, ['review', id, '--agent', 'codex', '--reject', 'src/b.ts=needs a test, and a doc']);
    assert.equal(rejected.code, 0, rejected.err);
    assert.match(rejected.out, /reviewed src\/b\.ts \(files rejected: returned for revision\)/);
    const h = stored(ws, id);
    assert.equal(h.status, 'in_progress');
    assert.deepEqual(
      h.result!.artifacts!.file_modifications.map((f) => [f.path, f.review?.decision, f.review?.reason]),
      [
        ['src/a.ts', 'accepted', undefined],
        ['src/b.ts', 'rejected', 'needs a test, and a doc'],
      ],
    );
    assert.equal(fs.readFileSync(path.join(ws, 'src/a.ts'), 'utf8'), 'export const a = 1;\n', 'no worktree file changed');
  });

  it('without a commit or a worktree, review lists the files without a diff and says why', () => {
    const { ws } = repository();
    made.push(ws);
    const id = returnedWork(ws);
    const listed = cliAt(ws, ['review', id]);
    assert.equal(listed.code, 0, listed.err);
    assert.match(listed.out, /no diff: HO-\S+'s report names no commit and the handoff has no worktree/);
    assert.match(listed.out, /src\/a\.ts/);
    assert.doesNotMatch(listed.out, /git diff/);
    const json = JSON.parse(cliAt(ws, ['--json', 'review', id]).out) as { data: { files: { base: unknown; head: unknown }[] } };
    assert.ok(
      json.data.files.every((f) => f.base === null && f.head === null),
      'no side to diff, so never a file against itself',
    );
    const ok = cliAt(ws, ['review', id, '--agent', 'codex', '--accept', 'src/a.ts,src/b.ts']);
    assert.equal(ok.code, 0, ok.err);
    assert.match(ok.out, /every file accepted: approved/);
    assert.equal(stored(ws, id).status, 'approved');
  });
});
