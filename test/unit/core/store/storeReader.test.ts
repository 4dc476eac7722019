// The store's read seam (src/core/store/storeReader.ts): what every reader outside the commit pipeline gets, with the
// store's own file rules (a symlink or special file is not followed, a file over the limit is not read), and in sync
// mode the age of the state this clone adopted.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { HandoffStore } from '../../../../src/core/store/handoffStore';
import { MAX_STORE_BYTES, readOnce, StoreReader, storeSeed } from '../../../../src/core/store/storeReader';
import { initWorkspace } from '../../../../src/core/workspace/workspaceInit';
import { WorkspaceLayout } from '../../../../src/core/workspace/workspaceLayout';
import { isActionError } from '../../../../src/core/domain/errors';

describe('StoreReader', () => {
  let root: string;
  let store: string;

  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'agentsync-store-reader-'));
    fs.mkdirSync(path.join(root, '.agentsync'));
    store = path.join(root, '.agentsync', 'handoffs.json');
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it('reads the bytes of this clone’s store, and null where there is none', () => {
    const reader = new StoreReader(root);
    assert.equal(reader.exists(), false);
    assert.equal(reader.bytes(), null);
    fs.writeFileSync(store, '{"version":1,"handoffs":[]}');
    assert.equal(reader.exists(), true);
    assert.equal(reader.text(), '{"version":1,"handoffs":[]}');
    assert.equal(reader.file, store);
  });

  it('does not follow a symlinked store, as HandoffStore refuses it', async () => {
    const elsewhere = path.join(root, 'elsewhere.json');
    fs.writeFileSync(elsewhere, '{"version":1,"handoffs":[]}');
    fs.symlinkSync(elsewhere, store);
    assert.equal(new StoreReader(root).bytes(), null);
    await assert.rejects(
      () => new HandoffStore(new WorkspaceLayout(root)).transactRead(() => undefined),
      (e: unknown) => isActionError(e) && e.reason === 'store_unsafe',
    );
  });

  it('does not read a store over the size limit, as HandoffStore refuses it', async () => {
    fs.writeFileSync(store, '');
    fs.truncateSync(store, MAX_STORE_BYTES + 1); // sparse: no disk used
    assert.equal(new StoreReader(root).bytes(), null);
    await assert.rejects(
      () => new HandoffStore(new WorkspaceLayout(root)).transactRead(() => undefined),
      (e: unknown) => isActionError(e) && e.reason === 'too_large',
    );
  });

  it('says when this clone last synced the state it reads (sync mode), null when it never did', () => {
    const reader = new StoreReader(root);
    assert.equal(reader.syncedAt(), null);
    const at = '2026-03-10T12:00:00.000Z';
    fs.writeFileSync(
      path.join(root, '.agentsync', 'sync.json'),
      JSON.stringify({ commit: 'abc', fetched_at: at, pending: [], revoked: [] }),
    );
    assert.equal(reader.syncedAt(), at);
  });

  it('readOnce reads the file once for every step that asks', () => {
    fs.writeFileSync(store, '{"version":1,"handoffs":[]}');
    const reader = new StoreReader(root);
    let reads = 0;
    const counting = Object.assign(Object.create(reader) as StoreReader, {
      bytes: () => (reads++, reader.bytes()),
    });
    const read = readOnce(counting);
    assert.equal(read()?.toString(), read()?.toString());
    assert.equal(reads, 1);
  });

  it("init's store is the store's seed: an empty store HandoffStore reads", async () => {
    fs.rmSync(path.join(root, '.agentsync'), { recursive: true });
    const report = initWorkspace(root, storeSeed(root));
    assert.ok(report.created.includes(path.join('.agentsync', 'handoffs.json')), report.created.join(', '));
    const snapshot = await new HandoffStore(new WorkspaceLayout(root)).transactRead((tx) => tx.snapshot);
    assert.equal(snapshot.handoffs.length, 0);
    assert.equal(fs.readFileSync(store, 'utf8'), '{\n  "version": 1,\n  "handoffs": []\n}\n');
  });
});
