// The drop zone's contract (docs/contract.md §8): request.json → result.json, requests/*.json → responses/<request_id>.json
// with request_file echoed, request_id idempotency, claims taken over from dead processors answered exactly once,
// and the watcher (not the periodic rescan) answering requests as they arrive.
import { strict as assert } from 'node:assert';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DropZoneProcessor } from '../../../../src/core/dropZone/dropZoneProcessor';
import { AgentSyncFolderWatcher } from '../../../../src/core/workspace/agentSyncFolderWatcher';
import { formatInflightName, parseInflightName } from '../../../../src/core/dropZone/inflightName';
import { newUid } from '../../../../src/core/domain/handoffIds';
import type { DispatchContext, RequestResponse } from '../../../../src/core/requests/requestDispatcher';
import { removeTempDirs, TestWorkspace } from '../../helpers/testWorkspace';

const create = (summary: string, extra: Record<string, unknown> = {}) => ({
  action: 'createHandoff',
  ...extra,
  handoff: { from_agent: 'codex', to_agents: ['claude'], owner_mode: 'single', summary },
});

function drop(ws: TestWorkspace, name: string, obj: unknown): void {
  fs.mkdirSync(ws.layout.requestsDir, { recursive: true });
  const tmp = path.join(ws.layout.dataDir, `.${name}.tmp`);
  fs.writeFileSync(tmp, JSON.stringify(obj));
  fs.renameSync(tmp, path.join(ws.layout.requestsDir, name));
}

function responses(ws: TestWorkspace): RequestResponse[] {
  if (!fs.existsSync(ws.layout.responsesDir)) return [];
  return fs
    .readdirSync(ws.layout.responsesDir)
    .filter((n) => !n.startsWith('.'))
    .map((n) => JSON.parse(fs.readFileSync(path.join(ws.layout.responsesDir, n), 'utf8')) as RequestResponse);
}

function summaries(ws: TestWorkspace): string[] {
  return ws.storedHandoffs().map((h) => h.summary);
}

/** The pid of a process that has exited (so a claim carrying it is orphaned). */
function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(r.stdout);
}

function waitFor<T>(what: string, probe: () => T | undefined | null | false, timeoutMs = 5_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const tick = () => {
      const v = probe();
      if (v) return resolve(v);
      if (Date.now() > deadline) return reject(new Error(`timed out waiting for ${what}`));
      setTimeout(tick, 5);
    };
    tick();
  });
}

describe('drop zone processor', () => {
  after(removeTempDirs);

  it('requests/: a request without request_id is named by a fresh ULID, echoes request_file, and is applied once', async () => {
    const ws = new TestWorkspace();
    drop(ws, 'first.json', create('no id'));
    drop(ws, 'second.json', create('with id', { request_id: 'my-id-1' }));
    const stats = await new DropZoneProcessor(ws.layout, ws.dispatcher).processOnce();
    assert.equal(stats.answered, 2);
    const all = responses(ws);
    const first = all.find((r) => r.request_file === 'first.json')!;
    assert.match(first.request_id, /^[0-9A-HJKMNP-TV-Z]{26}$/);
    assert.ok(fs.existsSync(path.join(ws.layout.responsesDir, `${first.request_id}.json`)));
    const second = JSON.parse(fs.readFileSync(path.join(ws.layout.responsesDir, 'my-id-1.json'), 'utf8')) as RequestResponse;
    assert.deepEqual(
      { ok: second.ok, action: second.action, request_file: second.request_file },
      { ok: true, action: 'createHandoff', request_file: 'second.json' },
    );
    assert.deepEqual(summaries(ws).sort(), ['no id', 'with id']);
    assert.deepEqual(
      fs.readdirSync(ws.layout.requestsDir).filter((n) => !n.startsWith('.')),
      [],
    );
  });

  it('request.json → result.json, 0.3-compatible (ok, action, timestamp, data); the request is consumed', async () => {
    const ws = new TestWorkspace();
    fs.writeFileSync(ws.layout.requestFile, JSON.stringify(create('single')));
    await new DropZoneProcessor(ws.layout, ws.dispatcher).processOnce();
    const result = JSON.parse(fs.readFileSync(ws.layout.resultFile, 'utf8')) as RequestResponse;
    assert.equal(result.ok, true);
    assert.equal(result.action, 'createHandoff');
    assert.ok(!Number.isNaN(Date.parse(result.timestamp)));
    assert.equal((result.data!.handoff as { summary: string }).summary, 'single');
    assert.equal(fs.existsSync(ws.layout.requestFile), false);
  });

  it("ignores dotfiles (writers' temp files) and names that are not .json", async () => {
    const ws = new TestWorkspace();
    fs.mkdirSync(ws.layout.requestsDir, { recursive: true });
    fs.writeFileSync(path.join(ws.layout.requestsDir, '.half-written.json'), '{"act');
    fs.writeFileSync(path.join(ws.layout.requestsDir, 'notes.txt'), 'not a request');
    const stats = await new DropZoneProcessor(ws.layout, ws.dispatcher).processOnce();
    assert.deepEqual(stats, { answered: 0, refused: 0, rejected: 0, recovered: 0 });
    assert.deepEqual(fs.readdirSync(ws.layout.requestsDir).sort(), ['.half-written.json', '.inflight', 'notes.txt']);
  });

  it('the same request_id in two files (even in one scan): applied once, the second gets the stored response', async () => {
    const ws = new TestWorkspace();
    drop(ws, 'a.json', create('twice', { request_id: 'dup-1' }));
    drop(ws, 'b.json', create('twice', { request_id: 'dup-1' }));
    drop(ws, 'c.json', create('different', { request_id: 'dup-1' }));
    const processor = new DropZoneProcessor(ws.layout, ws.dispatcher);
    const answered: RequestResponse[] = [];
    processor.onDidAnswer((a) => answered.push(a.response!));
    await processor.processOnce();
    assert.deepEqual(summaries(ws), ['twice']);
    const ok = answered.filter((r) => r.ok);
    assert.equal(ok.length, 2);
    assert.equal((ok[0].data!.handoff as { uid: string }).uid, (ok[1].data!.handoff as { uid: string }).uid, 'the same record both times');
    assert.deepEqual(
      answered.filter((r) => !r.ok).map((r) => r.reason),
      ['request_id_reused'],
    );
  });

  it('a reused request_id keeps the first answer file; the refusal goes to responses/<id>@<request file name>', async () => {
    const ws = new TestWorkspace();
    drop(ws, 'a.json', create('first', { request_id: 'same-1' }));
    await new DropZoneProcessor(ws.layout, ws.dispatcher).processOnce();
    drop(ws, 'b.json', create('second', { request_id: 'same-1' }));
    await new DropZoneProcessor(ws.layout, ws.dispatcher).processOnce();
    const read = (name: string) => JSON.parse(fs.readFileSync(path.join(ws.layout.responsesDir, name), 'utf8')) as RequestResponse;
    const first = read('same-1.json');
    assert.equal(first.ok, true, 'the first answer is still there');
    assert.equal(first.request_file, 'a.json');
    const second = read('same-1@b.json');
    assert.equal(second.reason, 'request_id_reused');
    assert.equal(second.request_file, 'b.json');
    assert.deepEqual(summaries(ws), ['first']);
  });

  it('a refused first request keeps its answer file; a valid request reusing the id answers at <id>@<request file name>', async () => {
    const ws = new TestWorkspace();
    drop(ws, 'd.json', { action: 'createHandoff', request_id: 'same-2', handoff: { from_agent: 'codex' } });
    await new DropZoneProcessor(ws.layout, ws.dispatcher).processOnce();
    const file = path.join(ws.layout.responsesDir, 'same-2.json');
    const refused = fs.readFileSync(file, 'utf8');
    assert.equal((JSON.parse(refused) as RequestResponse).reason, 'invalid_request');
    drop(ws, 'e.json', create('valid', { request_id: 'same-2' }));
    await new DropZoneProcessor(ws.layout, ws.dispatcher).processOnce();
    assert.equal(fs.readFileSync(file, 'utf8'), refused, 'the first answer file says what it said');
    const second = JSON.parse(fs.readFileSync(path.join(ws.layout.responsesDir, 'same-2@e.json'), 'utf8')) as RequestResponse;
    assert.equal(second.ok, true);
    assert.equal(second.request_file, 'e.json');
    assert.deepEqual(summaries(ws), ['valid']);
  });

  it('a running drop zone returns work whose lease expired to the queue, with a history entry by agentsync', async () => {
    const ws = new TestWorkspace();
    const c = await ws.dispatch({
      action: 'createHandoff',
      handoff: { from_agent: 'codex', to_agents: ['claude'], owner_mode: 'single', summary: 'leased' },
    });
    const id = (c.data!.handoff as { handoff_id: string }).handoff_id;
    assert.equal((await ws.dispatch({ action: 'claimHandoff', handoffId: id, agent: 'claude' })).ok, true);
    // Counts the sweeps the processor runs (expireLeases through the real dispatcher): two done prove it looked.
    let sweeps = 0;
    const dispatch = ws.dispatcher.dispatch.bind(ws.dispatcher);
    ws.dispatcher.dispatch = (req: unknown, ctx?: DispatchContext) =>
      dispatch(req, ctx).finally(() => {
        if ((req as { action?: string }).action === 'expireLeases') sweeps++;
      });
    const processor = new DropZoneProcessor(ws.layout, ws.dispatcher, { leaseSweepMs: 20 });
    await processor.start();
    try {
      await waitFor('two lease sweeps', () => sweeps >= 2);
      assert.equal(ws.stored(id).status, 'in_progress', 'a live lease (30 minutes) is left alone');
      ws.clock.advance(31 * 60_000);
      const deadline = Date.now() + 3_000;
      while (ws.stored(id).status !== 'queued' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    } finally {
      await processor.stop();
    }
    const h = ws.stored(id);
    assert.equal(h.status, 'queued');
    assert.equal(h.claimed_by, null);
    const last = h.state_history[h.state_history.length - 1];
    assert.equal(last.agent, 'agentsync');
    assert.match(last.reason ?? '', /lease expired \(held by claude/);
  });

  it('a claim left by a killed processor is taken over and answered, keeping its ULID as request_id', async () => {
    const ws = new TestWorkspace();
    const processor = new DropZoneProcessor(ws.layout, ws.dispatcher);
    processor.paths.ensure();
    const ulid = newUid();
    const name = formatInflightName({ ulid, kind: 'q', original: 'orphan.json' }, deadPid());
    fs.writeFileSync(path.join(processor.paths.inflightDir, name), JSON.stringify(create('orphaned')));
    const stats = await processor.processOnce();
    assert.equal(stats.recovered, 1);
    const r = JSON.parse(fs.readFileSync(path.join(ws.layout.responsesDir, `${ulid}.json`), 'utf8')) as RequestResponse;
    assert.deepEqual(
      { ok: r.ok, request_id: r.request_id, request_file: r.request_file },
      { ok: true, request_id: ulid, request_file: 'orphan.json' },
    );
    assert.deepEqual(summaries(ws), ['orphaned']);
    assert.deepEqual(fs.readdirSync(processor.paths.inflightDir), []);
  });

  it('killed after applying but before answering: the takeover answers from the store and applies nothing twice', async () => {
    const ws = new TestWorkspace();
    const processor = new DropZoneProcessor(ws.layout, ws.dispatcher);
    processor.paths.ensure();
    const ulid = newUid();
    // What the dead processor did before dying: dispatched the request under the claim's ULID.
    const applied = await ws.dispatch({ ...create('applied once'), request_id: ulid });
    assert.equal(applied.ok, true);
    fs.writeFileSync(
      path.join(processor.paths.inflightDir, formatInflightName({ ulid, kind: 'q', original: 'crash.json' }, deadPid())),
      JSON.stringify(create('applied once')),
    );
    // The ledger may be lost too (it is runtime-only): the request_id marker in state_history still answers.
    fs.rmSync(ws.layout.ledgerFile, { force: true });
    const fresh = new DropZoneProcessor(ws.layout, ws.secondDispatcher());
    await fresh.processOnce();
    const r = JSON.parse(fs.readFileSync(path.join(ws.layout.responsesDir, `${ulid}.json`), 'utf8')) as RequestResponse;
    assert.equal(r.ok, true);
    assert.equal((r.data!.handoff as { uid: string }).uid, (applied.data!.handoff as { uid: string }).uid);
    assert.deepEqual(summaries(ws), ['applied once']);
  });

  it('a claim held by a live process is left alone', async () => {
    const ws = new TestWorkspace();
    const processor = new DropZoneProcessor(ws.layout, ws.dispatcher);
    processor.paths.ensure();
    const sleeper = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)'], { stdio: 'ignore' });
    try {
      const name = formatInflightName({ ulid: newUid(), kind: 'q', original: 'busy.json' }, sleeper.pid);
      fs.writeFileSync(path.join(processor.paths.inflightDir, name), JSON.stringify(create('busy')));
      const stats = await processor.processOnce();
      assert.equal(stats.recovered, 0);
      assert.deepEqual(fs.readdirSync(processor.paths.inflightDir), [name]);
      assert.equal(parseInflightName(name)!.pid, sleeper.pid);
    } finally {
      sleeper.kill('SIGKILL');
    }
  });

  it('a writer that skipped the rename (still writing when the request is taken) is read once it has finished', async () => {
    const ws = new TestWorkspace();
    fs.mkdirSync(ws.layout.requestsDir, { recursive: true });
    const file = path.join(ws.layout.requestsDir, 'slow.json');
    const text = JSON.stringify(create('written slowly'));
    const fd = fs.openSync(file, 'w');
    fs.writeSync(fd, text.slice(0, 20));
    const processor = new DropZoneProcessor(ws.layout, ws.dispatcher);
    const done = processor.processOnce();
    await new Promise((r) => setTimeout(r, 60)); // the subject: the writer is still writing when the request is taken
    fs.writeSync(fd, text.slice(20)); // lands in the claimed file: the same inode
    fs.closeSync(fd);
    await done;
    const r = responses(ws).find((x) => x.request_file === 'slow.json')!;
    assert.equal(r.ok, true, r.message);
    assert.deepEqual(summaries(ws), ['written slowly']);
  });

  it('a writer that pauses mid-write is given the documented 0.4 s grace, not less', async () => {
    const ws = new TestWorkspace();
    fs.mkdirSync(ws.layout.requestsDir, { recursive: true });
    const file = path.join(ws.layout.requestsDir, 'paused.json');
    const text = JSON.stringify(create('written with a pause', { request_id: 'paused-1' }));
    const fd = fs.openSync(file, 'w');
    fs.writeSync(fd, text.slice(0, 20));
    const processor = new DropZoneProcessor(ws.layout, ws.dispatcher);
    const done = processor.processOnce();
    await new Promise((r) => setTimeout(r, 250)); // unchanged for 250 ms, well inside the grace
    fs.writeSync(fd, text.slice(20));
    fs.closeSync(fd);
    await done;
    const r = responses(ws).find((x) => x.request_file === 'paused.json')!;
    assert.equal(r.ok, true, r.message);
    assert.deepEqual(summaries(ws), ['written with a pause']);
  });

  it('started, it answers as requests arrive (events from the folder watcher; the rescan is set to a minute), then stops cleanly', async () => {
    const ws = new TestWorkspace();
    const changes = new AgentSyncFolderWatcher(ws.layout);
    const processor = new DropZoneProcessor(ws.layout, ws.dispatcher, { rescanMs: 60_000, changes });
    await processor.start();
    try {
      for (let i = 0; i < 5; i++) {
        drop(ws, `live-${i}.json`, create(`live ${i}`, { request_id: `live-${i}` }));
        await waitFor(`response live-${i}`, () => fs.existsSync(path.join(ws.layout.responsesDir, `live-${i}.json`)));
      }
      // request.json is re-created under the same name each time; every one must still be noticed.
      for (let i = 0; i < 5; i++) {
        const tmp = path.join(ws.layout.dataDir, '.req.tmp');
        fs.writeFileSync(tmp, JSON.stringify({ action: 'listHandoffs', request_id: `single-${i}` }));
        fs.renameSync(tmp, ws.layout.requestFile);
        await waitFor(`result single-${i}`, () => {
          try {
            return (JSON.parse(fs.readFileSync(ws.layout.resultFile, 'utf8')) as RequestResponse).request_id === `single-${i}`;
          } catch {
            return false;
          }
        });
      }
    } finally {
      await processor.stop();
    }
    assert.equal(summaries(ws).length, 5);
    // The watcher's own event for the request reaching the stopped processor's listeners is the settled point.
    const seen = new Promise<void>((resolve) => changes.onDidChange((kind) => kind === 'request' && resolve()));
    drop(ws, 'after-stop.json', create('after stop'));
    await seen;
    await new Promise((r) => setImmediate(r)); // a scan it triggered would have been scheduled on this tick
    changes.close();
    assert.ok(fs.existsSync(path.join(ws.layout.requestsDir, 'after-stop.json')), 'a stopped processor answers nothing');
  });

  it('refuses to work through a symlinked responses/ folder, and says so once', async () => {
    const ws = new TestWorkspace();
    const elsewhere = path.join(ws.root, 'elsewhere');
    fs.mkdirSync(elsewhere);
    fs.mkdirSync(ws.layout.requestsDir, { recursive: true });
    fs.symlinkSync(elsewhere, ws.layout.responsesDir);
    drop(ws, 'x.json', create('x'));
    const warnings: string[] = [];
    const processor = new DropZoneProcessor(ws.layout, ws.dispatcher, { logger: { info: () => undefined, warn: (m) => warnings.push(m) } });
    await processor.processOnce();
    await processor.processOnce();
    assert.deepEqual(fs.readdirSync(elsewhere), []);
    assert.ok(fs.existsSync(path.join(ws.layout.requestsDir, 'x.json')), 'the request waits until the folder is fixed');
    assert.equal(warnings.length, 1);
    assert.match(warnings[0], /not a folder/);
  });

  describe('start and stop', () => {
    it('start() settles when stop() comes before the watcher is ready', async function () {
      this.timeout(10_000);
      const ws = new TestWorkspace();
      const processor = new DropZoneProcessor(ws.layout, ws.dispatcher, { rescanMs: 60_000, leaseSweepMs: 0 });
      let settled = false;
      const started = processor.start().then(() => (settled = true));
      await processor.stop();
      await Promise.race([started, new Promise((r) => setTimeout(r, 3_000))]);
      assert.equal(settled, true, 'start() never settled after stop()');
    });

    it('the first scan does not wait for the watcher: what is waiting is claimed as start() is called', async () => {
      const ws = new TestWorkspace();
      drop(ws, 'early.json', create('waiting before start', { request_id: 'early-1' }));
      const processor = new DropZoneProcessor(ws.layout, ws.dispatcher, { rescanMs: 60_000, leaseSweepMs: 0 });
      const started = processor.start();
      assert.equal(fs.existsSync(path.join(ws.layout.requestsDir, 'early.json')), false, 'claimed before the watcher was ready');
      await started;
      await waitFor('the answer', () => fs.existsSync(path.join(ws.layout.responsesDir, 'early-1.json')));
      await processor.stop();
      assert.deepEqual(summaries(ws), ['waiting before start']);
    });
  });
});
