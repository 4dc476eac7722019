// The archive under SIGKILL (docs/agentsync-documentation.md, "The archive"): a process archiving a store full of
// finished handoffs (200 records into eight month files) is killed at a random moment, 200 times. After
// each kill the next write repairs what the kill left, and then every handoff is in exactly one of handoffs.json or
// the archive: none lost, none twice, no line cut short. Each kill restores the same store first, so every job
// archives the same records; the kill window adapts so that most kills fall inside the archive pass.
// Also: `agentsync show` and `list --archived` find what a real process archived.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { HandoffStore } from '../../src/core/store/handoffStore';
import { newUid } from '../../src/core/domain/handoffIds';
import { handoffsFileSchema, type Handoff } from '../../src/core/domain/handoffSchema';
import { RequestDispatcher } from '../../src/core/requests/requestDispatcher';
import { storeHashOfBytes } from '../../src/core/store/storeHash';
import { StoreSnapshot } from '../../src/core/store/storeSnapshot';
import { stampFor } from '../../src/core/store/storeStamp';
import { initWorkspace } from '../../src/core/workspace/workspaceInit';
import { storeSeed } from '../../src/core/store/storeReader';
import { WorkspaceLayout } from '../../src/core/workspace/workspaceLayout';
import { FIXTURES, runCliSync, startChild, tempWorkspace, type Child } from './processHarness';

const KILLS = 200;
const LANES = 2;
const PER_MONTH = 25;
const MONTHS = 8;
const OPEN = 20;
const PRELOADED = 2;
const JOB = path.join(FIXTURES, 'archiveJob.js');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function record(i: number, status: Handoff['status'], day: Date): Handoff {
  const at = day.toISOString();
  const ymd = at.slice(0, 10).replace(/-/g, '');
  return {
    handoff_id: `HO-${ymd}-${String((i % 100) + 1).padStart(3, '0')}`,
    task_id: `task-${i}`,
    from_agent: 'codex',
    to_agents: ['claude'],
    owner_mode: 'single',
    status,
    required_capabilities: [],
    summary: `archive crash test handoff ${i}: some text so that a line takes a few hundred bytes`,
    notes: 'x'.repeat(i % 200),
    no_handoff_reason: null,
    files: [`src/f${i}.ts`],
    branch: null,
    commit: null,
    prior_attempts: 0,
    created_at: at,
    updated_at: at,
    state_history: [
      { status: 'queued', agent: 'codex', timestamp: at, reason: 'created' },
      ...(status === 'queued' ? [] : [{ status, agent: 'codex', timestamp: at, reason: 'done' }]),
    ],
    uid: newUid(day.getTime()),
    rev: 2,
  };
}

interface Pristine {
  bytes: Buffer;
  stamp: string;
  finished: Set<string>;
  open: Set<string>;
}

interface Tally {
  finished: number;
  inBoth: number;
  torn: number;
  archiveOnly: number;
  beforeArchive: number;
}

/** Finished handoffs spread over past months, plus a few open ones: the bytes of the store and its stamp. */
function pristineStore(): Pristine {
  const handoffs: Handoff[] = [];
  for (let m = 0; m < MONTHS; m++) {
    for (let k = 0; k < PER_MONTH; k++) {
      handoffs.push(record(k, k % 7 === 6 ? 'escalated' : 'merged', new Date(Date.UTC(2025, m, 1 + (k % 27), 10, k))));
    }
  }
  const open = Array.from({ length: OPEN }, (_, k) => record(k, 'queued', new Date(Date.UTC(2026, 0, 2, 9, k))));
  const file = handoffsFileSchema.parse({ version: 1, handoffs: [...handoffs, ...open] });
  const bytes = Buffer.from(new StoreSnapshot(file).serialize());
  const stamp = stampFor(storeHashOfBytes(bytes).hash);
  assert.ok(stamp, 'a stamp key is available (the child then trusts the store and starts archiving at once)');
  return { bytes, stamp, finished: new Set(handoffs.map((h) => h.uid!)), open: new Set(open.map((h) => h.uid!)) };
}

interface Leftovers {
  archiveLines: Map<string, number>;
  tornFiles: number;
}

/** What the archive holds: uid → number of lines; files whose last line has no newline (a kill cut it). */
function readArchive(layout: WorkspaceLayout, strict: boolean): Leftovers {
  const out: Leftovers = { archiveLines: new Map(), tornFiles: 0 };
  if (!fs.existsSync(layout.archiveDir)) return out;
  for (const name of fs.readdirSync(layout.archiveDir)) {
    const text = fs.readFileSync(path.join(layout.archiveDir, name), 'utf8');
    if (text.length && !text.endsWith('\n')) {
      out.tornFiles++;
      assert.ok(!strict, `${name} ends with a line cut short after the repair`);
    }
    const lines = text.split('\n');
    if (!text.endsWith('\n')) lines.pop();
    for (const line of lines.filter(Boolean)) {
      const uid = (JSON.parse(line) as Handoff).uid!;
      out.archiveLines.set(uid, (out.archiveLines.get(uid) ?? 0) + 1);
    }
  }
  return out;
}

const storeUids = (layout: WorkspaceLayout) =>
  (JSON.parse(fs.readFileSync(layout.handoffsFile, 'utf8')) as { handoffs: Handoff[] }).handoffs.map((h) => h.uid!);

describe('the archive under SIGKILL', function () {
  // About 30 s on an idle 2-core machine; the bound leaves room for a machine busy with other test runs.
  this.timeout(600_000);
  const live = new Set<Child>();
  afterEach(() => {
    for (const c of live) c.proc.kill('SIGKILL');
  });

  it(`every handoff ends in exactly one of handoffs.json or the archive across ${KILLS} kills mid-archive`, async () => {
    const pristine = pristineStore();
    const tally: Tally = { finished: 0, inBoth: 0, torn: 0, archiveOnly: 0, beforeArchive: 0 };
    const started = Date.now();
    // Two workspaces side by side, so both CPUs work while the other lane waits for a child or a disk.
    const windows = await Promise.all(Array.from({ length: LANES }, (_, n) => lane(n, KILLS / LANES, pristine, tally)));
    console.log(
      `      (${KILLS} kills in ${((Date.now() - started) / 1000).toFixed(1)} s, kill windows ~${windows.map((w) => w.toFixed(0)).join('/')} ms; ` +
        `kills before any line ${tally.beforeArchive}, with records in both places ${tally.inBoth} (a line cut short ${tally.torn}), ` +
        `after the store write ${tally.archiveOnly}, jobs that finished first ${tally.finished})`,
    );
    assert.ok(tally.inBoth > 0, 'some kills landed between the archive append and the store write (else the test proves little)');
  });

  /** One workspace, `kills` jobs each killed at a random moment; returns the final kill window (ms after "go"). */
  async function lane(n: number, kills: number, pristine: Pristine, tally: Tally): Promise<number> {
    const dir = tempWorkspace(`archive-crash-${n}`);
    initWorkspace(dir, storeSeed(dir));
    const layout = new WorkspaceLayout(dir);
    // Replaced whole (a job loading in the background must never read half a file), the stamp after the store.
    const replace = (file: string, data: string | Buffer) => {
      fs.writeFileSync(`${file}.reseed`, data);
      fs.renameSync(`${file}.reseed`, file);
    };
    const reseed = () => {
      fs.rmSync(layout.archiveDir, { recursive: true, force: true });
      replace(layout.handoffsFile, pristine.bytes);
      replace(layout.validatedStampFile, pristine.stamp);
    };
    const spawnJob = (): Child => {
      const c = startChild(JOB, [dir], { ipc: true });
      live.add(c);
      void c.exited.then(() => live.delete(c));
      return c;
    };
    // The next writer: one store for all the checks (its cache is keyed to the file, so it re-reads every time).
    const next = new RequestDispatcher(new HandoffStore(layout), 'test');
    const repairAndCheck = async (label: string): Promise<void> => {
      const r = await next.dispatch({
        action: 'createHandoff',
        handoff: { from_agent: 'codex', to_agents: ['claude'], owner_mode: 'single', summary: 'the next write' },
      });
      assert.equal(r.ok, true, `${label}: the next write: ${JSON.stringify(r)}`);
      const inStore = storeUids(layout);
      const { archiveLines } = readArchive(layout, true);
      for (const uid of [...pristine.finished, ...pristine.open]) {
        const count = inStore.filter((u) => u === uid).length + (archiveLines.get(uid) ?? 0);
        assert.equal(count, 1, `${label}: handoff ${uid} is in ${count} places`);
      }
      for (const uid of pristine.open) assert.ok(inStore.includes(uid), `${label}: an open handoff stays in handoffs.json`);
      assert.equal(archiveLines.size, pristine.finished.size, `${label}: every finished one is archived once the repair ran`);
    };

    // The kill window starts at one whole job and follows where kills land: wider when they come before the first
    // line, narrower when they come after the store write, so most land inside the archive pass.
    reseed();
    const calibration = spawnJob();
    await calibration.waitForLine((l) => l === 'READY', 30_000, 'calibration READY');
    calibration.proc.send('go');
    await calibration.waitForLine((l) => l === 'GO', 10_000, 'calibration GO');
    const t0 = Date.now();
    await calibration.waitForLine((l) => l.startsWith('DONE'), 60_000, 'calibration DONE');
    let window = Math.max(5, Date.now() - t0);
    await calibration.exited;
    await repairAndCheck(`lane ${n} calibration`);

    const ready: Child[] = Array.from({ length: PRELOADED }, spawnJob);
    for (let i = 0; i < kills; i++) {
      const label = `lane ${n}, kill ${i + 1}/${kills}`;
      reseed();
      const job = ready.shift()!;
      ready.push(spawnJob());
      await job.waitForLine((l) => l === 'READY', 30_000, `${label}: READY`);
      job.proc.send('go');
      await job.waitForLine((l) => l === 'GO', 10_000, `${label}: GO`);
      await sleep(Math.random() * window); // the subject: a kill at a random moment
      job.proc.kill('SIGKILL');
      const exit = await job.exited;
      // Where did the kill land? The leftovers tell.
      const left = readArchive(layout, false);
      const stillInStore = storeUids(layout).filter((u) => pristine.finished.has(u)).length;
      if (exit.signal !== 'SIGKILL') {
        assert.equal(exit.code, 0, `${label}: the job failed on its own: ${job.stderr}`);
        tally.finished++;
        window *= 0.85;
      } else if (left.archiveLines.size === 0) {
        tally.beforeArchive++;
        window *= 1.15;
      } else if (stillInStore > 0) {
        tally.inBoth++;
      } else {
        tally.archiveOnly++;
        window *= 0.9;
      }
      if (left.tornFiles) tally.torn++;
      await repairAndCheck(label);
    }
    for (const c of ready) c.proc.kill('SIGKILL');
    // Gone before the folder is removed: a job still starting up may write into it (ENOTEMPTY seen once).
    await Promise.all(ready.map((c) => c.exited));
    fs.rmSync(dir, { recursive: true, force: true }); // kept for inspection on failure
    return window;
  }

  it('`agentsync show` and `list --archived` find what a process archived; `list` alone does not', () => {
    const dir = tempWorkspace('archive-cli');
    runCliSync(['--dir', dir, 'init']);
    const layout = new WorkspaceLayout(dir);
    const old = record(1, 'merged', new Date(Date.UTC(2025, 4, 3, 10)));
    fs.writeFileSync(layout.handoffsFile, JSON.stringify({ version: 1, handoffs: [old] }, null, 2) + '\n');
    runCliSync(['--dir', dir, 'create', '--from', 'codex', '--to', 'claude', '--mode', 'single', '--summary', 'new work']);
    assert.match(fs.readFileSync(path.join(layout.archiveDir, '2025-05.jsonl'), 'utf8'), new RegExp(old.uid!));
    const shown = JSON.parse(runCliSync(['--dir', dir, '--json', 'show', old.handoff_id])) as {
      data: { handoff: Handoff; archived: boolean };
    };
    assert.deepEqual(shown.data.handoff, old);
    assert.equal(shown.data.archived, true);
    assert.match(runCliSync(['--dir', dir, 'show', old.uid!]), /archived: read-only/);
    const listed = (all: boolean) =>
      (
        JSON.parse(runCliSync(['--dir', dir, '--json', 'list', ...(all ? ['--archived'] : [])])) as { data: { handoffs: Handoff[] } }
      ).data.handoffs.map((h) => h.handoff_id);
    assert.deepEqual(listed(false).includes(old.handoff_id), false);
    assert.deepEqual(listed(true)[0], old.handoff_id);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
