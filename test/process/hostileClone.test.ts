// docs/contract.md §12 (a repository runs nothing), as a user meets it: a repository commits `.agentsync.json` with `commands.build: ["sh","-c",...]`
// and a drop-zone request asking for `health`. In a fresh `git clone`, nothing may run until the local user runs
// `agentsync trust` (recorded outside the repository), and a change to the commands needs a new trust. Real CLI
// processes, real git, the real MCP client; AGENTSYNC_TRUST_FILE keeps the user's own trust records out of it.
import * as assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { CLI, tempWorkspace } from './processHarness';

const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

function cli(dir: string, ...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, '--dir', dir, ...args], { encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** data.trusted of `agentsync --json trust --show`. */
const trusted = (stdout: string) => (JSON.parse(stdout) as { data: { trusted: boolean } }).data.trusted;

function dropRequest(dir: string, id: string): void {
  fs.mkdirSync(path.join(dir, '.agentsync', 'requests'), { recursive: true });
  fs.writeFileSync(path.join(dir, '.agentsync', 'requests', `${id}.json`), JSON.stringify({ action: 'health', request_id: id }));
}

function responseOf(dir: string, id: string): Record<string, unknown> {
  return JSON.parse(fs.readFileSync(path.join(dir, '.agentsync', 'responses', `${id}.json`), 'utf8')) as Record<string, unknown>;
}

describe('a hostile clone runs nothing until `agentsync trust` (processes, git)', function () {
  this.timeout(120_000);
  let base: string;
  let clone: string;
  let previous: string | undefined;
  const marker = () => path.join(clone, 'marker');

  before(() => {
    assert.ok(fs.existsSync(path.join(path.dirname(CLI), '../dist/cli.js')), 'run `node esbuild.mjs` first: the test runs the bundled CLI');
    base = tempWorkspace('hostile');
    previous = process.env.AGENTSYNC_TRUST_FILE;
    process.env.AGENTSYNC_TRUST_FILE = path.join(base, 'user-config', 'trusted.json');
    const origin = path.join(base, 'origin');
    fs.mkdirSync(origin);
    git(origin, 'init', '-q', '-b', 'main');
    fs.writeFileSync(path.join(origin, '.agentsync.json'), JSON.stringify({ commands: { build: ['sh', '-c', 'id > marker'] } }));
    dropRequest(origin, 'welcome');
    git(origin, 'add', '-A', '-f');
    git(origin, '-c', 'user.email=evil@example.com', '-c', 'user.name=Evil', '-c', 'commit.gpgsign=false', 'commit', '-q', '-m', 'welcome');
    clone = path.join(base, 'clone');
    git(base, 'clone', '-q', origin, clone);
  });

  after(() => {
    if (previous === undefined) delete process.env.AGENTSYNC_TRUST_FILE;
    else process.env.AGENTSYNC_TRUST_FILE = previous;
    if (base) fs.rmSync(base, { recursive: true, force: true });
  });

  it('watch --once in the fresh clone: the committed health request is refused unread (git tracks it), no command runs', () => {
    const r = cli(clone, 'watch', '--once');
    assert.equal(r.status, 0, r.stderr);
    assert.equal(fs.existsSync(marker()), false, 'the committed command must not run');
    // A branch cannot carry requests (docs/contract.md §8): refused before it is read, so before commands_untrusted.
    const dir = path.join(clone, '.agentsync', 'responses');
    const [only] = fs.readdirSync(dir);
    const response = responseOf(clone, only.replace(/\.json$/, ''));
    assert.equal(response.ok, false);
    assert.equal(response.reason, 'unsafe_file');
    assert.match(String(response.message), /git tracks/);
  });

  it('agentsync request: refused the same way, exit 1, nothing runs', () => {
    const file = path.join(base, 'health.json');
    fs.writeFileSync(file, JSON.stringify({ action: 'health' }));
    const r = cli(clone, 'request', file);
    assert.equal(r.status, 1);
    assert.equal((JSON.parse(r.stdout) as { reason: string }).reason, 'commands_untrusted');
    assert.equal(fs.existsSync(marker()), false);
  });

  it('MCP: the health tool is refused with commands_untrusted, nothing runs', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, '--dir', clone, 'mcp'],
      env: { ...process.env } as Record<string, string>,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'agentsync-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      const health = tools.find((t) => t.name === 'health')!;
      assert.match(health.description!, /never deploy/);
      const result = (await client.callTool({ name: 'health', arguments: {} })) as CallToolResult;
      const envelope = JSON.parse((result.content[0] as { text: string }).text) as Record<string, unknown>;
      assert.equal(envelope.reason, 'commands_untrusted');
    } finally {
      await client.close();
    }
    assert.equal(fs.existsSync(marker()), false);
  });

  it('after `agentsync trust` the command runs; the trust is kept outside the repository', () => {
    const show = cli(clone, '--json', 'trust', '--show');
    assert.equal(trusted(show.stdout), false);
    const t = cli(clone, 'trust');
    assert.equal(t.status, 0, t.stderr);
    assert.match(t.stdout, /build: sh -c 'id > marker'/);
    assert.ok(fs.existsSync(process.env.AGENTSYNC_TRUST_FILE!));
    assert.equal(
      git(clone, 'status', '--porcelain', '--untracked-files=all').includes('trusted'),
      false,
      'nothing about trust is written into the clone',
    );
    dropRequest(clone, 'after-trust');
    assert.equal(cli(clone, 'watch', '--once').status, 0);
    assert.equal(responseOf(clone, 'after-trust').ok, true, JSON.stringify(responseOf(clone, 'after-trust')));
    assert.equal(fs.existsSync(marker()), true, 'the approved command ran');
  });

  it('when the commands change, nothing runs again until a new trust; --revoke withdraws it', () => {
    fs.rmSync(marker());
    fs.writeFileSync(
      path.join(clone, '.agentsync.json'),
      JSON.stringify({ commands: { build: ['sh', '-c', 'id > marker; id > marker2'] } }),
    );
    dropRequest(clone, 'after-change');
    assert.equal(cli(clone, 'watch', '--once').status, 0);
    assert.equal(responseOf(clone, 'after-change').reason, 'commands_untrusted');
    assert.match(String(responseOf(clone, 'after-change').message), /changed since they were approved/);
    assert.equal(fs.existsSync(marker()), false);
    assert.equal(cli(clone, 'trust').status, 0);
    assert.equal(trusted(cli(clone, '--json', 'trust', '--show').stdout), true);
    assert.equal(cli(clone, 'trust', '--revoke').status, 0);
    assert.equal(trusted(cli(clone, '--json', 'trust', '--show').stdout), false);
  });
});
