// What the CLI refuses or says plainly (docs/agentsync-documentation.md, "CLI"): a date that is not on the calendar, a
// value option given twice, usage errors as one line of words (never a literal \n), an offline-local write shown as
// provisional, and a shared state whose handoffs.json is a symbolic link named as such. Real processes, real git.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { cli, create, git, gitServerPerTest } from './gitServer';
import { initWorkspace, runCliIn } from './processHarness';

describe('the CLI says exactly what was wrong, or what is provisional', function () {
  this.timeout(120_000);

  function workspaceWithHandoff(): { ws: string; id: string } {
    const ws = initWorkspace('cli-strict');
    const r = JSON.parse(runCliIn(ws, ['--json', 'create', '--from', 'human', '--to', 'claude', '--summary', 's']).stdout) as {
      data: { handoff: { handoff_id: string } };
    };
    return { ws, id: r.data.handoff.handoff_id };
  }

  it('snooze --until 2026-11-31T09:00:00Z is refused (no 31 November), not rolled over to 1 December', () => {
    const { ws, id } = workspaceWithHandoff();
    const r = JSON.parse(runCliIn(ws, ['--json', 'snooze', id, '--agent', 'human', '--until', '2026-11-31T09:00:00Z']).stdout) as {
      ok: boolean;
      reason: string;
      message: string;
    };
    assert.equal(r.ok, false, JSON.stringify(r));
    assert.equal(r.reason, 'invalid_request');
    assert.match(r.message, /2026-11-31 is not a day of the calendar/);
    const shown = JSON.parse(runCliIn(ws, ['--json', 'show', id]).stdout) as { data: { handoff: { snoozed_until?: string | null } } };
    assert.ok(!shown.data.handoff.snoozed_until, 'nothing was snoozed');
  });

  it('a value option given twice (--agent claude --agent copilot) is a usage error, exit 2, nothing claimed', () => {
    const { ws, id } = workspaceWithHandoff();
    const r = runCliIn(ws, ['claim', id, '--agent', 'claude', '--agent', 'copilot']);
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.match(r.stderr, /--agent was given more than once/);
    const shown = JSON.parse(runCliIn(ws, ['--json', 'show', id]).stdout) as { data: { handoff: { status: string } } };
    assert.equal(shown.data.handoff.status, 'queued');
  });

  it('no usage error prints a literal \\n', () => {
    const { ws, id } = workspaceWithHandoff();
    for (const args of [
      ['create', '--from', '--summary', 'x'],
      ['claim', id, '--agent', '-x'],
      ['list', '--bogus'],
      ['list', '--status'],
      ['claim', id, 'extra', '--agent', 'claude'],
    ]) {
      for (const json of [false, true]) {
        const r = runCliIn(ws, [...(json ? ['--json'] : []), ...args]);
        assert.equal(r.code, 2, `${args.join(' ')}: ${r.stdout}${r.stderr}`);
        const said = json ? (JSON.parse(r.stdout) as { message: string }).message : r.stderr;
        assert.ok(!said.includes('\\n'), `${args.join(' ')}: ${said}`);
        assert.ok(!said.trim().includes('\n'), `${args.join(' ')}: one line: ${said}`);
      }
    }
  });

  describe('with a git daemon', () => {
    const server = gitServerPerTest();

    it('an offline-local claim prints that it is provisional, not a plain "claimed"', async () => {
      const a = server.clone('a', { remote: 'origin', offline: 'local' });
      const id = cli(a, ['request', '-'], create('offline')).data!.handoff!.handoff_id;
      await server.stop();
      const r = runCliIn(a, ['claim', id, '--agent', 'claude']);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /provisional: made offline/);
      await server.start();
    });

    it('a shared handoffs.json that is a symbolic link: store_invalid naming it as a symbolic link', () => {
      const a = server.clone('a');
      assert.equal(cli(a, ['request', '-'], create('existing')).ok, true);
      const bare = path.join(server.base, 'shared.git');
      const good = git(bare, ['rev-parse', 'refs/agentsync/state']);
      const ledger = git(bare, ['rev-parse', `${good}:ledger.jsonl`]);
      const target = git(bare, ['hash-object', '-w', '--stdin'], '/etc/passwd');
      const tree = git(bare, ['mktree'], `120000 blob ${target}\thandoffs.json\n100644 blob ${ledger}\tledger.jsonl\n`);
      const forged = git(bare, ['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit-tree', tree, '-p', good, '-m', 'symlink']);
      git(bare, ['update-ref', 'refs/agentsync/state', forged]);
      const r = cli(a, ['request', '-'], create('after'));
      assert.equal(r.reason, 'store_invalid', JSON.stringify(r));
      assert.match(String(r.message), /handoffs\.json as a symbolic link, not a regular file/);
    });
  });
});
