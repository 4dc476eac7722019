// `agentsync hook <event>` and `agentsync init --hooks` as real processes, driven with each vendor's recorded hook
// input (test/fixtures/hooks/<vendor>/, sources in its README): context injected at session start, leases renewed
// after tool use only when due, a stop blocked once and then let through, user hooks kept byte for byte.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { guardedHookCommand, MISSING_COMMAND_MESSAGE } from '../../src/core/hooks/missingCommand';
import { CLI, initWorkspace, REPO_ROOT, runCliSync, tempWorkspace } from './processHarness';

const FIXTURES = path.join(REPO_ROOT, 'test/fixtures/hooks');
const VENDORS = ['claude', 'codex', 'cursor', 'copilot', 'gemini', 'opencode'] as const;
type Vendor = (typeof VENDORS)[number];

function fixture(vendor: Vendor, name: string, ws: string): string {
  return fs.readFileSync(path.join(FIXTURES, vendor, `${name}.json`), 'utf8').replaceAll('__WORKSPACE__', ws);
}

/** What a hook printed: the fields the vendors read (each vendor reads some of them). */
interface HookOut {
  context?: string;
  block?: string;
  additional_context?: string;
  additionalContext?: string;
  hookSpecificOutput?: { additionalContext: string; hookEventName: string };
  followup_message?: string;
  reason?: string;
  decision?: string;
}

/** A hooks file as the packs write it (the fields these tests read). */
interface HooksFile {
  version?: number;
  permissions?: unknown;
  hooks: Record<string, { command?: string; hooks: { command: string }[] }[]>;
}

/** A store entry as these tests read and age it. */
interface StoredHandoff {
  handoff_id: string;
  claimed_at?: string;
  updated_at?: string;
  lease_expires_at: string;
}

/** Runs the hook as the vendor would: from the workspace folder, the vendor's JSON on stdin, the command of its pack. */
function hook(
  ws: string,
  vendor: Vendor,
  event: string,
  input: string,
  cwd = ws,
): { status: number | null; out: HookOut | null; stdout: string; stderr: string } {
  const env = { ...process.env };
  delete env.AGENTSYNC_AGENT;
  delete env.COPILOT_CLI; // the Claude pack steps aside under Copilot CLI
  delete env.COPILOT_HOOK_DIR;
  const r = spawnSync(process.execPath, [CLI, 'hook', event, '--agent', vendor, '--format', vendor], { cwd, input, encoding: 'utf8', env });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, out: r.stdout.trim() ? (JSON.parse(r.stdout) as HookOut) : null };
}

function request(ws: string, body: object): { ok: boolean; data: Record<string, unknown> } {
  const r = spawnSync(process.execPath, [CLI, '--dir', ws, 'request', '-'], { input: JSON.stringify(body), encoding: 'utf8' });
  return JSON.parse(r.stdout) as { ok: boolean; data: Record<string, unknown> };
}

/** An initialized workspace whose agent list also knows `agent` (the default config lists codex, copilot, claude). */
function initWorkspaceFor(agent: Vendor, config: object = {}): string {
  const ws = initWorkspace('hooks');
  const cfg = JSON.parse(fs.readFileSync(path.join(ws, '.agentsync.json'), 'utf8')) as { agentCapabilities: Record<string, string[]> };
  cfg.agentCapabilities[agent] ??= ['code_patch'];
  fs.writeFileSync(path.join(ws, '.agentsync.json'), JSON.stringify({ ...cfg, ...config }, null, 2));
  return ws;
}

function workspaceWithClaim(agent: Vendor, config: object = {}): { ws: string; id: string } {
  const ws = initWorkspaceFor(agent, config);
  const from = agent === 'codex' ? 'claude' : 'codex';
  const created = request(ws, {
    action: 'createHandoff',
    handoff: {
      from_agent: from,
      to_agents: [agent],
      owner_mode: 'single',
      summary: 'Fix the auth timeout',
      files: ['src/auth/session.ts'],
    },
  });
  const id = (created.data.handoff as { handoff_id: string }).handoff_id;
  assert.equal(request(ws, { action: 'claimHandoff', handoffId: id, agent }).ok, true);
  return { ws, id };
}

describe('agentsync hook (process, recorded vendor inputs)', function () {
  this.timeout(60_000);

  for (const vendor of VENDORS) {
    describe(vendor, () => {
      it('session-start: the briefing goes into the context in the form the vendor reads', () => {
        const ws = initWorkspaceFor(vendor);
        request(ws, {
          action: 'createHandoff',
          handoff: { from_agent: 'human', to_agents: [vendor], owner_mode: 'single', summary: 'Write the release notes' },
        });
        const r = hook(ws, vendor, 'session-start', fixture(vendor, 'session-start', ws));
        assert.equal(r.status, 0, r.stderr);
        const out = r.out ?? {};
        const text =
          (vendor === 'cursor'
            ? out.additional_context
            : vendor === 'copilot'
              ? out.additionalContext
              : vendor === 'opencode'
                ? out.context
                : out.hookSpecificOutput?.additionalContext) ?? '';
        if (vendor === 'claude' || vendor === 'codex' || vendor === 'gemini')
          assert.equal(out.hookSpecificOutput?.hookEventName, 'SessionStart');
        assert.match(text, new RegExp(`AgentSync briefing for ${vendor}`));
        assert.match(
          text,
          /Claimable by you[^\n]*\n----- BEGIN AGENT DATA -----\n- HO-\d{8}-001 \[queued\] from human: Write the release notes/,
        );
        // It started the agent's session through the dispatcher (state.json names it).
        const state = JSON.parse(fs.readFileSync(path.join(ws, '.agentsync/state.json'), 'utf8')) as unknown;
        assert.ok(JSON.stringify(state).includes(`"agent":"${vendor}"`));
      });

      it('stop: with requireHandoffOnEndSession and claimed work, blocked once with what to run, then let through', () => {
        const { ws, id } = workspaceWithClaim(vendor, { requireHandoffOnEndSession: true });
        const first = hook(ws, vendor, 'stop', fixture(vendor, 'stop', ws));
        assert.equal(first.status, 0, first.stderr);
        const reason =
          (vendor === 'cursor' ? first.out?.followup_message : vendor === 'opencode' ? first.out?.block : first.out?.reason) ?? '';
        if (vendor !== 'cursor' && vendor !== 'opencode') assert.equal(first.out?.decision, 'block');
        assert.match(reason, new RegExp(`${vendor} still holds ${id}`));
        assert.match(reason, /"action":"completeHandoff"/);
        // The second stop passes: the vendor's loop flag where it has one (Copilot's recorded input and opencode have
        // none: the marker decides).
        const noFlag = vendor === 'copilot' || vendor === 'opencode';
        const second = hook(ws, vendor, 'stop', noFlag ? fixture(vendor, 'stop', ws) : fixture(vendor, 'stop-active', ws));
        assert.deepEqual(second.out, {});
        // Nothing in the store changed: the hook only advises.
        assert.equal(request(ws, { action: 'listHandoffs', status: 'in_progress' }).data.count, 1);
      });

      it('stop: let through when the rule is off, and when the agent holds nothing', () => {
        const { ws } = workspaceWithClaim(vendor);
        assert.deepEqual(hook(ws, vendor, 'stop', fixture(vendor, 'stop', ws)).out, {});
        const empty = initWorkspace('hooks');
        const cfg = JSON.parse(fs.readFileSync(path.join(empty, '.agentsync.json'), 'utf8')) as Record<string, unknown>;
        fs.writeFileSync(path.join(empty, '.agentsync.json'), JSON.stringify({ ...cfg, requireHandoffOnEndSession: true }));
        assert.deepEqual(hook(empty, vendor, 'stop', fixture(vendor, 'stop', empty)).out, {});
      });

      it('post-tool-use: renews a lease past half its time, and writes nothing when none is due', () => {
        const { ws, id } = workspaceWithClaim(vendor);
        const storeFile = path.join(ws, '.agentsync/handoffs.json');
        const before = fs.readFileSync(storeFile);
        const mtime = fs.statSync(storeFile).mtimeMs;
        const fresh = hook(ws, vendor, 'post-tool-use', fixture(vendor, 'post-tool-use', ws));
        assert.equal(fresh.status, 0, fresh.stderr);
        assert.equal(fresh.stdout, '');
        assert.deepEqual(fs.readFileSync(storeFile), before, 'a fresh lease is not renewed: the store is not rewritten');
        assert.equal(fs.statSync(storeFile).mtimeMs, mtime);

        // Age the lease: claimed 20 minutes ago, 10 minutes left of 30.
        const store = JSON.parse(before.toString('utf8')) as { handoffs: StoredHandoff[] };
        const h = store.handoffs.find((x) => x.handoff_id === id)!;
        const now = Date.now();
        h.claimed_at = h.updated_at = new Date(now - 20 * 60_000).toISOString();
        h.lease_expires_at = new Date(now + 10 * 60_000).toISOString();
        fs.writeFileSync(storeFile, JSON.stringify(store, null, 2));
        const due = hook(ws, vendor, 'post-tool-use', fixture(vendor, 'post-tool-use', ws));
        assert.equal(due.status, 0, due.stderr);
        const after = (JSON.parse(fs.readFileSync(storeFile, 'utf8')) as { handoffs: StoredHandoff[] }).handoffs.find(
          (x) => x.handoff_id === id,
        )!;
        assert.ok(
          Date.parse(after.lease_expires_at) > now + 25 * 60_000,
          `lease renewed to ~30 min from now (got ${after.lease_expires_at})`,
        );
        const audit = fs
          .readdirSync(path.join(ws, '.agentsync/audit'))
          .map((f) => fs.readFileSync(path.join(ws, '.agentsync/audit', f), 'utf8'))
          .join('');
        assert.match(audit, /"action":"heartbeat"/);
      });
    });
  }

  it('AGENTSYNC_AGENT overrides the agent baked into the command', () => {
    const { ws, id } = workspaceWithClaim('codex', { requireHandoffOnEndSession: true });
    const r = spawnSync(process.execPath, [CLI, 'hook', 'stop', '--agent', 'claude', '--format', 'claude'], {
      cwd: ws,
      input: fixture('claude', 'stop', ws),
      encoding: 'utf8',
      env: { ...process.env, AGENTSYNC_AGENT: 'codex' },
    });
    assert.match((JSON.parse(r.stdout) as { reason: string }).reason, new RegExp(`codex still holds ${id}`));
  });

  it("stop follows the config loader's one rule: a misspelled requireHandoffOnEndSession blocks, an unrelated unknown key does not", () => {
    const { ws, id } = workspaceWithClaim('claude', { requireHandoffOnEndsession: false });
    const blocked = hook(ws, 'claude', 'stop', fixture('claude', 'stop', ws));
    assert.equal(blocked.out?.decision, 'block');
    assert.match(blocked.out?.reason ?? '', new RegExp(`claude still holds ${id}`));
    assert.match(blocked.out?.reason ?? '', /"requireHandoffOnEndsession" \(did you mean "requireHandoffOnEndSession"\?\)/);
    // endSession (the dispatcher) lets a session end with an unrelated unknown key: so does the stop hook.
    const other = workspaceWithClaim('claude', { staleAfterHour: 3 });
    assert.deepEqual(hook(other.ws, 'claude', 'stop', fixture('claude', 'stop', other.ws)).out, {});
  });

  it('outside an AgentSync workspace the hooks do nothing and never fail the agent', () => {
    const ws = tempWorkspace('hooks-none');
    for (const vendor of VENDORS) {
      assert.deepEqual(hook(ws, vendor, 'stop', fixture(vendor, 'stop', ws)).out, {});
      const post = hook(ws, vendor, 'post-tool-use', fixture(vendor, 'post-tool-use', ws));
      assert.equal(post.status, 0);
      assert.equal(post.stdout, '');
    }
    assert.equal(fs.existsSync(path.join(ws, '.agentsync')), false);
  });
});

/** The JSON hook packs `init --hooks` writes (opencode's plugin is a file of its own). */
const JSON_PACKS = [
  '.claude/settings.json',
  '.codex/hooks.json',
  '.cursor/hooks.json',
  '.github/hooks/agentsync.json',
  '.gemini/settings.json',
];

/** Every command string in a hooks file, with the key that holds it (`command`, Copilot's `bash` / `powershell`). */
function packCommands(doc: unknown): { key: string; command: string }[] {
  const found: { key: string; command: string }[] = [];
  const walk = (v: unknown) => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object')
      for (const [k, x] of Object.entries(v)) {
        if (typeof x === 'string' && ['command', 'bash', 'powershell'].includes(k)) found.push({ key: k, command: x });
        else walk(x);
      }
  };
  walk(doc);
  return found;
}

/** The bare `agentsync hook …` inside a pack command (the whole command in packs written before the guard). */
const bareCommand = (command: string) => /agentsync hook [a-z-]+ --agent [a-z]+ --format [a-z]+/.exec(command)![0];

describe('agentsync init --hooks (process)', function () {
  this.timeout(60_000);
  const userClaude = `{
  "permissions": {
    "allow": ["Bash(npm test)"]
  },
  "hooks": {
    "PostToolUse": [
      {
        "matcher": "Write|Edit",
        "hooks": [
          {
            "type": "command",
            "command": "npx prettier --write \\"$CLAUDE_PROJECT_DIR\\""
          }
        ]
      }
    ]
  }
}
`;
  const userCursor = `{
  "version": 1,
  "hooks": {
    "afterFileEdit": [
      {
        "command": "./scripts/format.sh"
      }
    ]
  }
}
`;

  it('merges the packs into the user files, keeps their hooks byte for byte, and a second run changes nothing', () => {
    const ws = tempWorkspace('init-hooks');
    fs.mkdirSync(path.join(ws, '.claude'));
    fs.mkdirSync(path.join(ws, '.cursor'));
    fs.writeFileSync(path.join(ws, '.claude/settings.json'), userClaude);
    fs.writeFileSync(path.join(ws, '.cursor/hooks.json'), userCursor);
    runCliSync(['--dir', ws, 'init', '--hooks']);
    const files = [
      '.claude/settings.json',
      '.codex/hooks.json',
      '.cursor/hooks.json',
      '.github/hooks/agentsync.json',
      '.gemini/settings.json',
      '.opencode/plugins/agentsync.js',
    ];
    const first = Object.fromEntries(files.map((f) => [f, fs.readFileSync(path.join(ws, f), 'utf8')]));

    const claude = JSON.parse(first['.claude/settings.json']) as HooksFile;
    assert.deepEqual(claude.permissions, { allow: ['Bash(npm test)'] });
    // The user's own hook block, byte for byte as they wrote it.
    const userBlock = userClaude.slice(userClaude.indexOf('      {\n        "matcher"'), userClaude.indexOf('\n    ]\n  }\n}'));
    assert.ok(first['.claude/settings.json'].includes(userBlock), first['.claude/settings.json']);
    assert.equal(claude.hooks.PostToolUse.length, 2);
    assert.equal(
      claude.hooks.SessionStart[0].hooks[0].command,
      guardedHookCommand('agentsync hook session-start --agent claude --format claude'),
    );
    assert.equal(claude.hooks.Stop[0].hooks[0].command, guardedHookCommand('agentsync hook stop --agent claude --format claude'));
    const cursor = JSON.parse(first['.cursor/hooks.json']) as HooksFile;
    assert.equal(cursor.version, 1);
    assert.deepEqual(cursor.hooks.afterFileEdit, [{ command: './scripts/format.sh' }]);
    assert.deepEqual(cursor.hooks.stop, [{ command: guardedHookCommand('agentsync hook stop --agent cursor --format cursor') }]);
    const copilot = JSON.parse(first['.github/hooks/agentsync.json']) as HooksFile;
    assert.equal(copilot.version, 1);
    assert.deepEqual(copilot.hooks.agentStop, [
      {
        type: 'command',
        bash: guardedHookCommand('agentsync hook stop --agent copilot --format copilot'),
        powershell: guardedHookCommand('agentsync hook stop --agent copilot --format copilot', 'powershell'),
        timeoutSec: 30,
      },
    ]);
    const codex = JSON.parse(first['.codex/hooks.json']) as HooksFile;
    assert.deepEqual(Object.keys(codex.hooks), ['SessionStart', 'PreToolUse', 'PostToolUse', 'Stop', 'SessionEnd']);
    const gemini = JSON.parse(first['.gemini/settings.json']) as HooksFile;
    assert.deepEqual(Object.keys(gemini.hooks), ['SessionStart', 'BeforeTool', 'AfterTool', 'AfterAgent', 'SessionEnd']);
    assert.equal(gemini.hooks.AfterAgent[0].hooks[0].command, guardedHookCommand('agentsync hook stop --agent gemini --format gemini'));
    assert.match(first['.opencode/plugins/agentsync.js'], /^\/\/ agentsync:/);
    assert.match(first['.opencode/plugins/agentsync.js'], /'tool\.execute\.before'/);

    const second = JSON.parse(runCliSync(['--dir', ws, '--json', 'init', '--hooks'])) as Record<string, unknown>;
    for (const f of files) assert.equal(fs.readFileSync(path.join(ws, f), 'utf8'), first[f], `${f} unchanged by the second run`);
    // The second run's report is the one docs/agentsync-documentation.md shows (Instruction files), timestamp aside.
    const docs = fs.readFileSync(path.join(REPO_ROOT, 'docs/agentsync-documentation.md'), 'utf8');
    const shown = JSON.parse(/```json\n(\{"ok":true,"action":"init".*\})\n```/.exec(docs)![1]) as Record<string, unknown>;
    assert.deepEqual({ ...second, timestamp: null }, { ...shown, timestamp: null });
  });

  it("each pack's command, run by sh without agentsync on PATH, says how to install it and exits 1; with it, runs the hook", () => {
    const ws = initWorkspaceFor('claude');
    runCliSync(['--dir', ws, 'init', '--hooks']);
    const noAgentsync = tempWorkspace('empty-path');
    let posix = 0;
    for (const file of JSON_PACKS) {
      for (const { key, command } of packCommands(JSON.parse(fs.readFileSync(path.join(ws, file), 'utf8')))) {
        if (key === 'powershell') {
          assert.match(command, /^if \(Get-Command agentsync -ErrorAction SilentlyContinue\) \{ agentsync hook /, `${file}: ${command}`);
          continue;
        }
        posix++;
        const r = spawnSync('/bin/sh', ['-c', command], { cwd: ws, input: '{}', encoding: 'utf8', env: { PATH: noAgentsync } });
        assert.equal(r.stderr, `${MISSING_COMMAND_MESSAGE}\n`, `${file}: ${command}`);
        assert.equal(r.status, 1, `${file}: ${command}`);
        assert.equal(r.stdout, '');
      }
    }
    // Claude Code, Codex, Copilot and Gemini CLI: 4 events and SessionEnd; Cursor: no pre-tool hook.
    assert.equal(posix, 5 + 5 + 4 + 5 + 5, 'every event of every JSON pack was run');
    // With agentsync on PATH the same command line runs the hook: Claude's session start briefs the agent.
    const bin = tempWorkspace('bin');
    fs.writeFileSync(path.join(bin, 'agentsync'), `#!/bin/sh\nexec '${process.execPath}' '${CLI}' "$@"\n`, { mode: 0o755 });
    const claude = JSON.parse(fs.readFileSync(path.join(ws, '.claude/settings.json'), 'utf8')) as HooksFile;
    const env = { PATH: `${bin}:/usr/bin:/bin` };
    const input = fixture('claude', 'session-start', ws);
    const r = spawnSync('/bin/sh', ['-c', claude.hooks.SessionStart[0].hooks[0].command], { cwd: ws, input, encoding: 'utf8', env });
    assert.equal(r.status, 0, r.stderr);
    assert.match((JSON.parse(r.stdout) as HookOut).hookSpecificOutput!.additionalContext, /^AgentSync briefing for claude/);
  });

  it('the opencode plugin, when it cannot start agentsync, prints the same message on stderr, no stack, and goes on', () => {
    const ws = initWorkspaceFor('opencode');
    const plugin = path.join(ws, 'plugin.mjs');
    fs.copyFileSync(path.join(REPO_ROOT, 'templates/opencode-plugin.js'), plugin);
    const script = [
      `const { AgentSync } = await import(${JSON.stringify(pathToFileURL(plugin).href)});`,
      `const p = await AgentSync({ client: {}, directory: ${JSON.stringify(ws)} });`,
      "const output = { output: 'edited' };",
      "await p['tool.execute.after']({ sessionID: 's1', callID: 'c1', tool: 'edit', args: {} }, output);",
      'process.stdout.write(output.output);',
    ].join('\n');
    const env = { PATH: tempWorkspace('empty-path') };
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: ws, encoding: 'utf8', env });
    assert.equal(r.stderr, `${MISSING_COMMAND_MESSAGE}\n`);
    assert.equal(r.status, 0);
    assert.equal(r.stdout, 'edited', 'the tool call goes on');
  });

  it('a re-run over packs of bare `agentsync hook` commands replaces them: one guarded AgentSync entry per event', () => {
    const ws = tempWorkspace('init-hooks-old');
    runCliSync(['--dir', ws, 'init', '--hooks']);
    const current = Object.fromEntries(JSON_PACKS.map((f) => [f, fs.readFileSync(path.join(ws, f), 'utf8')]));
    // The packs as AgentSync wrote them before the guard: the same entries, each command the bare `agentsync hook …`.
    for (const file of JSON_PACKS) {
      const doc = JSON.parse(current[file]) as unknown;
      const old = JSON.stringify(
        doc,
        (k, v: unknown) => (typeof v === 'string' && ['command', 'bash', 'powershell'].includes(k) ? bareCommand(v) : v),
        2,
      );
      assert.ok(
        packCommands(JSON.parse(old)).every(({ command }) => command.startsWith('agentsync hook ')),
        old,
      );
      fs.writeFileSync(path.join(ws, file), old + '\n');
    }
    runCliSync(['--dir', ws, 'init', '--hooks']);
    for (const file of JSON_PACKS) {
      const doc = JSON.parse(fs.readFileSync(path.join(ws, file), 'utf8')) as HooksFile;
      for (const [event, entries] of Object.entries(doc.hooks)) {
        assert.equal(entries.length, 1, `${file} ${event}: ${JSON.stringify(entries)}`);
        for (const { command } of packCommands(entries)) assert.match(command, /^if /, `${file} ${event}: the guarded command`);
      }
      assert.equal(fs.readFileSync(path.join(ws, file), 'utf8'), current[file], `${file} is the pack a fresh init writes`);
    }
  });

  it('a hook file of the wrong shape, or nested 5,000 deep, is refused as hooks_file_invalid naming the file; nothing is written', () => {
    const deep = '{"a":'.repeat(5000) + '1' + '}'.repeat(5000);
    const cases: [string, RegExp][] = [
      ['{"hooks":{"Stop":"x"}}', /hooks\.Stop that is not an array/],
      ['{"hooks":[]}', /"hooks" value that is not an object/],
      [deep, /nests objects or arrays more than 64 levels deep/],
    ];
    for (const [text, why] of cases) {
      const ws = tempWorkspace('init-hooks-shape');
      fs.mkdirSync(path.join(ws, '.claude'));
      fs.writeFileSync(path.join(ws, '.claude/settings.json'), text);
      const r = spawnSync(process.execPath, [CLI, '--dir', ws, '--json', 'init', '--hooks'], { encoding: 'utf8' });
      assert.equal(r.status, 1, r.stderr);
      const out = JSON.parse(r.stdout) as { ok: boolean; reason: string; message: string; path: string };
      assert.equal(out.reason, 'hooks_file_invalid', out.message);
      assert.equal(out.path, '.claude/settings.json');
      assert.match(out.message, why);
      assert.doesNotMatch(r.stdout + r.stderr, /Maximum call stack/);
      assert.equal(fs.readFileSync(path.join(ws, '.claude/settings.json'), 'utf8'), text);
      assert.deepEqual(fs.readdirSync(ws).sort(), ['.claude']);
    }
  });

  it('a hook file that is not valid JSON is refused with what to do, and nothing is written anywhere', () => {
    const ws = tempWorkspace('init-hooks-bad');
    fs.mkdirSync(path.join(ws, '.codex'));
    fs.writeFileSync(path.join(ws, '.codex/hooks.json'), '{ "hooks": { ');
    const r = spawnSync(process.execPath, [CLI, '--dir', ws, '--json', 'init', '--hooks'], { encoding: 'utf8' });
    assert.equal(r.status, 1);
    const out = JSON.parse(r.stdout) as { ok: boolean; message: string };
    assert.equal(out.ok, false);
    assert.match(out.message, /\.codex\/hooks\.json is not valid JSON .*will not overwrite it/);
    assert.equal(fs.readFileSync(path.join(ws, '.codex/hooks.json'), 'utf8'), '{ "hooks": { ');
    assert.deepEqual(fs.readdirSync(ws).sort(), ['.codex']);
  });
});
