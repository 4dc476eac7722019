// SIGKILL at random points of the sync protocol (docs/contract.md §13, "Exactly once across machines"): a create or
// a claim is killed after a random delay within the span a write takes there and then (the median of the last
// answered writes on that host, so the kills follow the span as contention stretches it), then sent again with the same request_id
// until it is answered. Nothing is lost, nothing is applied twice, and the answer names the record the state holds.
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { CLI } from '../processHarness';
import { parseAnswer, SyncTeam, type Answer } from './syncTeam';
import type { Handoff } from '../../../src/core/domain/handoffSchema';

const HOSTS = 4;
const KILLS = 200; // each host's rounds (a create and a claim, each killed once) go on until this many kills landed
const MAX_ROUNDS_PER_HOST = 60;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

describe('sync mode on the test network: SIGKILL at random points of the protocol', function () {
  this.timeout(600_000);
  let team: SyncTeam | undefined;

  afterEach(() => {
    team?.destroy();
    team = undefined;
  });

  it('≥ 200 kills of creates and claims on 4 hosts, each retried with its request_id: nothing lost, nothing applied twice', async () => {
    const agentOf = (c: number) => `killer-${c}`;
    team = await SyncTeam.create({ clones: HOSTS, humans: Array.from({ length: HOSTS }, (_, c) => agentOf(c)) });
    const t = team;

    /** `agentsync --json request -` with `request` on host c's clone, as its own process group. */
    const start = (c: number, request: object) => {
      const proc = spawn('ip', ['netns', 'exec', t.ns(c), process.execPath, CLI, '--dir', t.clones[c], '--json', 'request', '-'], {
        stdio: ['pipe', 'pipe', 'pipe'],
        detached: true,
      });
      let stdout = '';
      let stderr = '';
      proc.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
      proc.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
      proc.stdin.on('error', () => undefined);
      proc.stdin.end(JSON.stringify(request));
      const done = new Promise<{ code: number | null; stdout: string; stderr: string; ms: number }>((resolve) => {
        const t0 = performance.now();
        proc.on('close', (code) => resolve({ code, stdout, stderr, ms: performance.now() - t0 }));
      });
      return { proc, done };
    };
    const answerOf = async (c: number, request: object): Promise<Answer> => {
      const r = await start(c, request).done;
      recent[c].push(r.ms);
      return parseAnswer(r, `host ${c}: ${JSON.stringify(request)}`);
    };

    // The span of one write on this machine: from process start to answer, uncontended (also warms git's objects).
    const spans: number[] = [];
    for (let k = 0; k < 3; k++) {
      const run = start(0, createRequest(`warm-${k}`, `warm ${k}`));
      const r = await run.done;
      assert.equal(parseAnswer(r, 'warm-up create').ok, true, r.stdout + r.stderr);
      spans.push(r.ms);
    }
    // Before the protocol: a process that loads the CLI and the config and answers without the network.
    const floors: number[] = [];
    for (let k = 0; k < 3; k++) floors.push((await start(0, { action: 'status' }).done).ms);
    const floor = median(floors);
    /** The span of a write on host c now: the median of its last 8 answered writes (the warm-ups to begin with). */
    const recent = Array.from({ length: HOSTS }, () => [...spans]);
    const spanOf = (c: number) => median(recent[c].slice(-8));
    let longestDelay = 0;

    const stats = { kills: 0, landedBeforeRetry: 0, notLanded: 0, groupKills: 0, busy: 0 };
    const remoteHas = (pred: (h: Handoff) => boolean) => t.remoteCommit() !== '' && t.remoteStore().some(pred);

    /**
     * Starts `request`, SIGKILLs it after a random delay from 0.7 × the floor (kills before the CLI even loaded teach
     * nothing) to 1.2 × the span, then retries it until it is answered.
     */
    const killThenRetry = async (c: number, request: { request_id: string }, landed: () => boolean): Promise<Answer> => {
      const run = start(c, request);
      const delay = 0.7 * floor + Math.random() * Math.max(0, spanOf(c) * 1.2 - 0.7 * floor);
      longestDelay = Math.max(longestDelay, delay);
      const wholeGroup = Math.random() < 0.5; // the process alone (its git children live on), or all of it, as a host dying
      const timer = setTimeout(() => {
        try {
          process.kill(wholeGroup ? -run.proc.pid! : run.proc.pid!, 'SIGKILL');
        } catch {
          // it had already finished
        }
      }, delay);
      const first = await run.done;
      clearTimeout(timer);
      if (first.code === null) {
        stats.kills++;
        if (wholeGroup) stats.groupKills++;
        if (landed()) stats.landedBeforeRetry++;
        else stats.notLanded++;
      }
      // Sent again until answered; `remote_busy` (the ref kept moving while 8 hosts write) says nothing was changed
      // and to retry, so it is retried too, a bounded number of times, and counted.
      let again = await answerOf(c, request);
      for (let k = 0; k < 10 && again.reason === 'remote_busy'; k++) {
        stats.busy++;
        again = await answerOf(c, request);
      }
      assert.equal(
        again.ok,
        true,
        `host ${c}: the retry of ${request.request_id} is answered ok: ${JSON.stringify(again)}; ${t.remoteDiagnosis()}`,
      );
      assert.equal(again.request_id, request.request_id);
      return again;
    };

    const told = new Map<string, { c: number; id: string }>(); // summary -> host and the id its creator was told
    const worker = async (c: number) => {
      for (let n = 0; stats.kills < KILLS && n < MAX_ROUNDS_PER_HOST; n++) {
        const summary = `kill host ${c} round ${n}`;
        const created = await killThenRetry(c, createRequest(`k${c}-${n}-create`, summary), () => remoteHas((h) => h.summary === summary));
        const id = created.data!.handoff!.handoff_id;
        told.set(summary, { c, id });
        const claim = { action: 'claimHandoff', request_id: `k${c}-${n}-claim`, handoffId: id, agent: agentOf(c) };
        const claimed = await killThenRetry(c, claim, () => remoteHas((h) => h.handoff_id === id && h.claimed_by === agentOf(c)));
        assert.equal(claimed.data?.handoff?.claimed_by, agentOf(c), `the claim's answer shows its claimer: ${JSON.stringify(claimed)}`);
      }
    };
    await Promise.all(Array.from({ length: HOSTS }, (_, c) => worker(c)));
    console.log(
      `      (${stats.kills} kills, ${stats.groupKills} of them of the whole process group; the write had reached the remote ` +
        `before ${stats.landedBeforeRetry}, not before ${stats.notLanded}; kill delays ${(0.7 * floor).toFixed(0)}..${longestDelay.toFixed(0)} ms; ` +
        `${stats.busy} retries answered remote_busy)`,
    );
    assert.ok(stats.kills >= KILLS, `at least ${KILLS} kills landed inside a write, got ${stats.kills}`);
    assert.ok(stats.landedBeforeRetry > 0 && stats.notLanded > 0, 'kills fell both before and after the push reached the remote');

    const final = await t.syncAllAndCompare();
    assert.equal(final.length, 3 + told.size, 'every create is in the shared state once: none lost, none applied twice');
    for (const [summary, { c, id }] of told) {
      const same = final.filter((h) => h.summary === summary);
      assert.equal(same.length, 1, `"${summary}" is in the state once`);
      const h = same[0];
      assert.equal(h.handoff_id, id, `the id answered for "${summary}" names it`);
      assert.equal(h.claimed_by, agentOf(c));
      assert.equal(h.state_history.filter((e) => e.status === 'in_progress').length, 1, `${id} was claimed once`);
    }
    assert.equal(new Set(final.map((h) => h.handoff_id)).size, final.length);
  });
});

function createRequest(requestId: string, summary: string): { request_id: string } & Record<string, unknown> {
  return {
    action: 'createHandoff',
    request_id: requestId,
    handoff: { from_agent: 'claude', to_agents: ['codex'], owner_mode: 'single', summary },
  };
}
