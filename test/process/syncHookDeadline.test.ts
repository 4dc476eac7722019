// Hooks and the network (docs/agentsync-documentation.md, "Hook packs"): with the remote not answering, a hook gives its
// fetches and pushes its pack's time limit minus 2 s, ends by itself before its agent would kill it, leaves no git
// process behind, and what it could not do stays for the next hook or `agentsync sync`. Real processes, real git.
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cli, cliAsync, create, git, gitServerPerTest } from './gitServer';
import { cutProxy, type CutProxy } from './cutProxy';
import { CLI } from './processHarness';

/** The pids of live processes whose command line names `text` (the workspace a git was started in). */
function processesNaming(text: string): number[] {
  const out: number[] = [];
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      const cmd = fs.readFileSync(`/proc/${name}/cmdline`, 'utf8');
      const state = /State:\s+(\S)/.exec(fs.readFileSync(`/proc/${name}/status`, 'utf8'))?.[1];
      if (cmd.includes(text) && state !== 'Z') out.push(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

describe('sync: hooks and a remote that does not answer', function () {
  this.timeout(120_000);
  let proxy: CutProxy | null = null;
  // Before the server's own: the proxy lets go of its connections before the daemon stops.
  afterEach(async () => {
    await proxy?.close();
    proxy = null;
  });
  const server = gitServerPerTest();

  it('post-tool-use ends within its 10 s (8 s for the network), its git push ended with it; the renewal waits for the next contact', async () => {
    const a = server.clone('a');
    fs.writeFileSync(path.join(a, '.agentsync.json'), JSON.stringify({ sync: { remote: 'origin' }, leaseMinutes: 0.1 }));
    const id = cli(a, ['request', '-'], create('leased')).data!.handoff!.handoff_id;
    assert.equal(cli(a, ['claim', id, '--agent', 'claude']).ok, true);
    await new Promise((r) => setTimeout(r, 3300)); // past half of a 6 s lease: the hook renews it
    proxy = await cutProxy(server.port, 'blackhole');
    git(a, ['remote', 'set-url', 'origin', `git://127.0.0.1:${proxy.port}/shared.git`]);
    const commits = server.remoteLog().length;
    const env = { ...process.env };
    delete env.AGENTSYNC_AGENT;
    delete env.COPILOT_CLI;
    delete env.COPILOT_HOOK_DIR;
    const input = JSON.stringify({ session_id: 's1', cwd: a, hook_event_name: 'PostToolUse', tool_name: 'Read', tool_input: {} });
    const started = Date.now();
    const child = spawn(process.execPath, [CLI, 'hook', 'post-tool-use', '--agent', 'claude', '--format', 'claude'], {
      cwd: a,
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout.resume();
    child.stdin.end(input);
    // The agent kills its hook at the pack's limit, 10 s, as Claude Code does.
    const vendorKill = setTimeout(() => child.kill('SIGKILL'), 10_000);
    const exit = await new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) =>
      child.on('exit', (code, signal) => r({ code, signal })),
    );
    clearTimeout(vendorKill);
    const took = Date.now() - started;
    // Whatever it started is gone once it is: no git naming this clone lives on.
    await new Promise((r) => setTimeout(r, 300));
    const left = processesNaming(a);
    for (const pid of left) process.kill(pid, 'SIGKILL'); // not to leak them when this test fails
    assert.equal(exit.signal, null, `the hook was killed by its agent after ${took} ms; stderr: ${stderr}`);
    assert.equal(exit.code, 0);
    assert.ok(took < 10_000, `took ${took} ms`);
    assert.deepEqual(left, [], 'no git process outlived the hook');
    assert.match(stderr, /could not renew the lease/);
    assert.equal(server.remoteLog().length, commits, 'nothing reached the remote');
    // The next contact renews it: the remote answers again.
    proxy.mode = 'pass';
    const beat = await cliAsync(a, ['request', '-'], JSON.stringify({ action: 'heartbeat', handoffId: id, agent: 'claude' }));
    assert.equal(beat.ok, true, JSON.stringify(beat));
    assert.equal(beat.data!.renewed, true, JSON.stringify(beat));
  });
});
