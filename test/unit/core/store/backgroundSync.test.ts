// The editor's background sync (store/backgroundSync.ts, docs/contract.md §13) against a real bare repository
// on disk: another clone's write reaches this clone's store on the next tick, and a remote gone is a status, not a throw.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { HandoffStore } from '../../../../src/core/store/handoffStore';
import { RequestDispatcher } from '../../../../src/core/requests/requestDispatcher';
import { BackgroundSync, syncStatusLine, type BackgroundSyncStatus } from '../../../../src/core/store/backgroundSync';
import { WorkspaceLayout } from '../../../../src/core/workspace/workspaceLayout';
import { makeTempDir, removeTempDirs } from '../../helpers/testWorkspace';
import { grantSyncConsent } from '../../../../src/core/workspace/syncConsent';

// Consents go to a file of this run, never the user's own.
process.env.AGENTSYNC_SYNC_CONSENT_FILE ??= path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'agentsync-consent-')), 'sync-consent.json');

function git(cwd: string, args: string[]): void {
  const r = spawnSync('git', args, { cwd, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
}

function clone(bare: string, sync: Record<string, unknown> = {}): { ws: string; store: HandoffStore; dispatcher: RequestDispatcher } {
  const parent = makeTempDir('agentsync-bgsync-');
  git(parent, ['clone', '-q', bare, 'ws']);
  const ws = path.join(parent, 'ws');
  fs.writeFileSync(path.join(ws, '.agentsync.json'), JSON.stringify({ sync: { remote: 'origin', ...sync } }));
  grantSyncConsent(ws, 'origin', 'refs/agentsync/state');
  const store = new HandoffStore(new WorkspaceLayout(ws));
  return { ws, store, dispatcher: new RequestDispatcher(store, 'test') };
}

describe('background sync (the editor)', function () {
  this.timeout(60_000);
  afterEach(removeTempDirs);

  it("brings another clone's write into this clone's store on the next tick, and says when", async () => {
    const bare = path.join(makeTempDir('agentsync-bare-'), 'shared.git');
    git(path.dirname(bare), ['init', '-q', '--bare', bare]);
    const a = clone(bare);
    const b = clone(bare);
    const made = await a.dispatcher.dispatch({
      action: 'createHandoff',
      handoff: { from_agent: 'human', to_agents: ['claude'], owner_mode: 'single', summary: 'from a' },
    });
    assert.equal(made.ok, true, JSON.stringify(made));
    const told: (BackgroundSyncStatus | null)[] = [];
    const loop = new BackgroundSync(b.store, (s) => told.push(s), b.dispatcher.replayer);
    assert.equal(b.store.read().handoffs.length, 0);
    const status = await loop.tick();
    assert.equal(b.store.read().handoffs.length, 1);
    assert.equal(status?.ok, true);
    assert.ok(status?.fetchedAt);
    assert.equal(told.length, 1);
    assert.match(syncStatusLine(status).message, /^Sync: origin refs\/agentsync\/state, last synced /);
  });

  it('a remote gone is a warning status and the store is left as it was', async () => {
    const bare = path.join(makeTempDir('agentsync-bare-'), 'shared.git');
    git(path.dirname(bare), ['init', '-q', '--bare', bare]);
    const a = clone(bare);
    await a.dispatcher.dispatch({
      action: 'createHandoff',
      handoff: { from_agent: 'human', to_agents: ['claude'], owner_mode: 'single', summary: 'kept' },
    });
    const before = fs.readFileSync(a.store.layout.handoffsFile);
    fs.renameSync(bare, `${bare}.gone`);
    const status = await new BackgroundSync(a.store, () => undefined, a.dispatcher.replayer).tick();
    assert.equal(status?.ok, false);
    assert.equal(status?.reason, 'remote_unreachable');
    assert.deepEqual(fs.readFileSync(a.store.layout.handoffsFile), before);
    const line = syncStatusLine(status);
    assert.equal(line.tone, 'warning');
    assert.match(line.message, /did not answer/);
  });

  it('start() again (the config changed) syncs now and then at the new interval, not the idle one', async () => {
    const bare = path.join(makeTempDir('agentsync-bare-'), 'shared.git');
    git(path.dirname(bare), ['init', '-q', '--bare', bare]);
    const a = clone(bare);
    const b = clone(bare, { interval_s: 5 });
    fs.writeFileSync(b.store.layout.configFile, '{}'); // sync off when the window opens
    const ticks: string[] = [];
    const loop = new BackgroundSync(b.store, (s) => ticks.push(s?.lastAttemptAt ?? ''), b.dispatcher.replayer);
    loop.start();
    await new Promise((r) => setTimeout(r, 200)); // the first, idle tick has run; the next idle one is 30 s away
    assert.equal(ticks.length, 0);
    fs.writeFileSync(b.store.layout.configFile, JSON.stringify({ sync: { remote: 'origin', interval_s: 5 } }));
    await a.dispatcher.dispatch({
      action: 'createHandoff',
      handoff: { from_agent: 'human', to_agents: ['claude'], owner_mode: 'single', summary: 'seen' },
    });
    loop.start();
    for (let i = 0; i < 100 && ticks.length === 0; i++) await new Promise((r) => setTimeout(r, 50));
    loop.stop();
    assert.equal(ticks.length, 1, 'synced at once');
    assert.equal(b.store.read().handoffs.length, 1);
  });

  it('with sync off there is no status and nothing is contacted', async () => {
    const ws = makeTempDir('agentsync-nosync-');
    grantSyncConsent(ws, 'origin', 'refs/agentsync/state');
    const store = new HandoffStore(new WorkspaceLayout(ws));
    assert.equal(await new BackgroundSync(store, () => assert.fail('no status while sync is off'), null).tick(), null);
  });
});
