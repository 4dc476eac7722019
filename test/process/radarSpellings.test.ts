// One path rule on every surface (docs/contract.md §3, docs/agentsync-documentation.md "Conflict radar"): paths are
// stored canonical, and the radar compares canonical real paths, whatever spelling a record, a tool or a shell command
// uses. Black-box: the CLI and the hook command as real processes, on real files and symlinks.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CLI, initWorkspace, runCliIn, withoutSession } from './processHarness';

function hook(cwd: string, vendor: string, input: object): string {
  const env = withoutSession({ ...process.env });
  const r = spawnSync(process.execPath, [CLI, 'hook', 'pre-tool-use', '--agent', vendor, '--format', vendor], {
    cwd,
    input: JSON.stringify(input),
    encoding: 'utf8',
    env,
  });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout;
}

const claudeEdit = (cwd: string, file: string) => ({
  session_id: 's1',
  cwd,
  hook_event_name: 'PreToolUse',
  tool_name: 'Edit',
  tool_input: { file_path: file, old_string: 'a', new_string: 'b' },
});
const claudeBash = (cwd: string, command: string) => ({
  session_id: 's1',
  cwd,
  hook_event_name: 'PreToolUse',
  tool_name: 'Bash',
  tool_input: { command },
});
const codexPatch = (cwd: string, patch: string) => ({
  session_id: 's2',
  cwd,
  hook_event_name: 'PreToolUse',
  tool_name: 'apply_patch',
  tool_input: { command: patch },
});

const warned = (stdout: string, file: string): boolean => stdout.includes(`- ${file}: claimed by reviewer in HO-`);

/** A workspace where `reviewer` holds a live claim listing `files` (stored as given: a record written before the rule). */
function contested(files: string[]): string {
  const ws = initWorkspace('radar-paths');
  const cfgFile = path.join(ws, '.agentsync.json');
  const cfg = JSON.parse(fs.readFileSync(cfgFile, 'utf8')) as { agentCapabilities: Record<string, string[]> };
  for (const a of ['claude', 'codex', 'reviewer']) cfg.agentCapabilities[a] ??= ['code_patch'];
  fs.writeFileSync(cfgFile, JSON.stringify(cfg, null, 2));
  const placeholders = files.map((_, i) => `src/placeholder${i}.ts`);
  const created = JSON.parse(
    runCliIn(ws, ['--json', 'create', '--from', 'human', '--to', 'reviewer', '--summary', 'held', '--files', placeholders.join(',')])
      .stdout,
  ) as { data: { handoff: { handoff_id: string } } };
  const id = created.data.handoff.handoff_id;
  assert.equal((JSON.parse(runCliIn(ws, ['--json', 'claim', id, '--agent', 'reviewer']).stdout) as { ok: boolean }).ok, true);
  // The record as an older AgentSync (or a merge) stored it: the spellings exactly as given.
  const store = path.join(ws, '.agentsync/handoffs.json');
  let text = fs.readFileSync(store, 'utf8');
  files.forEach((f, i) => (text = text.replace(JSON.stringify(placeholders[i]), JSON.stringify(f))));
  fs.writeFileSync(store, text);
  fs.mkdirSync(path.join(ws, 'src'));
  for (const f of ['a.ts', 'b.ts', 'c.ts', 'd.ts']) fs.writeFileSync(path.join(ws, 'src', f), 'export {};\n');
  return ws;
}

describe('one path rule: stored canonical, compared canonical (process)', function () {
  this.timeout(60_000);

  it('create stores ./src/a.ts, src//b.ts, src\\c.ts, src/d.ts/ as src/a.ts … and the answer says so', () => {
    const ws = initWorkspace('radar-paths');
    const given = ['./src/a.ts', 'src//b.ts', 'src\\c.ts', 'src/d.ts/'];
    const json = JSON.parse(
      runCliIn(ws, ['--json', 'create', '--from', 'human', '--to', 'claude', '--summary', 's', '--files', given.join(',')]).stdout,
    ) as { ok: boolean; data: { handoff: { files: string[] } } };
    assert.deepEqual(json.data.handoff.files, ['src/a.ts', 'src/b.ts', 'src/c.ts', 'src/d.ts']);
    const text = runCliIn(ws, ['create', '--from', 'human', '--to', 'claude', '--summary', 't', '--files', './src/a.ts']);
    assert.match(text.stdout, /files stored as: src\/a\.ts/);
    const refused = JSON.parse(
      runCliIn(ws, ['--json', 'create', '--from', 'human', '--to', 'claude', '--summary', 'u', '--files', './']).stdout,
    ) as { ok: boolean; message: string };
    assert.equal(refused.ok, false);
    assert.match(refused.message, /names no file/);
  });

  for (const stored of ['./src/a.ts', 'src//a.ts', 'src\\a.ts', 'src/a.ts/']) {
    it(`a claim stored as ${JSON.stringify(stored)} is seen by the radar for an edit of src/a.ts`, () => {
      const ws = contested([stored]);
      assert.ok(warned(hook(ws, 'claude', claudeEdit(ws, path.join(ws, 'src/a.ts'))), 'src/a.ts'));
    });
  }

  it('a Codex apply_patch whose header is indented (Codex trims each line) is seen', () => {
    const ws = contested(['src/a.ts']);
    const patch = '*** Begin Patch\n   *** Update File: src/a.ts\n@@\n-export {};\n+export const x = 1;\n*** End Patch\n';
    assert.ok(warned(hook(ws, 'codex', codexPatch(ws, patch)), 'src/a.ts'));
  });

  it('an edit through a symlinked folder is seen', () => {
    const ws = contested(['src/a.ts']);
    fs.symlinkSync(path.join(ws, 'src'), path.join(ws, 'linked'));
    assert.ok(warned(hook(ws, 'claude', claudeEdit(ws, path.join(ws, 'linked/a.ts'))), 'src/a.ts'));
  });

  it('an edit in a workspace reached through a symlink is seen', () => {
    const ws = contested(['src/a.ts']);
    const link = `${ws}-link`;
    fs.symlinkSync(ws, link);
    try {
      assert.ok(warned(hook(link, 'claude', claudeEdit(link, path.join(link, 'src/a.ts'))), 'src/a.ts'));
      assert.ok(warned(hook(link, 'claude', claudeEdit(link, 'src/a.ts')), 'src/a.ts'));
    } finally {
      fs.rmSync(link);
    }
  });

  const seen = [
    'sed -i s/x/y/ src/a.ts',
    'sed -i.bak -e s/x/y/ src/a.ts',
    'echo x > src/a.ts',
    'echo x >>src/a.ts',
    'cp /tmp/other src/a.ts',
    'mv src/a.ts src/z.ts',
    'printf x | tee -a src/a.ts',
    'true && rm -f src/a.ts',
  ];
  for (const command of seen) {
    it(`the shell command ${JSON.stringify(command)} is seen (Claude Bash, Codex Bash)`, () => {
      const ws = contested(['src/a.ts']);
      assert.ok(warned(hook(ws, 'claude', claudeBash(ws, command)), 'src/a.ts'), 'claude');
      assert.ok(warned(hook(ws, 'codex', claudeBash(ws, command)), 'src/a.ts'), 'codex');
    });
  }

  it('shell writes outside the documented list, or to a word that is not plain, are not seen (as documented)', () => {
    const ws = contested(['src/a.ts']);
    for (const command of ["python3 -c \"open('src/a.ts','w')\"", 'echo x > "src/a.ts"', 'F=src/a.ts; echo x > $F', 'sed s/x/y/ src/a.ts'])
      assert.equal(hook(ws, 'claude', claudeBash(ws, command)).trim(), '', command);
  });
});
