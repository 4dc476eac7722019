// The tool hooks' index (src/core/store/hookIndex.ts): the live claims in the store's own layout, so the hooks' scan
// reads it as the store, naming the store file it came from; StoreReader.hookBytes takes it only while the store file
// still has that stat, and the store otherwise.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileStatKeyOf } from '../../../../src/core/disk/fileStatKey';
import type { Handoff } from '../../../../src/core/domain/handoffSchema';
import { radarHits } from '../../../../src/core/hooks/conflictRadar';
import { leasesDue } from '../../../../src/core/hooks/leaseRenewal';
import { derivedFrom, freshHookIndex, hookIndexBytes, writeHookIndex } from '../../../../src/core/store/hookIndex';
import { headFor, recordText, SEPARATOR, TAIL } from '../../../../src/core/store/storeFormat';
import { StoreReader } from '../../../../src/core/store/storeReader';
import { WorkspaceLayout } from '../../../../src/core/workspace/workspaceLayout';
import { makeHandoff } from '../../helpers/handoffFixtures';

const at = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();
const HASH = 'a'.repeat(64);

function held(id: string, by: string, files: string[], leaseMinutes: number): Handoff {
  return makeHandoff({
    handoff_id: id,
    status: 'in_progress',
    to_agents: [by],
    claimed_by: by,
    claimed_at: at(-20),
    updated_at: at(-20),
    lease_expires_at: at(leaseMinutes),
    claimed_session: { id: 'sess-1', worktree: 'main', branch: 'main' },
    files,
  });
}

const storeBytes = (handoffs: Handoff[]) =>
  Buffer.concat([headFor(undefined, 2), Buffer.from(handoffs.map(recordText).join(SEPARATOR.toString())), TAIL]);

describe("the tool hooks' index", () => {
  const handoffs = [
    held('HO-20260310-001', 'codex', ['src/contested.ts'], 29),
    held('HO-20260310-002', 'claude', ['src/mine.ts'], 5),
    makeHandoff({ handoff_id: 'HO-20260310-003', status: 'queued', files: ['src/contested.ts', 'src/queued.ts'] }),
  ];

  it('holds the live claims only, and the hooks find in it what they find in the store', () => {
    const index = hookIndexBytes(handoffs, '1:2:3:4:5', HASH);
    assert.deepEqual(derivedFrom(index), { stat: '1:2:3:4:5', hash: HASH });
    const parsed = JSON.parse(index.toString('utf8')) as { handoffs: { handoff_id: string; notes?: string }[] };
    assert.deepEqual(
      parsed.handoffs.map((h) => h.handoff_id),
      ['HO-20260310-001', 'HO-20260310-002'],
    );
    assert.equal(parsed.handoffs[0].notes, undefined, 'what the hooks do not read is left out');
    const store = storeBytes(handoffs);
    const now = Date.now();
    for (const file of ['src/contested.ts', 'src/mine.ts', 'src/queued.ts']) {
      assert.deepEqual(radarHits(index, [file], 'gemini', now), radarHits(store, [file], 'gemini', now), file);
    }
    assert.equal(radarHits(index, ['src/contested.ts'], 'gemini', now).length, 1);
    const session = { id: 'sess-1', worktree: 'main', branch: 'main' };
    assert.deepEqual(leasesDue(index, 'claude', now, session), leasesDue(store, 'claude', now, session));
    assert.deepEqual(leasesDue(index, 'claude', now, session), ['HO-20260310-002']);
    assert.equal(radarHits(hookIndexBytes([], '1:2:3:4:5', HASH), ['src/contested.ts'], 'gemini', now).length, 0);
  });

  describe('read through StoreReader.hookBytes', () => {
    let ws: string;
    let layout: WorkspaceLayout;
    beforeEach(() => {
      ws = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'agentsync-hook-index-')));
      fs.mkdirSync(path.join(ws, '.agentsync'));
      layout = new WorkspaceLayout(ws);
      fs.writeFileSync(layout.handoffsFile, storeBytes(handoffs));
    });
    afterEach(() => fs.rmSync(ws, { recursive: true, force: true }));

    it('takes the index while it names the store file as it is, and the store once the store changed', () => {
      const reader = new StoreReader(layout);
      assert.ok(reader.hookBytes()?.equals(fs.readFileSync(layout.handoffsFile)), 'no index yet: the store');
      writeHookIndex(layout.hookIndexFile, handoffs, fileStatKeyOf(layout.handoffsFile), HASH);
      assert.ok(reader.hookBytes()?.equals(fs.readFileSync(layout.hookIndexFile)), 'a fresh index');
      fs.writeFileSync(layout.handoffsFile, storeBytes(handoffs.slice(1)));
      assert.ok(reader.hookBytes()?.equals(fs.readFileSync(layout.handoffsFile)), 'the store moved: the store');
      assert.equal(freshHookIndex(layout.hookIndexFile, layout.handoffsFile), null);
    });

    it('an index written for other readers (an older version, without a field a reader now declares) is not taken', () => {
      const stat = fileStatKeyOf(layout.handoffsFile)!;
      // As AgentSync 0.5 wrote it: version 1, no covers line, the fields listed by hand.
      const old = `{\n  "version": 1,\n  "derived_from": "${stat} ${HASH}",\n  "handoffs": []\n}\n`;
      fs.writeFileSync(layout.hookIndexFile, old);
      assert.equal(derivedFrom(Buffer.from(old)), null);
      assert.equal(freshHookIndex(layout.hookIndexFile, layout.handoffsFile), null);
      assert.ok(new StoreReader(layout).hookBytes()?.equals(fs.readFileSync(layout.handoffsFile)), 'the store is read instead');
      const covers = hookIndexBytes(handoffs, stat, HASH).toString('utf8').split('\n')[2];
      fs.writeFileSync(
        layout.hookIndexFile,
        hookIndexBytes(handoffs, stat, HASH).toString('utf8').replace(covers, covers.replace('policy', 'polic')),
      );
      assert.equal(freshHookIndex(layout.hookIndexFile, layout.handoffsFile), null, 'covers names other fields');
      writeHookIndex(layout.hookIndexFile, handoffs, stat, HASH);
      assert.ok(freshHookIndex(layout.hookIndexFile, layout.handoffsFile), 'the next write replaces it: taken');
    });

    it('an index of unknown origin is removed, and one through a symlink or without a head is not taken', () => {
      writeHookIndex(layout.hookIndexFile, handoffs, fileStatKeyOf(layout.handoffsFile), HASH);
      writeHookIndex(layout.hookIndexFile, handoffs, null, HASH);
      assert.equal(fs.existsSync(layout.hookIndexFile), false);
      const elsewhere = path.join(ws, 'elsewhere.json');
      fs.writeFileSync(elsewhere, hookIndexBytes(handoffs, fileStatKeyOf(layout.handoffsFile)!, HASH));
      fs.symlinkSync(elsewhere, layout.hookIndexFile);
      assert.equal(freshHookIndex(layout.hookIndexFile, layout.handoffsFile), null);
      fs.rmSync(layout.hookIndexFile);
      fs.writeFileSync(layout.hookIndexFile, storeBytes(handoffs));
      assert.equal(freshHookIndex(layout.hookIndexFile, layout.handoffsFile), null);
    });
  });
});
