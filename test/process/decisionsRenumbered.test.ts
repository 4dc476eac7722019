// decisions.md after an archive id collision (docs/contract.md §8): a handoff archived as merged in the pulling clone
// comes back under a new id when the upstream published another handoff under its id. Its decisions.md line must then
// name its new id: the old line would say the published (open) handoff was merged.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { handoffsFileSchema, type Handoff } from '../../src/core/domain/handoffSchema';
import { git, gitOk, runCliIn, runCliSync, tempWorkspace } from './processHarness';

function cli(dir: string, ...args: string[]): { ok: boolean; data?: Record<string, unknown> } {
  return JSON.parse(runCliIn(dir, ['--json', ...args]).stdout) as { ok: boolean; data?: Record<string, unknown> };
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

/** decisions.md's data lines naming `id` (its second column). */
function decisionsOf(dir: string, id: string): string[] {
  const text = fs.readFileSync(path.join(dir, 'decisions.md'), 'utf8');
  return text.split('\n').filter((l) => l.split(' | ')[1] === id);
}

describe('decisions.md after an archive id collision (real git: bare remote, two clones, pull)', function () {
  this.timeout(180_000);
  let top = '';
  afterEach(function () {
    if (this.currentTest?.state === 'passed') fs.rmSync(top, { recursive: true, force: true });
  });

  it('the archived handoff that comes back renumbered has its decisions.md line under its new id, and the old id none', () => {
    top = tempWorkspace('decisions-renumbered');
    const origin = path.join(top, 'origin.git');
    gitOk(top, 'init', '-q', '--bare', '-b', 'main', origin);
    const c1 = path.join(top, 'c1');
    const c2 = path.join(top, 'c2');
    gitOk(top, 'clone', '-q', origin, c1);
    runCliSync(['--dir', c1, 'init', '--git']);
    fs.writeFileSync(path.join(c1, '.agentsync.json'), JSON.stringify({ archive: { after_days: 0 } }));
    commitAll(c1, 'init');
    gitOk(c1, 'push', '-q', 'origin', 'HEAD:main');
    gitOk(top, 'clone', '-q', origin, c2);
    runCliSync(['--dir', c2, 'init', '--git']);

    const published = create(c1, 'published by clone 1');
    commitAll(c1, 'c1');
    gitOk(c1, 'push', '-q', 'origin', 'HEAD:main');

    const done = create(c2, 'finished and archived in clone 2, never pushed');
    for (const [verb, agent] of [
      ['claim', 'claude'],
      ['complete', 'claude'],
      ['approve', 'copilot'],
      ['merge', 'copilot'],
    ]) {
      assert.ok(cli(c2, verb, done.handoff_id, '--agent', agent).ok, verb);
    }
    create(c2, 'the next write, which archives the first');
    assert.equal(decisionsOf(c2, done.handoff_id).length, 1, 'merged: one decisions.md line');
    commitAll(c2, 'c2');
    const pull = git(c2, 'pull', '--no-rebase', '--no-edit', 'origin', 'main');
    assert.equal(pull.status, 0, pull.out);
    const store = handoffsFileSchema.parse(JSON.parse(fs.readFileSync(path.join(c2, '.agentsync/handoffs.json'), 'utf8')));
    const back = store.handoffs.find((h) => h.uid === done.uid)!;
    assert.equal(published.handoff_id, done.handoff_id, 'the collision this test is about');
    assert.notEqual(back.handoff_id, done.handoff_id);

    create(c2, 'a write after the pull (it joins the merged record, and repairs decisions.md)');
    assert.deepEqual(decisionsOf(c2, done.handoff_id), [], `${done.handoff_id} now names the open published handoff`);
    const lines = decisionsOf(c2, back.handoff_id);
    assert.equal(lines.length, 1, lines.join('\n'));
    assert.match(lines[0], / \| copilot \| finished and archived in clone 2, never pushed \| .* \| merged \| /);
  });
});
