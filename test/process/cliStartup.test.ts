// The CLI loads only what a verb needs: `list` and `claim` start without the folder watcher and the Node
// module it brings (internal/fs/watchers), which a running `watch` loads, and without child_process, which
// git's callers load when they start git (`init --git`); and the HTML entity decoder, which
// the bundle loads on first use, is still there when a tracker needs it. The CLI runs as a real process; a
// preloaded script reports which Node modules the process loaded.
import * as assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CLI, initWorkspace, runCliSync, tempWorkspace } from './processHarness';

/** A preload that prints, at exit, the Node modules loaded after it on stderr's last line. */
function modulesReporter(ws: string): string {
  const preload = path.join(ws, 'report-modules.js');
  fs.writeFileSync(
    preload,
    "const before = new Set(process.moduleLoadList);\nprocess.on('exit', () => process.stderr.write('\\nMODULES ' + " +
      "process.moduleLoadList.filter((m) => !before.has(m)).join(',') + '\\n'));\n",
  );
  return preload;
}

function modulesIn(stderr: string): string[] {
  const line = stderr.split('\n').find((l) => l.startsWith('MODULES '));
  assert.ok(line, stderr);
  return line.slice('MODULES '.length).split(',');
}

/** Runs the CLI to its end and returns the Node modules it loaded. */
function loadedModules(ws: string, args: string[]): string[] {
  const r = spawnSync(process.execPath, ['-r', modulesReporter(ws), CLI, '--dir', ws, ...args], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stdout + r.stderr);
  return modulesIn(r.stderr);
}

/** Runs `watch` until it says it is watching, stops it with SIGTERM, and returns the Node modules it loaded. */
async function modulesOfRunningWatch(ws: string): Promise<string[]> {
  const child = spawn(process.execPath, ['-r', modulesReporter(ws), CLI, '--dir', ws, 'watch'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  await new Promise<void>((resolve) =>
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      if (stdout.includes('watching ')) resolve();
    }),
  );
  child.kill('SIGTERM');
  assert.equal(await exited, 0, stdout + stderr);
  return modulesIn(stderr);
}

describe('CLI start-up: each verb loads what it needs', function () {
  this.timeout(120_000);
  let ws: string;
  let id: string;

  before(() => {
    ws = initWorkspace('startup');
    const created = runCliSync(['--dir', ws, '--json', 'create', '--from', 'codex', '--to', 'claude', '--summary', 'start-up']);
    id = (JSON.parse(created) as { data: { handoff: { handoff_id: string } } }).data.handoff.handoff_id;
  });

  after(() => fs.rmSync(ws, { recursive: true, force: true }));

  it('list and claim load neither the folder watcher nor child_process; watch and init --git load them', async () => {
    const watcher = 'NativeModule internal/fs/watchers';
    const processes = 'NativeModule child_process';
    for (const args of [['list'], ['claim', id, '--agent', 'claude']]) {
      const loaded = loadedModules(ws, args);
      assert.ok(loaded.includes('NativeModule crypto'), `the report is live: ${args[0]} loads crypto for the store stamp`);
      for (const m of [watcher, processes]) assert.ok(!loaded.includes(m), `${args[0]} loaded ${m}: ${loaded.join(' ')}`);
    }
    assert.ok((await modulesOfRunningWatch(ws)).includes(watcher), 'watch loads the watcher when it runs');
    const repo = tempWorkspace('startup-git');
    try {
      assert.equal(spawnSync('git', ['init', '-q', repo]).status, 0);
      assert.ok(loadedModules(repo, ['init', '--git']).includes(processes), 'init --git loads child_process to run git');
    } finally {
      fs.rmSync(repo, { recursive: true, force: true });
    }
  });

  it('a tool hook with nothing to tell loads neither crypto nor child_process (dist/hook.js runs at every tool call)', () => {
    assert.ok(loadedModules(ws, ['list']).includes('NativeModule crypto'), 'the report is live: list loads crypto for the store stamp');
    const input = {
      session_id: 's-1',
      cwd: ws,
      hook_event_name: 'PreToolUse',
      tool_name: 'Write',
      tool_input: { file_path: path.join(ws, 'a.ts') },
    };
    for (const event of ['pre-tool-use', 'post-tool-use']) {
      const r = spawnSync(process.execPath, ['-r', modulesReporter(ws), CLI, 'hook', event, '--agent', 'claude', '--format', 'claude'], {
        cwd: ws,
        input: JSON.stringify(input),
        encoding: 'utf8',
      });
      assert.equal(r.status, 0, r.stdout + r.stderr);
      const loaded = modulesIn(r.stderr);
      for (const m of ['NativeModule crypto', 'NativeModule child_process'])
        assert.ok(!loaded.includes(m), `${event} loaded ${m}: ${loaded.join(' ')}`);
    }
  });

  it('a tracker with a named entity in a link definition keeps the human text below it (the decoder loads when used)', () => {
    // `javascript&colon;x` decodes to a javascript: link, which Markdown refuses as a link reference definition, so
    // the line is a paragraph and the `===` under it makes a heading that ends the generated section. A decoder
    // that did not decode would take the line for a definition and the section would run over the human's text.
    const tracker = path.join(ws, 'AgentTracker.md');
    const human = '\n[a]: javascript&colon;alert(1)\n===\nA human wrote this after the section.\n';
    fs.writeFileSync(tracker, fs.readFileSync(tracker, 'utf8').trimEnd() + '\n' + human);
    runCliSync(['--dir', ws, 'create', '--from', 'codex', '--to', 'claude', '--summary', 'renders the tracker again']);
    const text = fs.readFileSync(tracker, 'utf8');
    assert.ok(text.includes('renders the tracker again'), text);
    assert.ok(text.endsWith(human), `the human text after the section changed:\n${text}`);
  });
});
