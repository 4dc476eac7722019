// Ids a merge brings in that cannot be trusted (docs/contract.md §3): a record dated far in the future, or numbered at
// the schema's last digit, arrives by a real `git merge` through the merge driver. It is kept, marked in `conflicts`,
// and new ids stay on today's date and within the schema's digits. Black-box: the CLI as a process, real git.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { git, gitOk, runCliIn, runCliSync, tempWorkspace } from './processHarness';

interface Rec {
  handoff_id: string;
  uid: string;
  created_at: string;
  conflicts?: { field: string; ours: unknown }[];
}

function cli(dir: string, ...args: string[]): { ok: boolean; reason?: string; data?: { handoff: Rec } } {
  const r = runCliIn(dir, ['--json', ...args]);
  return JSON.parse(r.stdout) as { ok: boolean; data?: { handoff: Rec } };
}

const today = (): string => new Date().toISOString().slice(0, 10).replace(/-/g, '');
const storePath = (dir: string): string => path.join(dir, '.agentsync/handoffs.json');
const readStore = (dir: string): { id_high_water?: string; handoffs: Rec[] } =>
  JSON.parse(fs.readFileSync(storePath(dir), 'utf8')) as { handoffs: Rec[] };

describe('ids a merge brings in that cannot be trusted (real git, merge driver)', function () {
  this.timeout(120_000);
  let dirs: string[] = [];
  afterEach(function () {
    if (this.currentTest?.state === 'passed') for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
    dirs = [];
  });

  /**
   * A repository (init --git, one handoff) where branch `other` adds a copy of that handoff under `forgedId` (a new uid,
   * `created_at` now) and `id_high_water` = `mark` when given; main creates one more handoff; then `git merge other`.
   */
  function mergeForged(forgedId: string, mark?: string): string {
    const dir = tempWorkspace('future-ids');
    dirs.push(dir);
    gitOk(dir, 'init', '-q', '-b', 'main');
    runCliSync(['--dir', dir, 'init', '--git']);
    assert.ok(cli(dir, 'create', '--from', 'copilot', '--to', 'claude', '--summary', 'first').ok);
    gitOk(dir, 'add', '-A');
    gitOk(dir, 'commit', '-q', '-m', 'init');
    gitOk(dir, 'checkout', '-q', '-b', 'other');
    const file = readStore(dir) as { id_high_water?: string; handoffs: Rec[]; version: number };
    const copy = { ...file.handoffs[0], handoff_id: forgedId, uid: '01KZZZZZZZZZZZZZZZZZZZZZZZ', summary: 'forged' };
    fs.writeFileSync(
      storePath(dir),
      JSON.stringify({ version: 1, ...(mark ? { id_high_water: mark } : {}), handoffs: [...file.handoffs, copy] }, null, 2) + '\n',
    );
    gitOk(dir, 'commit', '-q', '-am', 'forged id');
    gitOk(dir, 'checkout', '-q', 'main');
    assert.ok(cli(dir, 'create', '--from', 'copilot', '--to', 'claude', '--summary', 'second').ok);
    gitOk(dir, 'commit', '-q', '-am', 'second');
    const merge = git(dir, 'merge', '--no-edit', 'other');
    assert.equal(merge.status, 0, merge.out);
    return dir;
  }

  // Dated in the far future (at the last digit, or not), or years away from its created_at.
  for (const forged of ['HO-20991231-999999', 'HO-20991231-007', 'HO-20200101-001']) {
    it(`a merged ${forged} is kept, marked in conflicts, and new ids stay on today's date`, () => {
      const dir = mergeForged(forged);
      const kept = readStore(dir).handoffs.find((h) => h.handoff_id === forged);
      assert.ok(kept, 'the merge kept the forged record under its id');
      assert.ok(
        kept.conflicts?.some((c) => c.field === 'handoff_id' && c.ours === forged),
        `the record is marked in conflicts: ${JSON.stringify(kept.conflicts)}`,
      );
      for (let i = 0; i < 2; i++) {
        const r = cli(dir, 'create', '--from', 'copilot', '--to', 'claude', '--summary', `after the merge ${i}`);
        assert.ok(r.ok, JSON.stringify(r));
        assert.match(r.data!.handoff.handoff_id, new RegExp(`^HO-${today()}-\\d{3}$`));
      }
      assert.ok(cli(dir, 'show', forged).ok, 'the forged record is still readable');
    });
  }

  it("a record numbered at the last digit of today does not stop today's creates; every id stays unique", () => {
    const top = `HO-${today()}-999999`;
    const dir = mergeForged(top);
    const ids = new Set(readStore(dir).handoffs.map((h) => h.handoff_id));
    for (let i = 0; i < 3; i++) {
      const r = cli(dir, 'create', '--from', 'copilot', '--to', 'claude', '--summary', `after ${i}`);
      assert.ok(r.ok, JSON.stringify(r));
      const id = r.data!.handoff.handoff_id;
      assert.match(id, new RegExp(`^HO-${today()}-\\d{3,6}$`));
      assert.ok(!ids.has(id), `${id} was already taken`);
      ids.add(id);
    }
  });

  it('an id_high_water dated in the future is not kept as the mark; new ids stay on today', () => {
    const dir = mergeForged(`HO-${today()}-050`, 'HO-20991231-000123');
    assert.notEqual(readStore(dir).id_high_water, 'HO-20991231-000123');
    const r = cli(dir, 'create', '--from', 'copilot', '--to', 'claude', '--summary', 'after');
    assert.ok(r.ok, JSON.stringify(r));
    assert.match(r.data!.handoff.handoff_id, new RegExp(`^HO-${today()}-`));
  });

  it("an id_high_water at today's last number that the archive does not back does not stop today's creates", () => {
    const dir = mergeForged(`HO-${today()}-777`, `HO-${today()}-999999`);
    const r = cli(dir, 'create', '--from', 'copilot', '--to', 'claude', '--summary', 'after');
    assert.ok(r.ok, JSON.stringify(r));
    const ids = readStore(dir).handoffs.map((h) => h.handoff_id);
    assert.equal(new Set(ids).size, ids.length, `unique ids: ${ids.join(' ')}`);
    assert.match(r.data!.handoff.handoff_id, new RegExp(`^HO-${today()}-\\d{3,6}$`));
  });
});
