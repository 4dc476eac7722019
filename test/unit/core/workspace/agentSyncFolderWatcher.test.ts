// The one watcher piece of a folder (docs/architecture.md, "One watcher per folder"), on real files on disk: each
// kind of change reaches subscribers, a .agentsync/ made after start is picked up, a symlinked one is not followed,
// the folder deleted is let go without throwing, and close() stops the events and leaves no inotify watch behind.
// Every "nothing arrived" is asserted after a later marker event has arrived, never after a fixed sleep.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { AgentSyncFolderWatcher, type FolderFileKind } from '../../../../src/core/workspace/agentSyncFolderWatcher';
import { WorkspaceLayout } from '../../../../src/core/workspace/workspaceLayout';
import { makeTempDir, removeTempDirs } from '../../helpers/testWorkspace';

/** Records every event and lets a test wait for the next one of a kind. */
class Recorder {
  readonly seen: FolderFileKind[] = [];
  private waiters: { kind: FolderFileKind; resolve: () => void }[] = [];
  constructor(watcher: AgentSyncFolderWatcher) {
    watcher.onDidChange((kind) => {
      this.seen.push(kind);
      for (const w of this.waiters.filter((x) => x.kind === kind)) w.resolve();
      this.waiters = this.waiters.filter((x) => x.kind !== kind);
    });
  }
  /** Resolves at the next `kind` event (call it before causing the change). */
  next(kind: FolderFileKind, what: string, timeoutMs = 5_000): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no ${kind} event for ${what} within ${timeoutMs} ms`)), timeoutMs);
      this.waiters.push({ kind, resolve: () => (clearTimeout(timer), resolve()) });
    });
  }
}

/** Writes a file the way AgentSync writers do: a temp file renamed into place. */
function writeAtomically(file: string, text: string): void {
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.tmp`);
  fs.writeFileSync(tmp, text);
  fs.renameSync(tmp, file);
}

/** The inodes the kernel watches for this process (Linux inotify, read from /proc); null elsewhere. */
function inotifyWatchedInodes(): Set<number> | null {
  if (process.platform !== 'linux') return null;
  const inodes = new Set<number>();
  for (const fd of fs.readdirSync('/proc/self/fdinfo')) {
    let info: string;
    try {
      info = fs.readFileSync(`/proc/self/fdinfo/${fd}`, 'utf8');
    } catch {
      continue;
    }
    for (const m of info.matchAll(/^inotify wd:\S+ ino:([0-9a-f]+)/gm)) inodes.add(parseInt(m[1], 16));
  }
  return inodes;
}

/** Polls a condition no event announces (the folder's own removal); fails after timeoutMs. */
async function waitFor(what: string, probe: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

function setup(withDataDir: boolean): { layout: WorkspaceLayout; watcher: AgentSyncFolderWatcher; events: Recorder; errors: Error[] } {
  const layout = new WorkspaceLayout(makeTempDir('agentsync-watch-'));
  if (withDataDir) fs.mkdirSync(layout.requestsDir, { recursive: true });
  const errors: Error[] = [];
  const watcher = new AgentSyncFolderWatcher(layout, (e) => errors.push(e));
  return { layout, watcher, events: new Recorder(watcher), errors };
}

describe('AgentSyncFolderWatcher', () => {
  const open: AgentSyncFolderWatcher[] = [];
  const watch = <T extends { watcher: AgentSyncFolderWatcher }>(t: T): T => (open.push(t.watcher), t);
  afterEach(() => {
    while (open.length) open.pop()!.close();
  });
  after(removeTempDirs);

  it('tells subscribers which kind of file changed: config, store, state, request.json and requests/*', async () => {
    const { layout, watcher, events, errors } = watch(setup(true));
    assert.equal(watcher.handleCount, 3, 'the folder, .agentsync/ and requests/');
    const cases: [FolderFileKind, string][] = [
      ['config', layout.configFile],
      ['store', layout.handoffsFile],
      ['state', layout.stateFile],
      ['request', layout.requestFile],
      ['request', path.join(layout.requestsDir, 'a.json')],
    ];
    for (const [kind, file] of cases) {
      const arrived = events.next(kind, path.relative(layout.root, file));
      writeAtomically(file, '{}');
      await arrived;
    }
    assert.deepEqual(errors, []);
  });

  it('request.json re-created under the same name and taken away at once: every one is reported', async () => {
    const { layout, events } = watch(setup(true));
    for (let i = 0; i < 50; i++) {
      const arrived = events.next('request', `request.json #${i}`);
      writeAtomically(layout.requestFile, `{"n":${i}}`);
      fs.renameSync(layout.requestFile, path.join(layout.dataDir, '.taken.json')); // what the drop zone's claim does
      await arrived;
    }
  });

  it('a .agentsync/ made after start (an uninitialized folder, then Initialize) is watched, then its requests/', async () => {
    const { layout, watcher, events } = watch(setup(false));
    assert.equal(watcher.handleCount, 1, 'only the folder itself');
    const appeared = events.next('store', '.agentsync/ created');
    fs.mkdirSync(layout.dataDir);
    await appeared;
    const stored = events.next('store', 'handoffs.json');
    writeAtomically(layout.handoffsFile, '{}');
    await stored;
    const requestsWatched = events.next('request', 'requests/ created');
    fs.mkdirSync(layout.requestsDir);
    await requestsWatched;
    assert.equal(watcher.handleCount, 3);
    const request = events.next('request', 'requests/late.json');
    writeAtomically(path.join(layout.requestsDir, 'late.json'), '{}');
    await request;
  });

  it('does not follow a symlinked .agentsync/: what is written behind it is not reported', async () => {
    const layout = new WorkspaceLayout(makeTempDir('agentsync-watch-'));
    const elsewhere = makeTempDir('agentsync-elsewhere-');
    fs.symlinkSync(elsewhere, layout.dataDir);
    const watcher = new AgentSyncFolderWatcher(layout);
    watch({ watcher });
    const events = new Recorder(watcher);
    assert.equal(watcher.handleCount, 1);
    writeAtomically(path.join(elsewhere, 'handoffs.json'), '{}');
    const marker = events.next('config', 'the later marker');
    writeAtomically(layout.configFile, '{}');
    await marker;
    assert.deepEqual(events.seen, ['config']);
  });

  it('the folder deleted: its watches are let go, nothing is thrown, and ensure() watches it again once it is back', async () => {
    const { layout, watcher, events } = watch(setup(true));
    const gone = events.next('store', '.agentsync/ deleted');
    fs.rmSync(layout.root, { recursive: true, force: true });
    await gone;
    await waitFor('every watch let go', () => watcher.handleCount === 0);
    fs.mkdirSync(layout.dataDir, { recursive: true });
    const back = events.next('store', 'ensure() after the folder came back');
    watcher.ensure();
    await back;
    assert.equal(watcher.handleCount, 2);
  });

  it('close() stops the events and leaves no watch behind', async () => {
    const first = setup(true);
    const { layout, watcher, events } = first;
    const inodes = [layout.root, layout.dataDir, layout.requestsDir].map((d) => fs.statSync(d).ino);
    assert.equal(AgentSyncFolderWatcher.liveCount(layout.root), 1);
    const before = inotifyWatchedInodes();
    if (before) for (const ino of inodes) assert.ok(before.has(ino), `inode ${ino} is watched while open`);
    watcher.close();
    assert.equal(watcher.handleCount, 0);
    assert.equal(AgentSyncFolderWatcher.liveCount(layout.root), 0);
    const after = inotifyWatchedInodes();
    if (after) for (const ino of inodes) assert.ok(!after.has(ino), `inode ${ino} is still watched after close()`);
    // A second watcher's event for a later marker proves the writes before it were seen by the kernel by then.
    const marker = watch({ watcher: new AgentSyncFolderWatcher(layout) });
    const markerEvents = new Recorder(marker.watcher);
    writeAtomically(layout.handoffsFile, '{}');
    const arrived = markerEvents.next('config', 'the marker');
    writeAtomically(layout.configFile, '{}');
    await arrived;
    assert.deepEqual(events.seen, [], 'a closed watcher reports nothing');
  });
});
