// Initialize Workspace in a folder that already has AgentSync (it adds only what is missing), and `init --git` from
// the editor: registering the git merge driver is asked first (modal); no means no change to git's config.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runWithAnswers, workspaceRoot } from './helpers';

const mergeDriver = () => {
  try {
    return execFileSync('git', ['-C', workspaceRoot(), 'config', '--get', 'merge.agentsync.driver'], { encoding: 'utf8' }).trim();
  } catch {
    return null;
  }
};
const attributes = () => path.join(workspaceRoot(), '.gitattributes');

describe('Initialize Workspace and the merge driver', () => {
  it('asks before registering the merge driver; declining leaves git config and .gitattributes untouched', async () => {
    const { result, log } = await runWithAnswers<{ created: string[]; git: unknown }>('agentsync.init', [workspaceRoot()], { modal: null });
    assert.deepEqual(log.asked, [`modal: Register AgentSync's git merge driver in ${path.basename(workspaceRoot())}?`]);
    assert.deepEqual(result.git, { declined: true });
    assert.equal(mergeDriver(), null);
    assert.equal(fs.existsSync(attributes()), false);
  });

  it('with consent it registers merge.agentsync and the .gitattributes lines; once registered it does not ask again', async () => {
    const { result } = await runWithAnswers<{ git: { registered?: { gitattributes: string } } }>('agentsync.init', [workspaceRoot()], { modal: 'Register Merge Driver' });
    assert.equal(result.git.registered?.gitattributes, 'created');
    assert.match(mergeDriver() ?? '', /agentsync\.js'? merge-driver %O %A %B$/);
    assert.match(fs.readFileSync(attributes(), 'utf8'), /^\.agentsync\/handoffs\.json merge=agentsync$/m);
    const again = await runWithAnswers<{ git: unknown }>('agentsync.init', [workspaceRoot()]);
    assert.deepEqual(again.log.asked, []);
    assert.deepEqual(again.result.git, { notApplicable: true });
  });
});
