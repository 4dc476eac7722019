// `agentsync --version` / `-v` and the MCP server's initialize answer give package.json's version, the one place it
// is written (src/cli/packageVersion.ts); the VSIX carries the same file (test/process/packaging.test.ts).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CLI, initWorkspace, REPO_ROOT, runCliIn, runCliSync, tempWorkspace } from './processHarness';
import { spawnSync } from 'node:child_process';

const VERSION = (JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }).version;

describe('agentsync --version (process)', function () {
  this.timeout(60_000);

  it('--version and -v print the package version and exit 0, from any folder', () => {
    for (const flag of ['--version', '-v']) {
      const r = spawnSync(process.execPath, [CLI, flag], { cwd: path.parse(REPO_ROOT).root, encoding: 'utf8' });
      assert.equal(r.status, 0, `${flag}: ${r.stderr}`);
      assert.equal(r.stdout, `${VERSION}\n`);
      assert.equal(r.stderr, '');
    }
    assert.match(runCliSync(['--help']), /agentsync --version \(-v\) prints the version/);
  });

  it('after a command, --version is an option that command does not take (exit 2), not a silent version', () => {
    const ws = tempWorkspace('version');
    try {
      const r = runCliIn(ws, ['list', '--version']);
      assert.equal(r.code, 2, r.stdout + r.stderr);
      assert.match(r.stderr, /--version/);
      assert.doesNotMatch(r.stdout, new RegExp(`^${VERSION.replace(/\./g, '\\.')}$`, 'm'));
    } finally {
      fs.rmSync(ws, { recursive: true, force: true });
    }
  });

  it("the MCP server's serverInfo.version is the same version", async () => {
    const ws = initWorkspace('version-mcp');
    const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, '--dir', ws, 'mcp'], stderr: 'pipe' });
    const client = new Client({ name: 'version-test', version: '1.0.0' });
    try {
      await client.connect(transport);
      assert.deepEqual(client.getServerVersion(), { name: 'agentsync', version: VERSION });
    } finally {
      await client.close().catch(() => undefined);
      fs.rmSync(ws, { recursive: true, force: true });
    }
  });
});
