// A writer killed with SIGKILL at random moments, 200+ times on one growing workspace (docs/contract.md §12: "the store
// always parses after a kill at any point", "nothing lost"). After every kill: handoffs.json parses and matches
// the schema, no record an earlier check or answer saw is gone or older, and the next writer gets the lock
// (the dead writer's lock is broken) and makes progress. Requests left unanswered by a kill are sent again by
// the next writer with the same request_id and must end up applied exactly once.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { handoffsFileSchema, type Handoff } from '../../src/core/domain/handoffSchema';
import { WorkspaceLayout } from '../../src/core/workspace/workspaceLayout';
import { FIXTURES, runCliSync, startChild, tempWorkspace, type Child } from './processHarness';

const KILLS = 200;
/** Longest wait between "go" (or the first answer) and the kill: a few cycles of 5 requests (each a few ms). */
const MAX_KILL_DELAY_MS = 80;
/** Writers started ahead of their turn. */
const PRELOADED = 2;
const CRASH_LOOP = path.join(FIXTURES, 'crashLoop.js');

interface Tally {
  killedHoldingLock: number;
  killedWithStoreTemp: number;
  killedWithDerivedTemp: number;
  killedInLockBreak: number;
  killedWithTornLedger: number;
  killedBeforeAnyAnswer: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function readValidStore(layout: WorkspaceLayout, when: string): Handoff[] {
  const text = fs.readFileSync(layout.handoffsFile, 'utf8');
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    assert.fail(`${when}: handoffs.json does not parse (${(e as Error).message}); ${text.length} bytes`);
  }
  const parsed = handoffsFileSchema.safeParse(raw);
  assert.ok(parsed.success, `${when}: handoffs.json does not match the schema: ${!parsed.success && parsed.error.message.slice(0, 500)}`);
  const ids = parsed.data.handoffs.map((h) => h.handoff_id);
  assert.equal(new Set(ids).size, ids.length, `${when}: duplicate handoff_id`);
  return parsed.data.handoffs;
}

function tempFiles(dir: string): string[] {
  return fs.readdirSync(dir).filter((n) => n.endsWith('.tmp'));
}

describe('crash safety: SIGKILL at random moments', function () {
  this.timeout(420_000); // 200 kills: ~60 s on a quiet machine, over 250 s on a loaded one
  const live = new Set<Child>();
  // A failed assertion must not leave writers waiting for "go" (they would keep mocha alive).
  afterEach(() => {
    for (const c of live) c.proc.kill('SIGKILL');
  });

  it(`the store stays valid, loses nothing and stays writable across ${KILLS} kills`, async () => {
    const dir = tempWorkspace('crash');
    const layout = new WorkspaceLayout(dir);
    runCliSync(['--dir', dir, 'init']);
    // Hundreds of codex → claude handoffs with no human: past the pair limit (docs/contract.md §6) they would wait
    // blocked for a human, and this test is about surviving kills, not about the limit.
    const configFile = path.join(dir, '.agentsync.json');
    const config = JSON.parse(fs.readFileSync(configFile, 'utf8')) as Record<string, unknown>;
    fs.writeFileSync(configFile, JSON.stringify({ ...config, passOver: { defaults: { max_handoffs_per_pair_per_hour: 10_000 } } }));
    const control = tempWorkspace('crash-control');

    const seenRev = new Map<string, number>(); // uid → highest rev an answer or a check has seen
    const sent = new Map<string, Record<string, unknown>>(); // request_id → request, for everything ever sent
    const answeredOk = new Set<string>();
    const resentIds = new Set<string>();
    let pending: Record<string, unknown>[] = []; // sent but unanswered when the last writer died
    const tally: Tally = {
      killedHoldingLock: 0,
      killedWithStoreTemp: 0,
      killedWithDerivedTemp: 0,
      killedInLockBreak: 0,
      killedWithTornLedger: 0,
      killedBeforeAnyAnswer: 0,
    };
    const knownTemps = new Set<string>();
    const started = Date.now();

    const spawnWriter = (i: number): Child => {
      const c = startChild(CRASH_LOOP, [dir, path.join(control, `resend-${i}.json`)], { ipc: true });
      live.add(c);
      void c.exited.then(() => live.delete(c));
      return c;
    };

    /** Reads a finished writer's output into the bookkeeping; returns how many requests it got answered. */
    const absorb = (child: Child, resent: Record<string, unknown>[], label: string): number => {
      const unanswered = new Map(resent.map((r) => [r.request_id as string, r]));
      let answers = 0;
      for (const line of child.lines) {
        const [kind, id, ...rest] = line.split(' ');
        if (kind === 'SEND') {
          const request = JSON.parse(line.slice(5)) as Record<string, unknown>;
          sent.set(request.request_id as string, request);
          unanswered.set(request.request_id as string, request);
        } else if (kind === 'ACK') {
          const [uid, rev] = rest;
          answeredOk.add(id);
          unanswered.delete(id);
          seenRev.set(uid, Math.max(seenRev.get(uid) ?? 0, Number(rev)));
          answers++;
        } else if (kind === 'RESENT') {
          assert.equal(rest[0], 'true', `${label}: a request resent after a kill must be answered ok: ${line}`);
          answeredOk.add(id);
          resentIds.add(id);
          unanswered.delete(id);
          answers++;
        } else if (kind === 'NACK') {
          assert.fail(`${label}: the writer's request was refused: ${line}; stderr ${child.stderr}`);
        }
      }
      pending = [...unanswered.values()];
      return answers;
    };

    const checkStore = (label: string): Handoff[] => {
      const handoffs = readValidStore(layout, label);
      const byUid = new Map(handoffs.map((h) => [h.uid!, h]));
      for (const [uid, rev] of seenRev) {
        const h = byUid.get(uid);
        assert.ok(h, `${label}: handoff ${uid} (seen at rev ${rev}) is gone`);
        assert.ok((h.rev ?? 0) >= rev, `${label}: handoff ${uid} went back from rev ${rev} to ${h.rev}`);
      }
      for (const h of handoffs) seenRev.set(h.uid!, Math.max(seenRev.get(h.uid!) ?? 0, h.rev ?? 0));
      return handoffs;
    };

    // Writers load their modules ahead of time (a few at once) so the kills come fast.
    const ready: Child[] = Array.from({ length: PRELOADED }, (_, k) => spawnWriter(k));
    for (let i = 0; i < KILLS; i++) {
      const child = ready.shift()!;
      const label = `kill ${i + 1}/${KILLS}`;
      await child.waitForLine((l) => l === 'READY', 30_000, `${label}: writer READY`);
      const resent = pending;
      fs.writeFileSync(path.join(control, `resend-${i}.json`), JSON.stringify(resent));
      child.proc.send({ cycles: null });
      ready.push(spawnWriter(i + PRELOADED));
      if (i % 2 === 1) {
        // Every other writer must first show progress: the previous writer died, maybe holding the lock.
        await child.waitForLine((l) => /^(ACK|RESENT|NACK) /.test(l), 15_000, `${label}: first answer (is the dead writer's lock broken?)`);
      }
      await sleep(Math.random() * MAX_KILL_DELAY_MS); // the subject: a kill at a random moment
      child.proc.kill('SIGKILL');
      const exit = await child.exited;
      assert.equal(exit.signal, 'SIGKILL', `${label}: the writer died on its own (code ${exit.code}): ${child.stderr}`);

      // Which phase did the kill land in? The leftovers tell.
      if (fs.existsSync(layout.lockFile)) tally.killedHoldingLock++;
      if (fs.existsSync(`${layout.lockFile}.break`)) tally.killedInLockBreak++;
      const temps = [...tempFiles(layout.dataDir), ...tempFiles(dir)].filter((n) => !knownTemps.has(n));
      for (const t of temps) knownTemps.add(t);
      if (temps.some((t) => t.startsWith('.handoffs.json.'))) tally.killedWithStoreTemp++;
      if (temps.some((t) => !t.startsWith('.handoffs.json.'))) tally.killedWithDerivedTemp++;
      const ledger = fs.existsSync(layout.ledgerFile) ? fs.readFileSync(layout.ledgerFile) : Buffer.alloc(0);
      if (ledger.length > 0 && ledger[ledger.length - 1] !== 0x0a) tally.killedWithTornLedger++;

      if (absorb(child, resent, label) === 0) tally.killedBeforeAnyAnswer++;
      checkStore(label);
    }

    // A last writer runs a few full cycles to the end: the lock is still usable and released afterwards.
    const last = ready.shift()!;
    await last.waitForLine((l) => l === 'READY', 30_000, 'final writer READY');
    const resent = pending;
    fs.writeFileSync(path.join(control, `resend-${KILLS}.json`), JSON.stringify(resent));
    last.proc.send({ cycles: 3 });
    const lastExit = await last.exited;
    for (const c of ready) c.proc.kill('SIGKILL');
    assert.equal(lastExit.code, 0, `final writer: ${last.stderr}`);
    const lastAnswers = absorb(last, resent, 'final writer');
    assert.equal(lastAnswers, resent.length + 2 + 5 + 5, 'the final writer answers its resends and 3 cycles (2 + 5 + 5 requests)');
    assert.equal(pending.length, 0, 'the final writer answered everything');
    assert.ok(!fs.existsSync(layout.lockFile), 'the lock is released after a clean exit');
    const handoffs = checkStore('after the final writer');

    // Exactly once: every answered request is in exactly one history entry; no request is in two.
    const historyCount = new Map<string, number>();
    for (const h of handoffs)
      for (const e of h.state_history) if (e.request_id) historyCount.set(e.request_id, (historyCount.get(e.request_id) ?? 0) + 1);
    for (const id of sent.keys()) assert.ok((historyCount.get(id) ?? 0) <= 1, `request ${id} was applied ${historyCount.get(id)} times`);
    for (const id of answeredOk) assert.equal(historyCount.get(id), 1, `answered request ${id} is in the store exactly once`);

    const merged = handoffs.filter((h) => h.status === 'merged').length;
    const decisionLines = fs.existsSync(layout.decisionsFile)
      ? fs
          .readFileSync(layout.decisionsFile, 'utf8')
          .split('\n')
          .filter((l) => /\| HO-/.test(l)).length
      : 0;
    console.log(
      `      (${KILLS} kills in ${((Date.now() - started) / 1000).toFixed(1)} s; ${handoffs.length} handoffs, ` +
        `${fs.statSync(layout.handoffsFile).size} bytes; ` +
        `${sent.size} requests sent, ${answeredOk.size} answered, ${resentIds.size} resent after a kill)\n` +
        `      (kills that left: the lock ${tally.killedHoldingLock}, a store temp file ${tally.killedWithStoreTemp}, a derived-file temp ` +
        `${tally.killedWithDerivedTemp}, ` +
        `a lock-break guard ${tally.killedInLockBreak}, a torn ledger line ${tally.killedWithTornLedger}; kills before any answer ` +
        `${tally.killedBeforeAnyAnswer})\n` +
        `      (merged handoffs ${merged}, decisions.md lines ${decisionLines}; ${knownTemps.size} orphaned temp files left behind)`,
    );
    assert.ok(tally.killedHoldingLock > 0, 'some kills landed while the writer held the lock (else the test proves little)');
    assert.ok(resentIds.size > 0, 'some requests were cut off by a kill and resent');
    for (const d of [dir, control]) fs.rmSync(d, { recursive: true, force: true }); // kept for inspection on failure
  });
});
