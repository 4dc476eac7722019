// Real CLI processes on real disk and real git (docs/contract.md §12):
// - a writer SIGKILLed right after renaming handoffs.json into place (test seam env var) loses no accepted action:
//   the next writer appends its audit lines from the journal, once each, and rebuilds AgentTracker.md and state.json;
// - `list` and `show` in an initialized, committed repository leave `git status --porcelain` empty.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { WorkspaceLayout } from '../../src/core/workspace/workspaceLayout';
import { auditLines, CLI, runCliSync, tempWorkspace } from './processHarness';

function git(dir: string, args: string[]): string {
  const r = spawnSync('git', ['-C', dir, '-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

/** `agentsync request` reads a file: the request is written beside the workspace, never inside it. */
function requestFile(dir: string, request: Record<string, unknown>): string {
  const file = `${dir}.request-${Math.random().toString(36).slice(2)}.json`;
  fs.writeFileSync(file, JSON.stringify(request));
  return file;
}

describe('store aftermath: crash after the rename, reads that leave git clean', function () {
  this.timeout(60_000);

  it('SIGKILL right after the store rename: the restart appends the audit lines once each and rebuilds tracker and state.json', () => {
    const dir = tempWorkspace('aftermath');
    const layout = new WorkspaceLayout(dir);
    runCliSync(['--dir', dir, 'init']);
    runCliSync([
      '--dir',
      dir,
      '--json',
      'request',
      requestFile(dir, {
        action: 'createHandoff',
        request_id: 'before-crash',
        handoff: { from_agent: 'codex', to_agents: ['claude'], owner_mode: 'single', summary: 'before the crash' },
      }),
    ]);
    const crashed = spawnSync(
      process.execPath,
      [
        CLI,
        '--dir',
        dir,
        '--json',
        'request',
        requestFile(dir, {
          action: 'createHandoff',
          request_id: 'killed-1',
          handoff: { from_agent: 'codex', to_agents: ['claude'], owner_mode: 'single', summary: 'written then killed' },
        }),
      ],
      { encoding: 'utf8', env: { ...process.env, AGENTSYNC_TEST_CRASH_AFTER_STORE_RENAME: '1' } },
    );
    assert.equal(crashed.signal, 'SIGKILL', `the writer was killed at the seam: ${crashed.stdout}${crashed.stderr}`);
    const stored = (JSON.parse(fs.readFileSync(layout.handoffsFile, 'utf8')) as { handoffs: { handoff_id: string; summary: string }[] })
      .handoffs;
    const killed = stored.find((h) => h.summary === 'written then killed');
    assert.ok(killed, 'the store write happened before the kill');
    assert.equal(auditLines(layout).filter((e) => e.request_id === 'killed-1').length, 0, 'the kill cut off the audit');
    assert.doesNotMatch(fs.readFileSync(layout.trackerFile, 'utf8'), new RegExp(killed.handoff_id), 'the kill cut off the tracker');

    // The next writer (any write action) repairs.
    runCliSync(['--dir', dir, '--json', 'request', requestFile(dir, { action: 'expireLeases' })]);
    runCliSync(['--dir', dir, '--json', 'request', requestFile(dir, { action: 'expireLeases' })]);
    const lines = auditLines(layout);
    assert.equal(lines.filter((e) => e.request_id === 'killed-1').length, 1, 'the lost audit line, once');
    assert.equal(lines.filter((e) => e.request_id === 'before-crash').length, 1, 'earlier lines not repeated');
    assert.match(fs.readFileSync(layout.trackerFile, 'utf8'), new RegExp(killed.handoff_id), 'tracker rebuilt');
    const state = JSON.parse(fs.readFileSync(layout.stateFile, 'utf8')) as { activeHandoffIds: string[] };
    assert.ok(state.activeHandoffIds.includes(killed.handoff_id), 'state.json rebuilt');
    assert.equal(fs.existsSync(layout.auditJournalFile), false);
  });

  it('list and show in an initialized, committed repository leave the working tree clean', () => {
    const dir = tempWorkspace('reads');
    git(dir, ['init', '-q']);
    runCliSync(['--dir', dir, 'init']);
    const created = JSON.parse(
      runCliSync(['--dir', dir, '--json', 'create', '--from', 'codex', '--to', 'claude', '--summary', 'committed']),
    ) as { data: { handoff: { handoff_id: string } } };
    git(dir, ['add', '-A']);
    git(dir, ['commit', '-qm', 'agentsync state']);
    assert.equal(git(dir, ['status', '--porcelain']), '');
    runCliSync(['--dir', dir, 'list']);
    runCliSync(['--dir', dir, '--json', 'list', '--status', 'queued']);
    runCliSync(['--dir', dir, 'show', created.data.handoff.handoff_id]);
    assert.equal(git(dir, ['status', '--porcelain', '--untracked-files=all']), '', 'reads changed nothing git sees');
    assert.match(fs.readFileSync(path.join(dir, '.gitignore'), 'utf8'), /^\.agentsync\/reads\.jsonl$/m);
  });
});
