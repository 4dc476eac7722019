// Once handoffs.json is renamed into place the change has happened, so the answer is ok even when
// the stamp, the ledger, the derived files or the audit then fail; those failures are logged and repaired later.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { HandoffStore } from '../../../../../src/core/store/handoffStore';
import { RequestDispatcher } from '../../../../../src/core/requests/requestDispatcher';
import { makeTempDir, removeTempDirs, rid, TestWorkspace } from '../../../helpers/testWorkspace';

const create = (request_id: string, summary = 'after the rename') => ({
  action: 'createHandoff',
  request_id,
  handoff: { from_agent: 'codex', to_agents: ['claude'], owner_mode: 'single', summary },
});

describe('after the store rename the answer is the truth (docs/contract.md §8)', () => {
  after(removeTempDirs);

  it('the stamp path is a folder: ok, stored once, audited, tracker updated; a retry is a replay, not a duplicate', async () => {
    const ws = new TestWorkspace();
    fs.mkdirSync(ws.layout.validatedStampFile);
    const id = rid('stamp');
    const r = await ws.dispatch(create(id));
    assert.equal(r.ok, true, JSON.stringify(r));
    assert.equal(ws.storedHandoffs().length, 1);
    assert.equal(ws.auditFor(id).length, 1);
    assert.equal(ws.auditFor(id)[0].refused, undefined);
    assert.match(ws.readText(ws.layout.trackerFile) ?? '', /after the rename/);
    assert.ok(
      ws.warnings.some((w) => /stamp/.test(w)),
      ws.warnings.join('\n'),
    );
    const again = await ws.dispatch(create(id));
    assert.equal(again.ok, true);
    assert.equal(ws.storedHandoffs().length, 1, 'the retry did not add a second record');
  });

  it('the ledger is a symlink: ok, and three retries of the same request leave one record', async () => {
    const ws = new TestWorkspace();
    const elsewhere = path.join(makeTempDir(), 'target.jsonl');
    fs.writeFileSync(elsewhere, '');
    fs.symlinkSync(elsewhere, ws.layout.ledgerFile);
    const id = rid('ledger');
    for (let i = 0; i < 3; i++) {
      const r = await ws.dispatch(create(id));
      assert.equal(r.ok, true, `try ${i}: ${JSON.stringify(r)}`);
    }
    assert.equal(ws.storedHandoffs().length, 1);
    assert.equal(fs.readFileSync(elsewhere, 'utf8'), '', 'nothing written through the symlink');
    assert.ok(
      ws.warnings.some((w) => /ledger/.test(w)),
      ws.warnings.join('\n'),
    );
  });

  it('a failure right after the rename (test seam, ENOSPC) still answers ok and is logged', async () => {
    const ws = new TestWorkspace();
    await ws.dispatch(create(rid('first'), 'first'));
    const fail = true;
    const store = new HandoffStore(ws.layout, {
      now: ws.clock.now,
      logger: { info: () => undefined, warn: (m) => ws.warnings.push(m) },
      testHooks: {
        afterStoreRename: () => {
          if (fail) throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
        },
      },
    });
    const r = await new RequestDispatcher(store, 'seam').dispatch(create(rid('seam'), 'second'));
    assert.equal(r.ok, true, JSON.stringify(r));
    assert.equal(ws.storedHandoffs().length, 2);
    assert.ok(
      ws.warnings.some((w) => /no space left/.test(w)),
      ws.warnings.join('\n'),
    );
    assert.equal(ws.auditEntries().filter((e) => !e.refused).length, 2, 'both creates audited');
  });

  it('the audit cannot be appended after the rename: ok, and the journal puts the lines in on the next write, once', async () => {
    const ws = new TestWorkspace();
    const month = ws.layout.auditFileFor(ws.clock.now());
    fs.mkdirSync(month, { recursive: true }); // a folder where the month file goes: every append fails
    const id = rid('audit');
    const r = await ws.dispatch(create(id));
    assert.equal(r.ok, true, JSON.stringify(r));
    assert.equal(fs.existsSync(ws.layout.auditJournalFile), true, 'the lines wait in the journal');
    fs.rmdirSync(month);
    const next = new RequestDispatcher(ws.newStore(), 'next');
    assert.equal((await next.dispatch(create(rid('next'), 'next'))).ok, true);
    assert.equal(ws.auditFor(id).length, 1, 'recovered once');
    await new RequestDispatcher(ws.newStore(), 'third').dispatch(create(rid('third'), 'third'));
    assert.equal(ws.auditFor(id).length, 1, 'not twice');
    assert.equal(fs.existsSync(ws.layout.auditJournalFile), false);
  });
});
