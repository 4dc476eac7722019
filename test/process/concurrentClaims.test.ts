// Many real `agentsync` processes on one workspace at the same moment (docs/contract.md §12): exactly one claim wins,
// and concurrent creates lose nothing and never reuse an id.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { handoffsFileSchema, type Handoff } from '../../src/core/domain/handoffSchema';
import { WorkspaceLayout } from '../../src/core/workspace/workspaceLayout';
import { auditLines, FIXTURES, jsonLines, runCliSync, startChild, tempWorkspace, type Child } from './processHarness';

const BARRIER = path.join(FIXTURES, 'barrierCli.js');

/** Starts `count` children that each wait for one start file, releases them together, and waits for all to exit. */
async function runTogether(
  count: number,
  argsFor: (i: number) => string[],
  times = 1,
): Promise<{ children: Child[]; codes: (number | null)[]; goSpreadMs: number }> {
  const startFile = path.join(tempWorkspace('barrier'), 'start');
  const children = Array.from({ length: count }, (_, i) => startChild(BARRIER, [startFile, String(times), '--', ...argsFor(i)]));
  await Promise.all(children.map((c, i) => c.waitForLine((l) => l === 'READY', 30_000, `child ${i} READY`)));
  fs.writeFileSync(startFile, 'go');
  const exits = await Promise.all(children.map((c) => c.exited));
  const goTimes = children.map((c) => Number(c.lines.find((l) => l.startsWith('GO '))!.slice(3)));
  fs.rmSync(path.dirname(startFile), { recursive: true, force: true });
  return { children, codes: exits.map((e) => e.code), goSpreadMs: Math.max(...goTimes) - Math.min(...goTimes) };
}

function readStore(layout: WorkspaceLayout): Handoff[] {
  const parsed = handoffsFileSchema.safeParse(JSON.parse(fs.readFileSync(layout.handoffsFile, 'utf8')));
  assert.ok(parsed.success, `handoffs.json must match the schema: ${!parsed.success && parsed.error.message}`);
  return parsed.data.handoffs;
}

describe('concurrent processes on one workspace', function () {
  this.timeout(120_000);

  it('16 processes claiming one handoff together: exactly one wins, 15 get already_claimed naming the winner', async () => {
    const dir = tempWorkspace('claims');
    const layout = new WorkspaceLayout(dir);
    runCliSync(['--dir', dir, 'init']);
    const agents = Array.from({ length: 16 }, (_, i) => `agent-${String(i + 1).padStart(2, '0')}`);
    // Humans may claim any handoff, so all 16 are entitled to it and only the race decides.
    const config = JSON.parse(fs.readFileSync(layout.configFile, 'utf8')) as Record<string, unknown>;
    fs.writeFileSync(layout.configFile, JSON.stringify({ ...config, humans: agents }, null, 2));
    const created = JSON.parse(
      runCliSync(['--dir', dir, '--json', 'create', '--from', 'codex', '--to', 'claude', '--summary', 'the one to race for']),
    ) as {
      data: { handoff: { handoff_id: string } };
    };
    const id = created.data.handoff.handoff_id;

    const { children, codes, goSpreadMs } = await runTogether(16, (i) => ['--dir', dir, '--json', 'claim', id, '--agent', agents[i]]);
    console.log(`      (16 claimers released within ${goSpreadMs.toFixed(1)} ms of each other)`);

    const responses = children.map((c, i) => {
      const out = jsonLines(c.lines);
      assert.equal(out.length, 1, `child ${i} prints one JSON response; stdout ${c.lines.join('|')} stderr ${c.stderr}`);
      return out[0];
    });
    const winners = responses.map((r, i) => ({ r, i })).filter(({ r }) => r.ok === true);
    assert.equal(winners.length, 1, `exactly one ok response, got ${winners.length}`);
    const winner = agents[winners[0].i];
    assert.equal(codes[winners[0].i], 0);
    const losers = responses.filter((r) => r.ok !== true);
    assert.equal(losers.length, 15);
    for (const r of losers) {
      assert.equal(r.reason, 'already_claimed', JSON.stringify(r));
      assert.equal(r.claimedBy, winner);
      assert.equal(typeof r.message, 'string');
    }
    assert.deepEqual(codes.filter((c) => c === 1).length, 15, 'every refused claimer exits 1');

    const h = readStore(layout).find((x) => x.handoff_id === id)!;
    assert.equal(h.status, 'in_progress');
    assert.equal(h.claimed_by, winner);
    assert.equal(h.rev, 2);
    const claims = h.state_history.filter((e) => e.status === 'in_progress');
    assert.equal(claims.length, 1, 'state_history has exactly one in_progress entry');
    assert.equal(claims[0].agent, winner);

    const audit = auditLines(layout).filter((e) => e.action === 'claimHandoff');
    assert.equal(audit.filter((e) => !e.refused).length, 1);
    assert.equal(audit.filter((e) => e.refused && e.reason === 'already_claimed').length, 15);
    assert.ok(!fs.existsSync(layout.lockFile), 'the lock is released at the end');
    fs.rmSync(dir, { recursive: true, force: true }); // kept for inspection when an assertion fails
  });

  it('8 processes creating 25 handoffs each at once: 200 handoffs, unique ids and uids, 200 create audit lines', async () => {
    const dir = tempWorkspace('creates');
    const layout = new WorkspaceLayout(dir);
    runCliSync(['--dir', dir, 'init']);

    const { children, codes } = await runTogether(
      8,
      (w) => ['--dir', dir, '--json', 'create', '--from', 'codex', '--to', 'claude', '--summary', `writer ${w} item {i}`],
      25,
    );
    assert.deepEqual(codes, Array(8).fill(0), `every writer exits 0; stderr: ${children.map((c) => c.stderr).join('')}`);

    const answered = children.flatMap((c) => jsonLines(c.lines));
    assert.equal(answered.length, 200);
    assert.ok(answered.every((r) => r.ok === true));
    const answeredIds = answered.map((r) => (r.data as { handoff: Handoff }).handoff.handoff_id);

    const handoffs = readStore(layout);
    assert.equal(handoffs.length, 200);
    assert.equal(new Set(handoffs.map((h) => h.handoff_id)).size, 200, 'handoff_id unique');
    assert.equal(new Set(handoffs.map((h) => h.uid)).size, 200, 'uid unique');
    assert.deepEqual(
      [...answeredIds].sort(),
      handoffs.map((h) => h.handoff_id).sort(),
      'every id a writer was given is in the store, and no other',
    );
    const summaries = new Set(handoffs.map((h) => h.summary));
    for (let w = 0; w < 8; w++)
      for (let i = 1; i <= 25; i++) assert.ok(summaries.has(`writer ${w} item ${i}`), `writer ${w} item ${i} stored`);

    const creates = auditLines(layout).filter((e) => e.action === 'createHandoff' && !e.refused);
    assert.equal(creates.length, 200);
    assert.equal(new Set(creates.map((e) => e.uid)).size, 200);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
