// `agentsync watch` as real processes (docs/contract.md §8, §12): 8 writer processes × 125 requests into requests/ while two
// watchers answer them → 1,000 responses and exactly 1,000 handoffs; the same with one watcher killed -9 while it
// holds claims, then restarted. Plus --once, and a clean stop on SIGTERM/SIGINT.
import { strict as assert } from 'node:assert';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CLI, runCliSync, startChild, tempWorkspace, type Child } from './processHarness';

const WRITERS = 8;
const PER_WRITER = 125;

/** A writer: the contract (temp file outside requests/, then rename in); every other request carries a request_id. */
const WRITER = `
const fs = require('fs'), path = require('path');
const [dir, w, count] = process.argv.slice(1);
const data = path.join(dir, '.agentsync');
for (let i = 0; i < Number(count); i++) {
  const name = 'w' + w + '-' + i;
  const req = { action: 'createHandoff', handoff: { from_agent: 'codex', to_agents: ['claude'], owner_mode: 'single', summary: 'summary ' + name } };
  if (i % 2 === 0) req.request_id = 'rid-' + name;
  const tmp = path.join(data, '.' + name + '.tmp');
  fs.writeFileSync(tmp, JSON.stringify(req));
  fs.renameSync(tmp, path.join(data, 'requests', name + '.json'));
}
`;

function startWatcher(dir: string): Child {
  return startChild(CLI, ['--dir', dir, 'watch', '--interval-ms', '500']);
}

async function ready(w: Child): Promise<void> {
  await w.waitForLine((l) => l.startsWith('watching '), 15_000, 'agentsync watch to be ready');
}

function startWriters(dir: string): Promise<number[]> {
  const procs: ChildProcess[] = [];
  for (let w = 0; w < WRITERS; w++)
    procs.push(spawn(process.execPath, ['-e', WRITER, dir, String(w), String(PER_WRITER)], { stdio: ['ignore', 'ignore', 'inherit'] }));
  return Promise.all(procs.map((p) => new Promise<number>((resolve) => p.on('exit', (code) => resolve(code ?? -1)))));
}

function responseFiles(dir: string): string[] {
  return fs.readdirSync(path.join(dir, '.agentsync', 'responses')).filter((n) => n.endsWith('.json') && !n.startsWith('.'));
}

async function waitForResponses(dir: string, n: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (responseFiles(dir).length < n) {
    if (Date.now() > deadline) throw new Error(`only ${responseFiles(dir).length} of ${n} responses after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Every request answered once, ok, and applied once: 1,000 responses and 1,000 distinct handoffs, nothing left over. */
function assertExactlyOnce(dir: string): void {
  const data = path.join(dir, '.agentsync');
  const expected = new Set<string>();
  for (let w = 0; w < WRITERS; w++) for (let i = 0; i < PER_WRITER; i++) expected.add(`w${w}-${i}`);
  const files = responseFiles(dir);
  assert.equal(files.length, expected.size, 'one response file per request');
  const answered = new Set<string>();
  for (const f of files) {
    const r = JSON.parse(fs.readFileSync(path.join(data, 'responses', f), 'utf8')) as {
      ok: boolean;
      request_id: string;
      request_file: string;
      message?: string;
    };
    assert.equal(r.ok, true, `${f}: ${r.message}`);
    assert.equal(f, `${r.request_id}.json`, 'named by its request_id');
    const name = r.request_file.replace(/\.json$/, '');
    assert.ok(expected.has(name), `unexpected request_file ${r.request_file}`);
    if (Number(name.split('-')[1]) % 2 === 0) assert.equal(r.request_id, `rid-${name}`, 'a supplied request_id is kept');
    answered.add(name);
  }
  assert.equal(answered.size, expected.size, 'every request file is answered');
  const store = JSON.parse(fs.readFileSync(path.join(data, 'handoffs.json'), 'utf8')) as {
    handoffs: { summary: string; handoff_id: string }[];
  };
  const summaries = store.handoffs.map((h) => h.summary);
  assert.equal(summaries.length, expected.size, 'exactly one handoff per request');
  assert.equal(new Set(summaries).size, summaries.length, 'no request applied twice');
  assert.equal(new Set(store.handoffs.map((h) => h.handoff_id)).size, summaries.length, 'unique handoff ids');
  for (const name of expected) assert.ok(summaries.includes(`summary ${name}`));
  assert.deepEqual(fs.readdirSync(path.join(data, 'requests', '.inflight')), [], 'no claim left');
  assert.deepEqual(
    fs.readdirSync(path.join(data, 'requests')).filter((n) => !n.startsWith('.')),
    [],
    'no request left',
  );
}

async function stop(w: Child): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  if (w.proc.exitCode === null && w.proc.signalCode === null) w.proc.kill('SIGTERM');
  return w.exited;
}

describe('agentsync watch (processes)', function () {
  this.timeout(90_000);
  const dirs: string[] = [];
  const children: Child[] = [];
  after(() => {
    for (const c of children) if (c.proc.exitCode === null && c.proc.signalCode === null) c.proc.kill('SIGKILL');
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  });
  const workspace = (label: string) => {
    const dir = tempWorkspace(label);
    dirs.push(dir);
    runCliSync(['--dir', dir, 'init']);
    return dir;
  };

  it('8 writers × 125 requests, two watchers: 1,000 responses, each request applied exactly once', async () => {
    const dir = workspace('dz-two');
    const a = startWatcher(dir);
    const b = startWatcher(dir);
    children.push(a, b);
    await Promise.all([ready(a), ready(b)]);
    const started = Date.now();
    assert.deepEqual(await startWriters(dir), new Array(WRITERS).fill(0));
    await waitForResponses(dir, WRITERS * PER_WRITER, 60_000);
    const ms = Date.now() - started;
    const [ea, eb] = await Promise.all([stop(a), stop(b)]);
    assert.deepEqual([ea.code, eb.code], [0, 0], 'both stop cleanly on SIGTERM');
    const lines = [...a.lines, ...b.lines].filter((l) => l.startsWith('stopped'));
    const counts = lines.map((l) => Number(/answered (\d+)/.exec(l)![1]));
    console.log(`      (1000 requests answered in ${ms} ms; watcher A answered ${counts[0]}, B ${counts[1]})`);
    assert.equal(counts[0] + counts[1], 1000, 'every request answered by exactly one watcher');
    assertExactlyOnce(dir);
  });

  it('the same with one watcher killed -9 while it holds claims, then restarted: nothing lost, nothing twice', async () => {
    const dir = workspace('dz-kill');
    const a = startWatcher(dir);
    const b = startWatcher(dir);
    children.push(a, b);
    await Promise.all([ready(a), ready(b)]);
    const writers = startWriters(dir);
    const inflight = path.join(dir, '.agentsync', 'requests', '.inflight');
    // Kill A at a moment it holds claims (requests taken but not yet answered).
    let held: string[] = [];
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline) {
      held = fs.readdirSync(inflight).filter((n) => n.includes(`.${a.proc.pid}.`));
      if (held.length > 0 && responseFiles(dir).length > 100) break;
      await new Promise((r) => setImmediate(r));
    }
    a.proc.kill('SIGKILL');
    const killed = await a.exited;
    assert.equal(killed.signal, 'SIGKILL');
    const atKill = responseFiles(dir).length;
    const restarted = startWatcher(dir);
    children.push(restarted);
    await ready(restarted);
    assert.deepEqual(await writers, new Array(WRITERS).fill(0));
    await waitForResponses(dir, WRITERS * PER_WRITER, 60_000);
    // Every request has its response; a claim is removed after its answer: none left means the takeovers are done.
    const settleBy = Date.now() + 30_000;
    while (fs.readdirSync(inflight).length > 0) {
      assert.ok(Date.now() < settleBy, `claims still held after 30 s: ${fs.readdirSync(inflight).join(', ')}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    await Promise.all([stop(b), stop(restarted)]);
    const takenOver = [...b.lines, ...restarted.lines]
      .filter((l) => l.startsWith('stopped'))
      .map((l) => Number(/taken over (\d+)/.exec(l)![1]));
    console.log(
      `      (killed with ${held.length} claim(s) held and ${atKill} responses written; taken over afterwards: ${takenOver.reduce((x, y) => x + y, 0)})`,
    );
    assert.ok(held.length > 0, 'the kill happened while the watcher held claims');
    assert.ok(takenOver.reduce((x, y) => x + y, 0) >= 1, "the dead watcher's claims were taken over");
    assertExactlyOnce(dir);
  });

  it('--once answers what is there and exits 0; a bad --interval-ms is a usage error (exit 2)', () => {
    const dir = workspace('dz-once');
    const data = path.join(dir, '.agentsync');
    fs.writeFileSync(path.join(data, 'requests', 'one.json'), JSON.stringify({ action: 'listHandoffs', request_id: 'once-1' }));
    fs.writeFileSync(path.join(data, 'request.json'), JSON.stringify({ action: 'status' }));
    const r = spawnSync(process.execPath, [CLI, '--dir', dir, '--json', 'watch', '--once'], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    const out = JSON.parse(r.stdout) as { ok: boolean; data: { answered: number } };
    assert.deepEqual({ ok: out.ok, answered: out.data.answered }, { ok: true, answered: 2 });
    assert.equal((JSON.parse(fs.readFileSync(path.join(data, 'responses', 'once-1.json'), 'utf8')) as { ok: boolean }).ok, true);
    assert.equal((JSON.parse(fs.readFileSync(path.join(data, 'result.json'), 'utf8')) as { action: string }).action, 'status');
    const bad = spawnSync(process.execPath, [CLI, '--dir', dir, 'watch', '--interval-ms', 'soon'], { encoding: 'utf8' });
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /--interval-ms takes a whole number/);
  });

  it('SIGINT stops a watcher cleanly (exit 0) after answering what it had taken', async () => {
    const dir = workspace('dz-int');
    const w = startWatcher(dir);
    children.push(w);
    await ready(w);
    fs.writeFileSync(path.join(dir, '.agentsync', '.x.tmp'), JSON.stringify({ action: 'listHandoffs', request_id: 'int-1' }));
    fs.renameSync(path.join(dir, '.agentsync', '.x.tmp'), path.join(dir, '.agentsync', 'requests', 'x.json'));
    await waitForResponses(dir, 1, 10_000);
    w.proc.kill('SIGINT');
    const e = await w.exited;
    assert.equal(e.code, 0);
    assert.ok(
      w.lines.some((l) => l.startsWith('stopped (SIGINT): answered 1')),
      w.lines.join('\n'),
    );
  });

  it('--once exits 1 with a clear message when the drop zone is off (requests/ is a symlink), and answers nothing', () => {
    const dir = workspace('dz-off');
    const data = path.join(dir, '.agentsync');
    const elsewhere = fs.mkdtempSync(path.join(dir, 'elsewhere-'));
    fs.rmSync(path.join(data, 'requests'), { recursive: true, force: true });
    fs.symlinkSync(elsewhere, path.join(data, 'requests'));
    fs.writeFileSync(path.join(elsewhere, 'one.json'), JSON.stringify({ action: 'listHandoffs', request_id: 'off-1' }));
    const r = spawnSync(process.execPath, [CLI, '--dir', dir, 'watch', '--once'], { encoding: 'utf8' });
    assert.equal(r.status, 1, r.stdout + r.stderr);
    assert.match(r.stderr, /is not a folder \(it is a symlink\)[^]*the drop zone is off/);
    assert.match(r.stderr, /the drop zone is off, nothing was answered/);
    const j = spawnSync(process.execPath, [CLI, '--dir', dir, '--json', 'watch', '--once'], { encoding: 'utf8' });
    assert.equal(j.status, 1);
    const out = JSON.parse(j.stdout) as { ok: boolean; reason: string; message: string };
    assert.deepEqual([out.ok, out.reason], [false, 'drop_zone_off']);
    assert.ok(fs.existsSync(path.join(elsewhere, 'one.json')), 'the request behind the link was not touched');
  });

  it('a request refused for nesting depth is answered under its own request_id', () => {
    const dir = workspace('dz-deep');
    let deep: unknown = 'x';
    for (let i = 0; i < 100; i++) deep = { d: deep };
    fs.writeFileSync(
      path.join(dir, '.agentsync', 'requests', 'deep.json'),
      JSON.stringify({ action: 'createHandoff', request_id: 'deep-1', handoff: deep }),
    );
    const r = spawnSync(process.execPath, [CLI, '--dir', dir, 'watch', '--once'], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    const file = path.join(dir, '.agentsync', 'responses', 'deep-1.json');
    assert.ok(fs.existsSync(file), `answered as responses/deep-1.json; responses: ${responseFiles(dir).join(', ')}`);
    const answer = JSON.parse(fs.readFileSync(file, 'utf8')) as { ok: boolean; reason: string; request_id: string; request_file: string };
    assert.deepEqual([answer.ok, answer.reason, answer.request_id, answer.request_file], [false, 'invalid_request', 'deep-1', 'deep.json']);
  });

  it('a FIFO in place of the lock: requests are refused (store_unsafe) without hanging, and SIGTERM stops the watcher at once', async () => {
    const dir = workspace('dz-fifo');
    spawnSync('mkfifo', [path.join(dir, '.agentsync', 'handoffs.lock')]);
    const w = startWatcher(dir);
    children.push(w);
    await ready(w);
    fs.writeFileSync(
      path.join(dir, '.agentsync', '.f.tmp'),
      JSON.stringify({ action: 'claimHandoff', request_id: 'fifo-1', handoffId: 'HO-20260101-001', agent: 'claude' }),
    );
    fs.renameSync(path.join(dir, '.agentsync', '.f.tmp'), path.join(dir, '.agentsync', 'requests', 'f.json'));
    await waitForResponses(dir, 1, 10_000);
    const answer = JSON.parse(fs.readFileSync(path.join(dir, '.agentsync', 'responses', 'fifo-1.json'), 'utf8')) as {
      reason: string;
      message: string;
    };
    assert.equal(answer.reason, 'store_unsafe');
    assert.match(answer.message, /FIFO \(named pipe\), not a lock file AgentSync wrote/);
    const sent = Date.now();
    w.proc.kill('SIGTERM');
    const e = await w.exited;
    assert.equal(e.code, 0);
    assert.ok(Date.now() - sent < 5_000, `stopped ${Date.now() - sent} ms after SIGTERM`);
  });
});
