// Every JSON example of the instruction section, as init writes it into AGENTS.md (from templates/agent-instructions.md,
// its example ids carrying the day of the init), is sent in order and exactly as written through the dispatcher of
// that freshly initialized workspace, and answered ok.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { RequestDispatcher } from '../../../../src/core/requests/requestDispatcher';
import { initWorkspace } from '../../../../src/core/workspace/workspaceInit';
import { storeSeed } from '../../../../src/core/store/storeReader';
import { TestWorkspace, removeTempDirs } from '../../helpers/testWorkspace';

const REPO_ROOT = path.resolve(__dirname, '../../../../..');

export function jsonBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/^```json\r?\n([\s\S]*?)^```/gm)].map((m) => m[1]);
}

describe('instruction template examples', () => {
  afterEach(removeTempDirs);

  it('each ```json block of the section init wrote into AGENTS.md is answered ok: true, in order', async () => {
    const ws = new TestWorkspace();
    initWorkspace(ws.root, storeSeed(ws.root), { now: ws.clock.now() });
    const blocks = jsonBlocks(fs.readFileSync(path.join(ws.root, 'AGENTS.md'), 'utf8'));
    assert.ok(blocks.length >= 9, `expected the examples of every step, found ${blocks.length}`);
    // A store opened after init, so it reads the config init wrote.
    const dispatcher = new RequestDispatcher(ws.newStore(), 'test');
    const actions: string[] = [];
    for (const block of blocks) {
      const response = await dispatcher.dispatchText(block);
      assert.equal(response.ok, true, `${block.trim()}\n→ ${JSON.stringify(response)}`);
      actions.push(response.action as string);
      ws.clock.advance(1_000);
    }
    for (const a of [
      'startSession',
      'createHandoff',
      'claimHandoff',
      'heartbeat',
      'passOver',
      'returnHandoff',
      'completeHandoff',
      'endSession',
    ]) {
      assert.ok(actions.includes(a), `the template shows ${a}`);
    }
  });

  it('the instruction files init writes carry the same examples', () => {
    const ws = new TestWorkspace();
    initWorkspace(ws.root, storeSeed(ws.root), { now: ws.clock.now() });
    const template = jsonBlocks(
      fs.readFileSync(path.join(REPO_ROOT, 'templates/agent-instructions.md'), 'utf8').replaceAll('{{date}}', '20260310'),
    );
    for (const f of ['AGENTS.md', 'CLAUDE.md', '.github/copilot-instructions.md']) {
      assert.deepEqual(jsonBlocks(fs.readFileSync(path.join(ws.root, f), 'utf8')), template, f);
    }
  });
});
