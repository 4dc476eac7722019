// A word a verb does not take is a usage error (exit 2) that names it, and nothing is written: before, `create --to
// claude copilot` made a handoff for claude alone and `list --open whatever` answered as if the word were not there.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const BIN = path.resolve(__dirname, '../../../bin/agentsync.js');
const run = (dir: string, ...args: string[]) => spawnSync(process.execPath, [BIN, '--dir', dir, ...args], { encoding: 'utf8' });

describe('agentsync: words a verb does not take (process)', () => {
  let dir: string;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agentsync-words-'));
    assert.equal(run(dir, 'init').status, 0);
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('create --to claude copilot is refused naming "copilot", and no handoff is made', () => {
    const before = fs.readFileSync(path.join(dir, '.agentsync/handoffs.json'));
    const r = run(dir, 'create', '--from', 'codex', '--to', 'claude', 'copilot', '--summary', 'meant for two');
    assert.equal(r.status, 2, r.stdout + r.stderr);
    assert.match(r.stderr, /unexpected argument "copilot": create takes no words besides its options.*--to claude,copilot/);
    assert.deepEqual(fs.readFileSync(path.join(dir, '.agentsync/handoffs.json')), before, 'nothing written');
  });

  it('a stray word after list, or a second id after a move, is refused; the words a usage names are taken', () => {
    const list = run(dir, 'list', '--open', 'whatever');
    assert.equal(list.status, 2, list.stdout);
    assert.match(list.stderr, /unexpected argument "whatever"/);
    const id = run(dir, 'create', '--from', 'codex', '--to', 'claude', '--summary', 'one', '--quiet').stdout.trim();
    const twoIds = run(dir, 'approve', id, 'HO-20990101-001', '--agent', 'codex');
    assert.equal(twoIds.status, 2, twoIds.stdout);
    assert.match(twoIds.stderr, /unexpected argument "HO-20990101-001": approve takes only <handoff-id>/);
    assert.equal(run(dir, 'show', id).status, 0, 'one id is what show takes');
    assert.equal(run(dir, 'claim', id, '--agent', 'claude').status, 0);
    assert.equal(run(dir, 'policy', 'list').status, 0, 'a verb with subcommands checks its own words');
  });
});
