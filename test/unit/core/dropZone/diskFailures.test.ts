// A full disk or a read-only checkout. Real file systems, not mocks: a 512 KiB tmpfs filled up and
// the same tmpfs remounted read-only (mount needs root / CAP_SYS_ADMIN, which this test machine has).
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DropZoneProcessor } from '../../../../src/core/dropZone/dropZoneProcessor';
import { HandoffStore } from '../../../../src/core/store/handoffStore';
import { RequestDispatcher } from '../../../../src/core/requests/requestDispatcher';
import { WorkspaceLayout } from '../../../../src/core/workspace/workspaceLayout';
import { makeTempDir, removeTempDirs } from '../../helpers/testWorkspace';

const create = (summary: string) => ({
  action: 'createHandoff',
  handoff: { from_agent: 'codex', to_agents: ['claude'], owner_mode: 'single', summary },
});

function tempFilesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((n) => n.endsWith('.tmp'));
}

describe('disk full and read-only checkouts', () => {
  let mountPoint: string;
  let root: string;
  let dispatcher: RequestDispatcher;

  beforeEach(async () => {
    mountPoint = makeTempDir('agentsync-disk-');
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=512k', 'tmpfs', mountPoint]);
    root = path.join(mountPoint, 'ws');
    fs.mkdirSync(root);
    dispatcher = new RequestDispatcher(new HandoffStore(new WorkspaceLayout(root)), 'disk');
    const first = await dispatcher.dispatch(create('written while there was room'));
    assert.equal(first.ok, true, JSON.stringify(first));
  });

  afterEach(() => {
    execFileSync('umount', ['-l', mountPoint]);
  });
  after(removeTempDirs);

  function fillDisk(): string {
    const filler = path.join(mountPoint, 'filler');
    const fd = fs.openSync(filler, 'w');
    try {
      const block = Buffer.alloc(16 * 1024, 1);
      for (;;) fs.writeSync(fd, block);
    } catch (e) {
      assert.equal((e as NodeJS.ErrnoException).code, 'ENOSPC');
    } finally {
      fs.closeSync(fd);
    }
    return filler;
  }

  it('a drop-zone request that meets a full disk stays in place (not rejected/) and is answered once space is freed', async () => {
    const layout = new WorkspaceLayout(root);
    fs.mkdirSync(layout.requestsDir, { recursive: true });
    fs.writeFileSync(path.join(layout.requestsDir, 'wanted.json'), JSON.stringify(create('x'.repeat(1_500))));
    const filler = fillDisk();
    const processor = new DropZoneProcessor(layout, dispatcher);
    const stats = await processor.processOnce();
    assert.equal(stats.rejected, 0);
    assert.equal(fs.existsSync(layout.rejectedDir) ? fs.readdirSync(layout.rejectedDir).length : 0, 0, 'nothing in rejected/');
    fs.rmSync(filler);
    const later = await processor.processOnce();
    assert.equal(later.answered, 1, JSON.stringify(later));
    const answers = fs.readdirSync(layout.responsesDir).filter((n) => n.endsWith('.json'));
    assert.equal(answers.length, 1);
    const answer = JSON.parse(fs.readFileSync(path.join(layout.responsesDir, answers[0]), 'utf8')) as { ok: boolean; request_file: string };
    assert.deepEqual([answer.ok, answer.request_file], [true, 'wanted.json']);
  });

  it('a full disk is refused as disk_full, leaves no temp file, changes nothing, and works again once space is freed', async () => {
    const layout = new WorkspaceLayout(root);
    const before = fs.readFileSync(layout.handoffsFile);
    const filler = fillDisk();
    const r = await dispatcher.dispatch(create('x'.repeat(1_500)));
    assert.equal(r.ok, false);
    assert.equal(r.reason, 'disk_full', JSON.stringify(r));
    assert.match(r.message!, /disk is full/);
    assert.deepEqual(tempFilesUnder(mountPoint), [], 'no temp file eats the freed space');
    assert.deepEqual(fs.readFileSync(layout.handoffsFile), before);
    fs.rmSync(filler);
    const again = await dispatcher.dispatch(create('after freeing space'));
    assert.equal(again.ok, true, JSON.stringify(again));
  });

  it('a read-only checkout: list (and show, which lists) and status answer; a write is refused as read_only', async () => {
    execFileSync('mount', ['-o', 'remount,ro', mountPoint]);
    const fresh = new RequestDispatcher(new HandoffStore(new WorkspaceLayout(root)), 'ro');
    const list = await fresh.dispatch({ action: 'listHandoffs' });
    assert.equal(list.ok, true, JSON.stringify(list));
    assert.equal((list.data as { count: number }).count, 1);
    const filtered = await fresh.dispatch({ action: 'listHandoffs', status: 'queued', request_id: 'ro-list-1' }); // what `show` sends
    assert.equal(filtered.ok, true, JSON.stringify(filtered));
    const status = await fresh.dispatch({ action: 'status' });
    assert.equal(status.ok, true, JSON.stringify(status));
    const write = await fresh.dispatch(create('nope'));
    assert.equal(write.ok, false);
    assert.equal(write.reason, 'read_only', JSON.stringify(write));
    assert.match(write.message!, /read-only/);
  });
});
