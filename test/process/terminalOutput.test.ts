// Agent text printed by the CLI must not reach the terminal as control sequences: an OSC 52
// clipboard write, a screen clear and a C1 CSI in a summary, notes, reason or request file name come out as
// visible escapes; --json output stays JSON that parses back to the same text. The CLI runs as a real process.
import * as assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { WorkspaceLayout } from '../../src/core/workspace/workspaceLayout';
import { CLI, initWorkspace, runCliSync } from './processHarness';

const HOSTILE = 'fix \u001b]52;c;ZXZpbA==\u0007 then \u001b[2J and \u009b31m red\u007f';
/** Any control a terminal acts on; the printer's own newlines and tabs are allowed. */
// eslint-disable-next-line no-control-regex -- the test looks for control characters on purpose
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

function cli(args: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function assertNoRawControls(out: { stdout: string; stderr: string }, what: string): void {
  const all = out.stdout + out.stderr;
  const m = RAW_CONTROL.exec(all);
  assert.equal(m, null, `${what} printed a raw control U+${m?.[0].charCodeAt(0).toString(16).padStart(4, '0')}: ${JSON.stringify(all)}`);
}

describe('CLI output escapes control characters in agent text', function () {
  this.timeout(120_000);
  let ws: string;
  let id: string;

  before(() => {
    ws = initWorkspace('term');
    const created = JSON.parse(
      runCliSync([
        '--dir',
        ws,
        '--json',
        'create',
        '--from',
        'claude',
        '--to',
        'codex',
        '--summary',
        HOSTILE,
        '--notes',
        `line 1\n${HOSTILE}`,
      ]),
    ) as { data: { handoff: { handoff_id: string } } };
    id = created.data.handoff.handoff_id;
    runCliSync(['--dir', ws, 'block', id, '--agent', 'claude', '--reason', HOSTILE]);
  });

  after(() => fs.rmSync(ws, { recursive: true, force: true }));

  it('list and show print visible escapes, not the bytes', () => {
    const list = cli(['--dir', ws, 'list']);
    assert.equal(list.code, 0, list.stderr);
    assertNoRawControls(list, 'list');
    assert.ok(list.stdout.includes('fix \\x1b]52;c;ZXZpbA==\\x07 then \\x1b[2J and \\x9b31m red\\x7f'), list.stdout);

    const show = cli(['--dir', ws, 'show', id]);
    assert.equal(show.code, 0, show.stderr);
    assertNoRawControls(show, 'show');
    // A newline inside notes is shown as \n, so it cannot forge a line of the layout.
    assert.ok(show.stdout.includes('notes:    line 1\\nfix \\x1b]52'), show.stdout);
    assert.equal(show.stdout.match(/\\x1b\[2J/g)?.length, 3, 'summary, notes and the history reason are all escaped');
  });

  it('bidi controls and line/paragraph separators are escaped too, and list shows a newline as \\n', () => {
    const text = 'a\nb\rc \u202eRTL \u202a\u2066x\u2069 \u2028 \u2029 \u200f';
    const made = JSON.parse(runCliSync(['--dir', ws, '--json', 'create', '--from', 'codex', '--to', 'claude', '--summary', text])) as {
      data: { handoff: { handoff_id: string } };
    };
    const bidiId = made.data.handoff.handoff_id;
    const raw = /[\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
    const escaped = 'a\\nb\\rc \\u202eRTL \\u202a\\u2066x\\u2069 \\u2028 \\u2029 \\u200f';
    const list = cli(['--dir', ws, 'list']);
    assert.equal(raw.test(list.stdout), false, list.stdout);
    assert.ok(list.stdout.includes(escaped), list.stdout);
    const show = cli(['--dir', ws, 'show', bidiId]);
    assert.equal(raw.test(show.stdout), false, show.stdout);
    assert.ok(show.stdout.includes(`summary:  ${escaped}`), show.stdout);
    const json = cli(['--dir', ws, '--json', 'show', bidiId]);
    assert.equal(raw.test(json.stdout), false, json.stdout);
    assert.equal((JSON.parse(json.stdout) as { data: { handoff: { summary: string } } }).data.handoff.summary, text);
    const refusal = cli(['--dir', ws, 'show', 'HO-\u202eX']);
    assert.equal(raw.test(refusal.stderr), false, refusal.stderr);
    assert.match(refusal.stderr, /HO-\\u202eX/);
  });

  it('--json output has no raw controls and parses back to the exact text', () => {
    const list = cli(['--dir', ws, '--json', 'list']);
    assert.equal(list.code, 0, list.stderr);
    assertNoRawControls(list, 'list --json');
    const parsed = JSON.parse(list.stdout) as { data: { handoffs: { summary: string; notes: string }[] } };
    assert.equal(parsed.data.handoffs[0].summary, HOSTILE);
    assert.equal(parsed.data.handoffs[0].notes, `line 1\n${HOSTILE}`);
  });

  it('refusal messages and watch --verbose escape agent-chosen names too', () => {
    const missing = cli(['--dir', ws, 'show', `HO-\u001b[2J\u009b`]);
    assert.equal(missing.code, 1);
    assertNoRawControls(missing, 'a refusal');
    assert.match(missing.stderr, /No handoff HO-\\x1b\[2J\\u009b/);

    const layout = new WorkspaceLayout(ws);
    fs.writeFileSync(path.join(layout.requestsDir, 'evil\u001b]0;pwned\u0007.json'), '{"action":"listHandoffs"}');
    const watch = cli(['--dir', ws, 'watch', '--once', '--verbose']);
    assert.equal(watch.code, 0, watch.stderr);
    assertNoRawControls(watch, 'watch --verbose');
    assert.match(watch.stderr, /evil\\x1b\]0;pwned\\x07\.json/);
  });

  it('watch --verbose shows a newline in a request file name as \\n: a name cannot forge a log line', () => {
    const layout = new WorkspaceLayout(ws);
    const forged = 'ok.json → ok (x)\nagentsync: forged.json';
    fs.writeFileSync(path.join(layout.requestsDir, `${forged}.json`), '{"action":"listHandoffs"}');
    fs.mkdirSync(path.join(layout.requestsDir, 'dir\nagentsync: fake.json'));
    const watch = cli(['--dir', ws, 'watch', '--once', '--verbose']);
    assert.equal(watch.code, 0, watch.stderr);
    const lines = watch.stderr.split('\n').filter(Boolean);
    assert.ok(
      lines.every((l) => l.startsWith('agentsync: ')),
      watch.stderr,
    );
    assert.ok(!lines.some((l) => l.startsWith('agentsync: forged.json') || l.startsWith('agentsync: fake.json')), watch.stderr);
    assert.ok(watch.stderr.includes('(x)\\nagentsync: forged.json.json → ok'), watch.stderr);
    assert.ok(watch.stderr.includes('dir\\nagentsync: fake.json'), watch.stderr);
  });
});

describe('a reader that goes away (agentsync list | head -1), or a write that fails', function () {
  this.timeout(120_000);

  /** An initialized workspace whose `--json list` is far over a pipe's buffer (64 KiB), so the writer meets EPIPE. */
  function bigWorkspace(): string {
    const ws = initWorkspace('epipe');
    runCliSync(['--dir', ws, 'create', '--from', 'codex', '--to', 'claude', '--summary', 'the first of many']);
    const file = new WorkspaceLayout(ws).handoffsFile;
    const store = JSON.parse(fs.readFileSync(file, 'utf8')) as { handoffs: Record<string, string>[] };
    const first = store.handoffs[0];
    const crockford = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
    for (let i = 2; i <= 900; i++) {
      const suffix = [i >> 10, i >> 5, i].map((n) => crockford[n & 31]).join('');
      store.handoffs.push({
        ...first,
        handoff_id: first.handoff_id.slice(0, -3) + String(i).padStart(3, '0'),
        uid: first.uid.slice(0, -3) + suffix,
        summary: `handoff ${i} of many: ${'a long summary line '.repeat(8)}`,
      });
    }
    fs.writeFileSync(file, JSON.stringify(store, null, 2));
    return ws;
  }

  /** Runs the CLI with stdout piped to this process, which closes its end after the first bytes, as `head` does. */
  function readFirstBytesThenClose(args: string[]): Promise<{ code: number | null; signal: string | null; stderr: string; got: string }> {
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
      let got = '';
      let stderr = '';
      child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
      child.stdout.once('data', (c: Buffer) => {
        got = c.toString('utf8', 0, 10);
        child.stdout.destroy();
      });
      child.on('error', reject);
      child.on('close', (code, signal) => resolve({ code, signal, stderr, got }));
    });
  }

  it('--json list and list end quietly with exit 0: no EPIPE, no stack trace', async () => {
    const ws = bigWorkspace();
    for (const args of [['list'], ['--json', 'list']])
      assert.ok(runCliSync(['--dir', ws, ...args]).length > 96 * 1024, 'over a pipe buffer');
    for (const args of [
      ['--dir', ws, '--json', 'list'],
      ['--dir', ws, 'list'],
    ]) {
      const r = await readFirstBytesThenClose(args);
      assert.ok(r.got.length > 0, 'the reader got the first bytes');
      assert.equal(r.stderr, '', `${args.join(' ')}: nothing on stderr`);
      assert.equal(r.code, 0, `${args.join(' ')}: exit code`);
    }
  });

  it('any other write error (a full disk: stdout is /dev/full) says so in one line on stderr and exits 1', () => {
    const ws = initWorkspace('fullout');
    runCliSync(['--dir', ws, 'create', '--from', 'codex', '--to', 'claude', '--summary', 's']);
    for (const args of [['--json', 'list'], ['list']]) {
      const full = fs.openSync('/dev/full', 'w');
      try {
        const r = spawnSync(process.execPath, [CLI, '--dir', ws, ...args], { stdio: ['ignore', full, 'pipe'], encoding: 'utf8' });
        assert.equal(r.status, 1, `${args.join(' ')}: exit code`);
        assert.match(r.stderr, /^agentsync: could not write the output: ENOSPC[^\n]*\n$/, `${args.join(' ')}: stderr`);
      } finally {
        fs.closeSync(full);
      }
    }
  });
});
