// Starts the real VS Code server bundled in code-server (installed by install-code-server.sh)
// under Node 24, with the smoke-test driver on so the web workbench honours the
// extension-development `payload` URL parameter. See shared/REAL_EDITOR.md.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const EDITOR_DIR = join(REPO_ROOT, '.editor-server');
export const NODE24 = join(EDITOR_DIR, 'node_modules/node/bin/node');
export const SERVER_MAIN = join(EDITOR_DIR, 'node_modules/code-server/lib/vscode/out/server-main.js');

/** Asks the OS for a free loopback port (small race window; fine for a test machine). */
function freePort() {
  return new Promise((ok, fail) => {
    const srv = createServer();
    srv.once('error', fail);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => ok(port));
    });
  });
}

/**
 * @param {{ port?: number, tmpDir?: string, startTimeoutMs?: number, log?: (line: string) => void }} [opts]
 * @returns {Promise<{ port: number, url: string, tmpDir: string, stop: () => void }>}
 */
export async function startEditorServer(opts = {}) {
  if (!existsSync(SERVER_MAIN) || !existsSync(NODE24)) {
    throw new Error(`VS Code server not installed; run scripts/editor/install-code-server.sh (looked for ${SERVER_MAIN})`);
  }
  const port = opts.port ?? (await freePort());
  const ownTmp = !opts.tmpDir;
  const tmp = opts.tmpDir ?? mkdtempSync(join(tmpdir(), 'agentsync-editor-'));
  const log = opts.log ?? (() => {});
  const args = [
    SERVER_MAIN,
    '--host',
    '127.0.0.1',
    '--port',
    String(port),
    '--without-connection-token',
    '--enable-smoke-test-driver',
    '--accept-server-license-terms',
    '--user-data-dir',
    join(tmp, 'ud'),
    '--server-data-dir',
    join(tmp, 'sd'),
    '--extensions-dir',
    join(tmp, 'ext'),
    '--disable-telemetry',
    '--disable-workspace-trust',
  ];
  // detached: own process group, so stop() also ends the extension hosts and helpers it forks.
  const child = spawn(NODE24, args, { detached: true, stdio: ['ignore', 'pipe', 'pipe'] });

  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    process.removeListener('exit', stop);
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      /* already gone */
    }
    if (ownTmp) {
      try {
        rmSync(tmp, { recursive: true, force: true });
      } catch {
        /* best effort */
      }
    }
  };
  // 'exit' handlers must be synchronous: process.kill and rmSync are.
  process.on('exit', stop);

  await new Promise((ok, fail) => {
    let buf = '';
    const timer = setTimeout(() => {
      stop();
      fail(new Error(`VS Code server gave no "Web UI available" within ${opts.startTimeoutMs ?? 60000} ms:\n${buf.slice(-2000)}`));
    }, opts.startTimeoutMs ?? 60000);
    const onData = (d) => {
      const s = d.toString();
      buf += s;
      for (const line of s.split('\n')) if (line.trim()) log(line);
      if (buf.includes('Web UI available')) {
        clearTimeout(timer);
        ok();
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code, sig) => {
      clearTimeout(timer);
      stop();
      fail(new Error(`VS Code server exited early (${code ?? sig}):\n${buf.slice(-2000)}`));
    });
  });
  // Keep draining the pipes so the server never blocks on a full buffer.
  child.stdout.removeAllListeners('data');
  child.stderr.removeAllListeners('data');
  child.stdout.on('data', (d) => log(d.toString().trimEnd()));
  child.stderr.on('data', (d) => log(d.toString().trimEnd()));

  return { port, url: `http://127.0.0.1:${port}/`, tmpDir: tmp, stop };
}

/**
 * Workbench URL that opens `folder` and loads the extension under development
 * (and, if given, runs its tests), like `code --extensionDevelopmentPath ... --extensionTestsPath ...`.
 */
export function workbenchUrl({ port, folder, extensionDevelopmentPath, extensionTestsPath }) {
  const remote = (p) => `vscode-remote://127.0.0.1:${port}${resolve(p)}`;
  const payload = [];
  if (extensionDevelopmentPath) payload.push(['extensionDevelopmentPath', remote(extensionDevelopmentPath)]);
  if (extensionTestsPath) payload.push(['extensionTestsPath', remote(extensionTestsPath)]);
  const q = new URLSearchParams();
  if (folder) q.set('folder', resolve(folder));
  if (payload.length) q.set('payload', JSON.stringify(payload));
  return `http://127.0.0.1:${port}/?${q}`;
}
