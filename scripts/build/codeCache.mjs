// V8's code caches for dist/cli.js and dist/hook.js (bin/agentsync.js reads them): the package build runs a few verbs
// and the tool hooks on a scratch workspace, each adding the code it compiled to dist/cli.js.v8cache or
// dist/hook.js.v8cache, so a user's `agentsync claim`, and the hook around each tool call, start without compiling
// most of their bundle. It is only an optimisation: a cache from another Node, or for other bundle bytes, is
// ignored at run time. Written at build time only; the CLI never writes it.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/**
 * Writes `<root>/dist/cli.js.v8cache` from a run of init, create, list, show, claim and release, and
 * `<root>/dist/hook.js.v8cache` from Claude Code's tool hooks before and after a Write.
 */
export function writeCliCodeCache(root) {
  const out = path.join(root, 'dist', 'cli.js.v8cache');
  const hookOut = path.join(root, 'dist', 'hook.js.v8cache');
  removeCliCodeCache(root);
  const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'agentsync-code-cache-'));
  /** `agentsync <args>` in the scratch workspace, adding the code it compiled to `cache`. */
  const run = (cache, args, input) => {
    const r = spawnSync(process.execPath, [path.join(root, 'bin', 'agentsync.js'), ...args], {
      cwd: ws,
      encoding: 'utf8',
      input,
      env: { ...process.env, AGENTSYNC_WRITE_CODE_CACHE: cache },
    });
    if (r.status !== 0)
      throw new Error(`agentsync ${args.join(' ')} exited ${r.status} while writing the code cache: ${r.stdout}${r.stderr}`);
    return r.stdout;
  };
  const cli = (...args) => run(out, ['--dir', ws, ...args]);
  const writeInput = JSON.stringify({ session_id: 'build', cwd: ws, tool_name: 'Write', tool_input: { file_path: path.join(ws, 'a.ts') } });
  const hook = (event) => run(hookOut, ['hook', event, '--agent', 'claude', '--format', 'claude'], writeInput);
  try {
    cli('init');
    const id = JSON.parse(cli('--json', 'create', '--from', 'codex', '--to', 'claude', '--summary', 'code cache')).data.handoff.handoff_id;
    cli('list');
    cli('show', id);
    cli('claim', id, '--agent', 'claude');
    cli('release', id, '--agent', 'claude');
    cli('claim', id, '--agent', 'claude');
    for (const event of ['pre-tool-use', 'post-tool-use', 'pre-tool-use']) hook(event);
  } finally {
    fs.rmSync(ws, { recursive: true, force: true });
  }
}

/** A build without the caches (a development build) removes those a package build left. */
export function removeCliCodeCache(root) {
  for (const bundle of ['cli.js', 'hook.js']) fs.rmSync(path.join(root, 'dist', `${bundle}.v8cache`), { force: true });
}
