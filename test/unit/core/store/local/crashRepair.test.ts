// What a writer killed between the store write and the derived files leaves behind is repaired on the next start.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Handoff } from '../../../../../src/core/domain/handoffSchema';
import { RequestDispatcher } from '../../../../../src/core/requests/requestDispatcher';
import { removeTempDirs, TestWorkspace } from '../../../helpers/testWorkspace';

describe('repair after a crash', () => {
  after(removeTempDirs);

  async function mergedHandoff(ws: TestWorkspace): Promise<string> {
    const c = await ws.dispatch({
      action: 'createHandoff',
      handoff: { from_agent: 'codex', to_agents: ['claude'], owner_mode: 'single', summary: 'ship it' },
    });
    const id = (c.data!.handoff as Handoff).handoff_id;
    for (const [agent, to] of [
      ['claude', 'in_progress'],
      ['claude', 'ready_for_review'],
      ['codex', 'approved'],
      ['codex', 'merged'],
    ]) {
      const r = await ws.dispatch({ action: 'transitionHandoff', handoffId: id, agent, to });
      assert.equal(r.ok, true, JSON.stringify(r));
    }
    return id;
  }

  it('a decisions.md line lost to a crash is appended, once, by the next process', async () => {
    const ws = new TestWorkspace();
    const id = await mergedHandoff(ws);
    const full = fs.readFileSync(ws.layout.decisionsFile, 'utf8');
    assert.match(full, new RegExp(`\\| ${id} \\| codex \\| ship it \\| - \\| merged`));
    fs.writeFileSync(ws.layout.decisionsFile, full.replace(/^.*\| HO-.*\n/m, '')); // the line the crash cut off
    // Repair is a writer's job (reads take no lock and write nothing): the next writing process repairs, once.
    const next = new RequestDispatcher(ws.newStore(), 'next');
    await next.dispatch({ action: 'expireLeases' });
    await new RequestDispatcher(ws.newStore(), 'third').dispatch({ action: 'expireLeases' });
    assert.equal(fs.readFileSync(ws.layout.decisionsFile, 'utf8'), full, 'the same line, dated by the merge, and only once');
  });

  it("temp files of a killed writer (dead pid) are removed; a live writer's are kept", async () => {
    const ws = new TestWorkspace();
    await ws.dispatch({ action: 'listHandoffs' });
    const dead = path.join(ws.layout.dataDir, '.handoffs.json.999999.lx1.0.tmp');
    const live = path.join(ws.layout.dataDir, `.handoffs.json.${process.ppid}.lx1.0.tmp`);
    fs.writeFileSync(dead, 'partial');
    fs.writeFileSync(live, 'in progress');
    await new RequestDispatcher(ws.newStore(), 'next').dispatch({ action: 'expireLeases' });
    assert.equal(fs.existsSync(dead), false);
    assert.equal(fs.existsSync(live), true);
  });
});
