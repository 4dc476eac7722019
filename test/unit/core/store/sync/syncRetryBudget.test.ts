// How long a sync write keeps trying when the shared ref keeps moving (store/sync/retryBudget.ts, docs/contract.md §13),
// and how a refused push is read (store/sync/sharedStateRef.ts): with an injected clock, no waiting, no network.
import * as path from 'node:path';
import { strict as assert } from 'node:assert';
import { isActionError } from '../../../../../src/core/domain/errors';
import { RetryBudget, RETRY_BUDGET_MS, RETRY_PAUSE_CAP_MS, type RetryClock } from '../../../../../src/core/store/sync/retryBudget';
import { RemoteAuthority } from '../../../../../src/core/store/sync/remoteAuthority';
import type { LocalAuthority } from '../../../../../src/core/store/local/localAuthority';
import { pushRefusal } from '../../../../../src/core/store/sync/remoteRefusals';
import { WorkspaceLayout } from '../../../../../src/core/workspace/workspaceLayout';
import { grantSyncConsent } from '../../../../../src/core/workspace/syncConsent';
import { makeTempDir, removeTempDirs } from '../../../helpers/testWorkspace';

/** A clock that only moves when told, and a random number fixed by the test. */
class FakeClock implements RetryClock {
  at = 1_000_000;
  r = 0.5;
  now(): number {
    return this.at;
  }
  random(): number {
    return this.r;
  }
}

describe('sync retry budget (a time, not a count)', () => {
  after(() => removeTempDirs());

  it('keeps retrying while the time lasts, however many attempts that is, then answers null', () => {
    const clock = new FakeClock();
    const budget = new RetryBudget(clock);
    budget.start();
    let retries = 0;
    // Each lost attempt costs 250 ms on a loaded machine: 24 attempts are 6 s, far from the budget.
    for (;;) {
      clock.at += 250;
      if (budget.next(true) === null) break;
      retries++;
    }
    assert.equal(retries, RETRY_BUDGET_MS / 250 - 1);
    assert.ok(retries > 24);
    assert.equal(budget.next(true), null, 'spent stays spent');
    assert.equal(budget.next(false), null, 'a stale view gets no more time either');
    assert.equal(budget.elapsedMs(), RETRY_BUDGET_MS);
  });

  it('pauses grow with each lost race up to the cap, are random below their bound, and never pass the deadline', () => {
    const clock = new FakeClock();
    clock.r = 0.999999;
    const budget = new RetryBudget(clock);
    budget.start();
    const pauses = Array.from({ length: 8 }, () => budget.next(true));
    assert.deepEqual(pauses, [19, 39, 79, 159, 319, 499, 499, 499]);
    clock.r = 0;
    assert.equal(budget.next(true), 0, 'random: the low end of the bound');
    clock.r = 0.999999;
    clock.at += RETRY_BUDGET_MS - 100;
    assert.equal(budget.next(true), 100, 'cut to the time left');
    assert.ok(pauses.every((p) => p !== null && p < RETRY_PAUSE_CAP_MS));
  });

  it('a stale view (not a lost race) is tried again at once and does not grow the pause', () => {
    const clock = new FakeClock();
    clock.r = 0.999999;
    const budget = new RetryBudget(clock);
    budget.start();
    assert.equal(budget.next(false), 0);
    assert.equal(budget.next(false), 0);
    assert.equal(budget.next(true), 19, 'still the first bound');
  });

  it('start() gives a new write the whole budget again', () => {
    const clock = new FakeClock();
    const budget = new RetryBudget(clock);
    budget.start();
    clock.at += RETRY_BUDGET_MS;
    assert.equal(budget.next(true), null);
    budget.start();
    assert.notEqual(budget.next(true), null);
    assert.equal(budget.elapsedMs(), 0);
  });

  it("the remote authority refuses remote_busy only when the budget's time is spent, and says how long it tried", async () => {
    const root = makeTempDir('agentsync-retry-');
    const clock = new FakeClock();
    clock.r = 0; // no real pause
    // This clone agreed to the sync section (docs/contract.md §13), in a consent file of this run.
    process.env.AGENTSYNC_SYNC_CONSENT_FILE ??= path.join(makeTempDir('agentsync-consent-'), 'sync-consent.json');
    grantSyncConsent(root, 'origin', 'refs/agentsync/state');
    const local = { layout: new WorkspaceLayout(root) } as unknown as LocalAuthority;
    const authority = new RemoteAuthority(
      local,
      { remote: 'origin', ref: 'refs/agentsync/state', offline: 'refuse', interval_s: 30 },
      clock,
    );
    await authority.prepare();
    let granted = 0;
    for (let attempt = 1; attempt <= 1000; attempt++) {
      clock.at += 1000;
      if (!(await authority.another())) break;
      granted++;
    }
    assert.equal(granted, RETRY_BUDGET_MS / 1000 - 1);
    const refusal = authority.exhausted('[rejected] (stale info)');
    assert.ok(isActionError(refusal));
    assert.equal(refusal.reason, 'remote_busy');
    assert.match(refusal.message, /kept moving for 60 s/);
    assert.match(refusal.message, /nothing was changed/);
  });
});

describe('a refused push, as git words it', () => {
  it('the ref seen elsewhere (stale lease, not a fast-forward) and a failed update on the server are "moved"; a hook is not', () => {
    // The porcelain lines of git 2.39 against `git daemon` (the third field of "!\t<src>:<dst>\t<summary>").
    assert.deepEqual(pushRefusal('[rejected] (stale info)'), { moved: true, seen: true });
    assert.deepEqual(pushRefusal('[rejected] (non-fast-forward)'), { moved: true, seen: true });
    assert.deepEqual(pushRefusal('[rejected] (fetch first)'), { moved: true, seen: true });
    assert.deepEqual(pushRefusal('[remote rejected] (failed to update ref)'), { moved: true, seen: false });
    assert.deepEqual(pushRefusal('[remote rejected] (failed to lock)'), { moved: true, seen: false });
    assert.deepEqual(pushRefusal('[remote rejected] (pre-receive hook declined)'), { moved: false, seen: false });
    assert.deepEqual(pushRefusal('[remote rejected] (protected branch hook declined)'), { moved: false, seen: false });
  });
});
