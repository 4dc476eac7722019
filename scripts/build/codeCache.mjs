// V8's code cache for dist/cli.js (bin/agentsync.js reads it): the package build runs a few verbs on a scratch
// workspace, each adding the code it compiled to dist/cli.js.v8cache, so a user's `agentsync claim` starts without
// compiling most of the bundle. It is only an optimisation: a cache from another Node, or for other bundle bytes, is
// ignored at run time. Written at build time only; the CLI never writes it.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/** Writes `<root>/dist/cli.js.v8cache` from a run of init, create, list, show, claim and release. */
export function writeCliCodeCache(root) {
  const out = path.join(root, 'dist', 'cli.js.v8cache');
  fs.rmSync(out, { force: true });
  const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'agentsync-code-cache-'));
  const cli = (...args) => {
    const r = spawnSync(process.execPath, [path.join(root, 'bin', 'agentsync.js'), '--dir', ws, ...args], {
      encoding: 'utf8',
      env: { ...process.env, AGENTSYNC_WRITE_CODE_CACHE: out },
    });
    if (r.status !== 0)
      throw new Error(`agentsync ${args.join(' ')} exited ${r.status} while writing the code cache: ${r.stdout}${r.stderr}`);
    return r.stdout;
  };
  try {
    cli('init');
    const id = JSON.parse(cli('--json', 'create', '--from', 'codex', '--to', 'claude', '--summary', 'code cache')).data.handoff.handoff_id;
    cli('list');
    cli('show', id);
    cli('claim', id, '--agent', 'claude');
    cli('release', id, '--agent', 'claude');
    cli('claim', id, '--agent', 'claude');
  } finally {
    fs.rmSync(ws, { recursive: true, force: true });
  }
}

/** A build without the cache (a development build) removes the one a package build left. */
export function removeCliCodeCache(root) {
  fs.rmSync(path.join(root, 'dist', 'cli.js.v8cache'), { force: true });
}
