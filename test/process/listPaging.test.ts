// listHandoffs a page at a time (docs/contract.md §8: `limit`, `cursor`, `next_cursor`) through the CLI: `list --limit
// --cursor` reaches every handoff once, `request -` takes the same parameters, and without them the answer keeps
// its shape (every match, no paging fields) for the scripts that rely on it.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { FIXTURES, initWorkspace, runCliIn } from './processHarness';

interface ListData {
  count: number;
  total?: number;
  next_cursor?: string;
  handoffs: { handoff_id: string; state_history?: unknown[] }[];
}

describe('listHandoffs in pages (CLI)', function () {
  this.timeout(120_000);
  let ws: string;
  before(() => {
    ws = initWorkspace('list-paging');
    const seeded = spawnSync(process.execPath, [path.join(FIXTURES, 'seedOpenStore.mjs'), ws, '120'], { encoding: 'utf8' });
    assert.equal(seeded.status, 0, seeded.stderr);
  });

  it('list --limit 50 --cursor …: three pages, every handoff once, the cursor on stderr', () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const r = runCliIn(ws, ['--json', 'list', '--limit', '50', ...(cursor ? ['--cursor', cursor] : [])]);
      assert.equal(r.code, 0, r.stderr);
      const data = (JSON.parse(r.stdout) as { data: ListData }).data;
      assert.equal(data.total, 120);
      seen.push(...data.handoffs.map((h) => h.handoff_id));
      cursor = data.next_cursor;
      pages++;
    } while (cursor && pages < 10);
    assert.equal(pages, 3);
    assert.equal(new Set(seen).size, 120);
    assert.equal(seen.length, 120);
    const human = runCliIn(ws, ['list', '--limit', '2']);
    assert.equal(human.stdout.trim().split('\n').length, 2);
    assert.match(human.stderr, /120 match in all; the next page: the same command with --cursor [0-9A-Z]{26}/);
  });

  it('request - with limit and cursor pages the same way; a bad cursor is refused with what to do', () => {
    const first = JSON.parse(runCliIn(ws, ['request', '-'], JSON.stringify({ action: 'listHandoffs', limit: 100 })).stdout) as {
      data: ListData;
    };
    assert.equal(first.data.count, 100);
    const rest = JSON.parse(
      runCliIn(ws, ['request', '-'], JSON.stringify({ action: 'listHandoffs', limit: 100, cursor: first.data.next_cursor })).stdout,
    ) as { data: ListData };
    assert.equal(rest.data.count, 20);
    assert.equal(rest.data.next_cursor, undefined);
    const bad = runCliIn(ws, ['request', '-'], JSON.stringify({ action: 'listHandoffs', cursor: 'page-2' }));
    assert.equal(bad.code, 1);
    assert.match(bad.stdout, /"reason":"invalid_request".*cursor is the next_cursor of a previous listHandoffs answer/);
  });

  it('without limit or cursor the answer keeps its shape: every full record, no paging fields', () => {
    const data = (JSON.parse(runCliIn(ws, ['--json', 'list']).stdout) as { data: ListData }).data;
    assert.equal(data.count, 120);
    assert.equal(data.handoffs.length, 120);
    assert.ok(Array.isArray(data.handoffs[0].state_history));
    assert.deepEqual(Object.keys(data).sort(), ['count', 'handoffs']);
  });
});
