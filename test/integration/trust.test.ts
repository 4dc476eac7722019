// Workspace Trust. The test server runs with --disable-workspace-trust (every folder is trusted), so the
// restricted path is exercised through TrustState.simulate(false): the same gate the real trust state drives.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { RequestResponse } from '../../src/core/requests/requestDispatcher';
import * as vscode from 'vscode';
import {
  api,
  dropRequest,
  plainText,
  runWithAnswers,
  screenshot,
  sleep,
  waitFor,
  whenFileExists,
  withCommands,
  workspaceRoot,
} from './helpers';

describe('untrusted folder (Restricted Mode)', () => {
  after(async () => (await api()).trust.simulate(undefined));

  it('the tree says why the drop zone and health checks are off, and the drop zone stops', async () => {
    const a = await api();
    const service = a.services.all()[0];
    a.trust.simulate(false);
    const first = a.tree.getChildren()[0];
    const item = a.tree.getTreeItem(first);
    assert.equal(first.kind, 'info');
    assert.equal(item.label, 'Restricted Mode: the drop zone and health checks are off');
    assert.match(plainText(item.tooltip), /Trust the folder \(Manage Workspace Trust\)/);
    assert.equal(item.command?.command, 'workbench.trust.manage');
    assert.deepEqual(a.dropZones.stateOf(service), { running: false, why: 'Restricted Mode (the folder is not trusted)' });
    // the groups are still there: reading and the editor's own commands keep working
    assert.ok(a.tree.getChildren().some((n) => n.kind === 'group'));
    await vscode.commands.executeCommand('workbench.view.extension.agentsync');
    await sleep(500); // let the workbench paint before the screenshot
    await screenshot('restricted-mode.png');
  });

  it('a dropped request is not answered while restricted, and is answered once trusted', async () => {
    const a = await api();
    const service = a.services.all()[0];
    const answer = path.join(workspaceRoot(), '.agentsync/responses/it-untrusted-1.json');
    const request = path.join(workspaceRoot(), '.agentsync/requests/untrusted-1.json');
    assert.equal(a.dropZones.stateOf(service).running, false);
    // The folder's one watcher reports the request to its subscribers; a drop zone still subscribed would have been
    // told first and claimed it (a synchronous rename) on the next turn: after that turn, it must still be waiting.
    const reported = new Promise<void>((resolve) => {
      const sub = service.changes.onDidChange((kind) => {
        if (kind !== 'request') return;
        sub.dispose();
        resolve();
      });
    });
    dropRequest('untrusted-1.json', { action: 'listHandoffs', request_id: 'it-untrusted-1' });
    await reported;
    await new Promise((r) => setImmediate(r));
    assert.ok(fs.existsSync(request), 'taken in Restricted Mode');
    assert.equal(fs.existsSync(answer), false, 'answered in Restricted Mode');
    a.trust.simulate(undefined);
    await whenFileExists(answer);
    const r = JSON.parse(fs.readFileSync(answer, 'utf8')) as RequestResponse;
    assert.equal(r.ok, true);
    a.trust.simulate(false);
  });

  it('End Session runs no health command while restricted (Skipped, and the command did not run)', async () => {
    const marker = path.join(workspaceRoot(), 'health-ran.txt');
    const { result } = await withCommands({ test: ['node', '-e', `require('fs').writeFileSync(${JSON.stringify(marker)}, 'ran')`] }, () =>
      runWithAnswers<RequestResponse>(
        'agentsync.endSession',
        [],
        { input: 'Restricted session' },
        { input: '' },
        { pick: ['README.md'] },
        { pick: 'skip' },
        { input: 'Checking the trust gate' },
      ),
    );
    assert.equal(result.ok, true, JSON.stringify(result));
    assert.equal((result.data?.health as Record<string, string>).Tests, 'Skipped');
    assert.equal(fs.existsSync(marker), false);
  });

  it('trusting the folder again restarts the drop zone and clears the notice', async () => {
    const a = await api();
    a.trust.simulate(undefined);
    await waitFor('drop zone running', () => a.dropZones.stateOf(a.services.all()[0]).running);
    assert.equal(a.tree.getChildren()[0].kind, 'group');
  });
});
