// Nothing lost (docs/contract.md §12) while git replaces handoffs.json under a running writer. Real git, real disk: a stream of createHandoff
// requests runs through a HandoffStore while `git checkout -f` switches 200 times between two branches whose stores
// hold different records. A loss is any of, checked after every checkout once two more requests have been answered:
//   - the store lacks a record of the checked-out branch's commit (an empty or older store was written over git's:
//     "80 records gone, ids from 001 again");
//   - the store holds a record only the other branch's commit has (the old branch written back over git's file);
//   - a request answered after the checkout finished is not in the store (an acknowledged write lost);
//   - a `git checkout -f` failed (e.g. "unable to create file AgentTracker.md: File exists").
// Records written before a checkout and not committed are discarded by `git checkout -f` itself: that is git's -f,
// not a loss. The run prints the loss count; it must be 0.
import * as assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { HandoffStore } from '../../src/core/store/handoffStore';
import { RequestDispatcher } from '../../src/core/requests/requestDispatcher';
import { initWorkspace } from '../../src/core/workspace/workspaceInit';
import { storeSeed } from '../../src/core/store/storeReader';
import { WorkspaceLayout } from '../../src/core/workspace/workspaceLayout';
import type { Handoff } from '../../src/core/domain/handoffSchema';
import { tempWorkspace } from './processHarness';

const CHECKOUTS = 200;
const GIT_ENV = {
  ...process.env,
  GIT_AUTHOR_NAME: 't',
  GIT_AUTHOR_EMAIL: 't@example.com',
  GIT_COMMITTER_NAME: 't',
  GIT_COMMITTER_EMAIL: 't@example.com',
};

function gitSync(dir: string, args: string[]): void {
  const r = spawnSync('git', ['-C', dir, ...args], { encoding: 'utf8', env: GIT_ENV });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
}

function gitAsync(dir: string, args: string[]): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve) => {
    execFile('git', ['-C', dir, ...args], { env: GIT_ENV }, (err, _out, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stderr }),
    );
  });
}

function storedUids(layout: WorkspaceLayout): Set<string> {
  return new Set((JSON.parse(fs.readFileSync(layout.handoffsFile, 'utf8')) as { handoffs: Handoff[] }).handoffs.map((h) => h.uid!));
}

describe('git checkout -f under a stream of writes', function () {
  this.timeout(120_000);

  it(`${CHECKOUTS} checkouts between two branches lose nothing`, async () => {
    const dir = tempWorkspace('gitrace');
    const layout = new WorkspaceLayout(dir);
    gitSync(dir, ['init', '-q', '-b', 'a']);
    initWorkspace(dir, storeSeed(dir));
    gitSync(dir, ['add', '-A']);
    gitSync(dir, ['commit', '-qm', 'init']);
    gitSync(dir, ['branch', 'b']);
    const base: Record<string, Set<string>> = {};
    for (const [branch, n] of [
      ['b', 30],
      ['a', 40],
    ] as const) {
      gitSync(dir, ['checkout', '-q', '-f', branch]);
      const d = new RequestDispatcher(new HandoffStore(layout), 'setup');
      for (let i = 0; i < n; i++) {
        const r = await d.dispatch({
          action: 'createHandoff',
          handoff: { from_agent: 'codex', to_agents: ['claude'], owner_mode: 'single', summary: `${branch} base ${i}` },
        });
        assert.equal(r.ok, true, JSON.stringify(r));
      }
      gitSync(dir, ['add', '-A']);
      gitSync(dir, ['commit', '-qm', `${branch} records`]);
      base[branch] = storedUids(layout);
    }
    // Now on branch a. One long-lived writer, as `agentsync watch` or the editor would be.
    const dispatcher = new RequestDispatcher(new HandoffStore(layout, { lockTimeoutMs: 30_000 }), 'stream');
    let answered: { uid: string; at: number }[] = [];
    const waiters: (() => void)[] = [];
    let stop = false;
    const refusals: string[] = [];
    const stream = (async () => {
      for (let k = 0; !stop; k++) {
        const r = await dispatcher.dispatch({
          action: 'createHandoff',
          handoff: { from_agent: 'codex', to_agents: ['claude'], owner_mode: 'single', summary: `stream ${k}` },
        });
        if (r.ok) answered.push({ uid: r.data!.handoff.uid!, at: Date.now() });
        else refusals.push(`${r.reason}: ${r.message}`);
        waiters.splice(0).forEach((w) => w());
      }
    })();
    const answers = (n: number) =>
      new Promise<void>((resolve) => {
        let left = n;
        const tick = () => (--left <= 0 ? resolve() : waiters.push(tick));
        waiters.push(tick);
      });

    const losses: string[] = [];
    let branch = 'a';
    const started = Date.now();
    for (let i = 0; i < CHECKOUTS; i++) {
      const next = branch === 'a' ? 'b' : 'a';
      const co = await gitAsync(dir, ['checkout', '-q', '-f', next]);
      if (co.code !== 0) losses.push(`checkout ${i} to ${next} failed: ${co.stderr.trim()}`);
      branch = next;
      const finished = Date.now();
      answered = answered.filter((a) => a.at >= finished);
      await answers(2);
      const uids = storedUids(layout);
      const other = branch === 'a' ? 'b' : 'a';
      const missingBase = [...base[branch]].filter((u) => !uids.has(u)).length;
      const foreign = [...base[other]].filter((u) => uids.has(u)).length;
      const lostAcks = answered.filter((a) => a.at > finished && !uids.has(a.uid)).length;
      if (missingBase) losses.push(`checkout ${i} (${branch}): ${missingBase} of the branch's committed records missing`);
      if (foreign) losses.push(`checkout ${i} (${branch}): ${foreign} records of branch ${other} written back`);
      if (lostAcks) losses.push(`checkout ${i} (${branch}): ${lostAcks} answered writes missing`);
    }
    stop = true;
    await stream;
    console.log(
      `      git race: ${CHECKOUTS} checkouts in ${Date.now() - started} ms, losses: ${losses.length}, refused writes: ${refusals.length}`,
    );
    assert.deepEqual(losses, [], 'losses');
    assert.deepEqual(refusals, [], 'no write was refused');
  });

  it('a fresh clone whose tracked store is missing refuses (store_missing) instead of starting an empty store', async () => {
    const dir = tempWorkspace('gitmissing');
    const layout = new WorkspaceLayout(dir);
    gitSync(dir, ['init', '-q']);
    initWorkspace(dir, storeSeed(dir));
    const setup = new RequestDispatcher(new HandoffStore(layout), 'setup');
    assert.equal(
      (
        await setup.dispatch({
          action: 'createHandoff',
          handoff: { from_agent: 'codex', to_agents: ['claude'], owner_mode: 'single', summary: 'kept' },
        })
      ).ok,
      true,
    );
    gitSync(dir, ['add', '-A']);
    gitSync(dir, ['commit', '-qm', 'store']);
    // What a fresh clone has: no runtime files of this machine, and then the store goes missing.
    fs.rmSync(layout.validatedStampFile, { force: true });
    fs.rmSync(layout.stateFile, { force: true });
    fs.rmSync(layout.handoffsFile);
    const r = await new RequestDispatcher(new HandoffStore(layout), 'clone').dispatch({
      action: 'createHandoff',
      handoff: { from_agent: 'codex', to_agents: ['claude'], owner_mode: 'single', summary: 'x' },
    });
    assert.equal(r.ok, false);
    assert.equal(r.reason, 'store_missing', JSON.stringify(r));
    assert.equal(fs.existsSync(layout.handoffsFile), false, 'no empty store was written');
  });
});
