// The per-folder bookkeeping of the editor's notifiers (src/vscode/notices/folderNotices.ts): each open folder has its
// own tracker, primed at its first look; a folder not initialized is not looked at; a closed folder's tracker goes,
// so a folder opened again starts from what it holds then; a change of one folder looks at that folder alone.
import * as assert from 'node:assert/strict';
import type { Handoff } from '../../../../src/core/domain/handoffSchema';
import { NewWorkNotices } from '../../../../src/core/domain/newWorkNotices';
import type { FolderService } from '../../../../src/vscode/folders/folderService';
import type { FolderServices } from '../../../../src/vscode/folders/folderServices';
import { FolderNotices } from '../../../../src/vscode/notices/folderNotices';
import { makeHandoff } from '../../helpers/handoffFixtures';

interface Folder {
  name: string;
  initialized: boolean;
  handoffs: Handoff[];
}

const forHuman = (n: number) =>
  makeHandoff({ handoff_id: `HO-20260221-00${n}`, uid: `01JSEED000000000000000000${n}`, to_agents: ['human'] });

/** Open folders and the one change listener, as FolderServices offers them: one service object per folder. */
function folders() {
  const open: Folder[] = [];
  const services = new Map<Folder, unknown>();
  const service = (f: Folder) => {
    if (!services.has(f)) services.set(f, { name: f.name, isInitialized: () => f.initialized, view: () => ({ handoffs: f.handoffs }) });
    return services.get(f) as FolderService;
  };
  let listener: (s: FolderService | undefined) => void = () => undefined;
  const fake = {
    all: () => open.map(service),
    onDidChange: (l: typeof listener) => ((listener = l), { dispose: () => (listener = () => undefined) }),
  };
  return { services: fake as unknown as FolderServices, open, changed: (f?: Folder) => listener(f && service(f)) };
}

describe('FolderNotices: one tracker per open folder', () => {
  function tracker() {
    const f = folders();
    const told: string[] = [];
    const notices = new FolderNotices(
      f.services,
      () => 'human',
      () => new NewWorkNotices(),
      (s: FolderService, fresh) => told.push(...fresh.map((h) => `${s.name}:${h.handoff_id}`)),
    );
    return { ...f, told, notices };
  }

  it('primes each folder at its first look and tells what arrives after, once, in the folder it arrived in', () => {
    const { open, changed, told, notices } = tracker();
    const a: Folder = { name: 'a', initialized: true, handoffs: [forHuman(1)] };
    const b: Folder = { name: 'b', initialized: true, handoffs: [forHuman(1)] };
    open.push(a, b);
    notices.checkAll();
    assert.deepEqual(told, []);
    a.handoffs = [forHuman(1), forHuman(2)];
    b.handoffs = [forHuman(1), forHuman(3)];
    changed(a);
    assert.deepEqual(told, ['a:HO-20260221-002'], 'a change of a looks at a alone');
    changed();
    assert.deepEqual(told, ['a:HO-20260221-002', 'b:HO-20260221-003']);
    changed();
    assert.deepEqual(told, ['a:HO-20260221-002', 'b:HO-20260221-003'], 'once each');
  });

  it('does not look at a folder before it is initialized; its first look then only primes', () => {
    const { open, changed, told } = tracker();
    const a: Folder = { name: 'a', initialized: false, handoffs: [] };
    open.push(a);
    changed();
    a.initialized = true;
    a.handoffs = [forHuman(1)];
    changed(a);
    assert.deepEqual(told, [], 'what was there at the first look is not told');
    a.handoffs = [forHuman(1), forHuman(2)];
    changed(a);
    assert.deepEqual(told, ['a:HO-20260221-002']);
  });

  it('forgets a closed folder: opened again, it is primed afresh and what came meanwhile is not told', () => {
    const { open, changed, told, notices } = tracker();
    const a: Folder = { name: 'a', initialized: true, handoffs: [] };
    open.push(a);
    notices.checkAll();
    open.pop();
    changed();
    a.handoffs = [forHuman(1)];
    open.push(a);
    changed();
    assert.deepEqual(told, []);
    a.handoffs = [forHuman(1), forHuman(2)];
    changed();
    assert.deepEqual(told, ['a:HO-20260221-002']);
  });

  it('stops listening when disposed', () => {
    const { open, changed, told, notices } = tracker();
    const a: Folder = { name: 'a', initialized: true, handoffs: [] };
    open.push(a);
    notices.checkAll();
    notices.dispose();
    a.handoffs = [forHuman(1)];
    changed(a);
    assert.deepEqual(told, []);
  });
});
