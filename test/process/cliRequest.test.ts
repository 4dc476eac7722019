// `agentsync request <file>` as a real process: the size cap is applied before the file is read.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const BIN = path.resolve(__dirname, '../../../bin/agentsync.js');

describe('agentsync request (process)', () => {
  it('a request file over 1 MiB: too_large naming the file and its size, exit 1, nothing created', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agentsync-cli-'));
    const file = path.join(dir, 'big.json');
    fs.writeFileSync(
      file,
      JSON.stringify({
        action: 'createHandoff',
        handoff: { from_agent: 'codex', to_agents: ['claude'], owner_mode: 'single', summary: 'x'.repeat(1_100_000) },
      }),
    );
    const r = spawnSync(process.execPath, [BIN, '--dir', dir, 'request', file], { encoding: 'utf8' });
    assert.equal(r.status, 1, r.stderr);
    const out = JSON.parse(r.stdout) as { ok: boolean; reason: string; message: string };
    assert.equal(out.ok, false);
    assert.equal(out.reason, 'too_large');
    assert.match(out.message, new RegExp(`big\\.json is ${fs.statSync(file).size} bytes, over the 1048576-byte limit`));
    assert.equal(fs.existsSync(path.join(dir, '.agentsync/handoffs.json')), false);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
