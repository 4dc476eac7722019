// A stock MCP SDK client listing a 10,000-handoff store through `agentsync mcp` (docs/agentsync-documentation.md,
// "Answers for agents"): every answer arrives (the SDK's client refuses a message over its buffer), every tool result
// is at most 64 KB, and following next_cursor reaches all 10,000 handoffs exactly once.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { CLI, FIXTURES, initWorkspace } from './processHarness';

const MAX = 64 * 1024;
const N = 10_000;

interface Page {
  count: number;
  total: number;
  next_cursor?: string;
  handoffs: Record<string, unknown>[];
}

describe('agentsync mcp on a 10,000-handoff store (a stock MCP SDK client)', function () {
  this.timeout(300_000);
  let client: Client;
  let dir: string;

  before(async () => {
    dir = initWorkspace('mcp-paging');
    const seeded = spawnSync(process.execPath, [path.join(FIXTURES, 'seedOpenStore.mjs'), dir, String(N)], { encoding: 'utf8' });
    assert.equal(seeded.status, 0, seeded.stderr);
    client = new Client({ name: 'agentsync-paging-test', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, '--dir', dir, 'mcp'], stderr: 'ignore' }));
  });
  after(async () => client?.close());

  async function call(args: Record<string, unknown>): Promise<{ page: Page; bytes: number }> {
    const result = (await client.callTool({ name: 'listHandoffs', arguments: args })) as CallToolResult;
    const bytes = Buffer.byteLength(JSON.stringify(result));
    assert.ok(bytes <= MAX, `a tool result of ${bytes} bytes (over ${MAX}) for ${JSON.stringify(args)}`);
    assert.equal(result.isError, false, JSON.stringify(result).slice(0, 500));
    const envelope = JSON.parse((result.content[0] as { text: string }).text) as { ok: boolean; data: Page };
    return { page: envelope.data, bytes };
  }

  it('the first answer is a page of compact records, with the total and a cursor', async () => {
    const { page } = await call({});
    assert.equal(page.total, N);
    assert.equal(page.count, 50);
    assert.ok(page.next_cursor);
    assert.deepEqual(Object.keys(page.handoffs[0]).sort(), ['age', 'claimed_by', 'handoff_id', 'owners', 'status', 'summary']);
  });

  it('paging through with next_cursor reaches every handoff exactly once, each page at most 64 KB', async () => {
    const seen = new Map<string, number>();
    let cursor: string | undefined;
    let pages = 0;
    let biggest = 0;
    do {
      const { page, bytes } = await call({ limit: 1000, ...(cursor ? { cursor } : {}) });
      biggest = Math.max(biggest, bytes);
      for (const h of page.handoffs) seen.set(h.handoff_id as string, (seen.get(h.handoff_id as string) ?? 0) + 1);
      cursor = page.next_cursor;
      pages++;
      assert.ok(pages <= N, 'paging does not end');
    } while (cursor);
    assert.equal(seen.size, N);
    assert.deepEqual(
      [...seen.values()].filter((n) => n !== 1),
      [],
    );
    assert.ok(pages > 1, `${pages} pages, the largest ${biggest} bytes`);
  });

  it('full records on request: a page cut to fit 64 KB says so, and its cursor goes on from the last record kept', async () => {
    const { page } = await call({ full: true, limit: 500 });
    assert.ok(page.count < 500 && page.count > 0, `${page.count} full records`);
    assert.ok('state_history' in page.handoffs[0]);
    const next = await call({ full: true, limit: 500, cursor: page.next_cursor });
    assert.notEqual(next.page.handoffs[0].handoff_id, page.handoffs[page.count - 1].handoff_id);
  });
});
