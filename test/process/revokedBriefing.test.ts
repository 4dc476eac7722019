// Revocations in the briefing (docs/contract.md §13, docs/agentsync-documentation.md "Hook packs"): a write made
// offline that the shared state then revoked reaches the agent through its session-start hook as data, folded and
// quoted like every other line another party wrote, within the briefing's 4 KB. Real git daemon, real processes.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cli, create, gitServerPerTest } from './gitServer';
import { CLI } from './processHarness';

const DATA_BEGIN = '----- BEGIN AGENT DATA -----';
const DATA_END = '----- END AGENT DATA -----';

describe('revocations in the session-start briefing (git daemon on 127.0.0.1)', function () {
  this.timeout(120_000);
  const server = gitServerPerTest();

  it('a revoked offline claim is listed inside an AGENT DATA block, within the 4 KB budget', async () => {
    const a = server.clone('a', { remote: 'origin', offline: 'local' });
    const b = server.clone('b', { remote: 'origin', offline: 'local' });
    const two = cli(a, ['request', '-'], create('two')).data!.handoff!.handoff_id;
    cli(b, ['sync']);
    await server.stop();
    assert.equal(cli(a, ['claim', two, '--agent', 'claude']).ok, true);
    await server.start();
    assert.equal(cli(b, ['claim', two, '--agent', 'codex']).ok, true);
    assert.equal(cli(a, ['sync']).ok, true);

    const r = spawnSync(process.execPath, [CLI, 'hook', 'session-start', '--agent', 'claude', '--format', 'claude'], {
      cwd: a,
      input: JSON.stringify({ session_id: 's', cwd: a, hook_event_name: 'SessionStart', source: 'startup' }),
      encoding: 'utf8',
    });
    assert.equal(r.status, 0, r.stderr);
    const text = (JSON.parse(r.stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext;
    assert.ok(Buffer.byteLength(text) <= 4096, `${Buffer.byteLength(text)} bytes`);
    const lines = text.split('\n');
    const at = lines.findIndex((l) => l.includes(two) && l.includes('already_claimed'));
    assert.ok(at > 0, text);
    const begin = lines.lastIndexOf(DATA_BEGIN, at);
    const end = lines.indexOf(DATA_END, at);
    assert.ok(begin >= 0 && end > at && !lines.slice(begin + 1, at).includes(DATA_END), `the revocation is inside a data block:\n${text}`);
    assert.match(lines[begin - 1], /^REVOKED by the shared state/);
  });
});
