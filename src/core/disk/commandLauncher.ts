// The `agentsync` command for people who installed only the editor extension (docs/agentsync-documentation.md,
// "Installing the agentsync command"): a small launcher file named `agentsync` (`agentsync.cmd` on Windows) that
// runs the CLI bundled with the extension (bin/agentsync.js) with the editor's own runtime, as VS Code's `code`
// command does. The extension keeps one in its storage folder for its terminals' PATH, and writes one into a user
// bin folder (~/.local/bin) on request. A file there that this module did not write is never overwritten.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { writeFileAtomic } from './atomicFile';

/** The first lines of every launcher carry this, so a launcher is told apart from anyone else's `agentsync`. */
export const LAUNCHER_MARK = 'agentsync launcher written by the AgentSync editor extension';

export interface LauncherTarget {
  /** The CLI entry to run: <extension>/bin/agentsync.js. */
  cli: string;
  /** The program that runs it: the editor's process.execPath (Electron, run as Node) or a Node binary. */
  runtime: string;
  platform?: NodeJS.Platform;
}

/** The launcher's file name in a bin folder. */
export function launcherName(platform: NodeJS.Platform = process.platform): string {
  return platform === 'win32' ? 'agentsync.cmd' : 'agentsync';
}

const shQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** The launcher's text. When the editor's runtime is gone (the editor was updated) it falls back to `node` on PATH. */
export function launcherText(target: LauncherTarget): string {
  const missing =
    "agentsync: the AgentSync extension this command belongs to was updated or removed. Open VS Code and run \"AgentSync: Install 'agentsync' " +
    'Command in PATH" again, or install the CLI with npm (docs/agentsync-documentation.md, "Installing the agentsync command").';
  if ((target.platform ?? process.platform) === 'win32') {
    return [
      '@echo off',
      `rem ${LAUNCHER_MARK}`,
      `if not exist "${target.cli}" (echo ${missing.replace(/"/g, "'")} 1>&2 & exit /b 127)`,
      'set ELECTRON_RUN_AS_NODE=1',
      `if exist "${target.runtime}" ("${target.runtime}" "${target.cli}" %* & exit /b)`,
      `node "${target.cli}" %*`,
      '',
    ].join('\r\n');
  }
  return [
    '#!/bin/sh',
    `# ${LAUNCHER_MARK}`,
    `cli=${shQuote(target.cli)}`,
    `runtime=${shQuote(target.runtime)}`,
    `if [ ! -f "$cli" ]; then echo ${shQuote(missing)} >&2; exit 127; fi`,
    'if [ -x "$runtime" ]; then ELECTRON_RUN_AS_NODE=1 exec "$runtime" "$cli" "$@"; fi',
    'exec node "$cli" "$@"',
    '',
  ].join('\n');
}

/** True when `file` is a launcher this module wrote (its mark in the first lines). */
export function isOurLauncher(file: string): boolean {
  let head: string;
  try {
    const st = fs.lstatSync(file);
    if (!st.isFile()) return false;
    const fd = fs.openSync(file, 'r');
    try {
      const buf = Buffer.alloc(512);
      head = buf.toString('utf8', 0, fs.readSync(fd, buf, 0, 512, 0));
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return false;
  }
  return head.includes(LAUNCHER_MARK);
}

export type InstallOutcome =
  | { ok: true; file: string; changed: boolean; onPath: boolean; pathHint: string | null }
  | { ok: false; file: string; reason: 'foreign_file' | 'write_failed'; message: string };

/** The user bin folder a login shell sees: ~/.local/bin (on most Linux distributions ~/.profile adds it to PATH when it exists). */
export function userBinFolder(home: string = os.homedir()): string {
  return path.join(home, '.local', 'bin');
}

/** Whether `dir` is one of the folders of a PATH value. */
export function isOnPath(dir: string, pathValue: string | undefined, platform: NodeJS.Platform = process.platform): boolean {
  const norm = (p: string) => {
    const r = path.resolve(p).replace(/[\\/]+$/, '');
    return platform === 'win32' ? r.toLowerCase() : r;
  };
  const want = norm(dir);
  return (pathValue ?? '').split(platform === 'win32' ? ';' : ':').some((p) => p !== '' && norm(p) === want);
}

/** What to add to a shell's start-up file (or Windows' user PATH) so `dir` is on PATH. */
export function pathHint(dir: string, platform: NodeJS.Platform = process.platform, home: string = os.homedir()): string {
  if (platform === 'win32')
    return `add ${dir} to your user PATH (Settings > System > About > Advanced system settings > Environment Variables)`;
  const shown = dir.startsWith(home + path.sep) ? `$HOME${dir.slice(home.length)}` : dir;
  return `add this line to ~/.profile (and ~/.zprofile for zsh), then log in again: export PATH="${shown}:$PATH"`;
}

/**
 * Writes the launcher into `dir` (created when missing). A launcher of ours there is replaced when its text
 * differs (the extension moved on an update); any other file of that name is left alone and refused.
 */
export function installLauncher(
  dir: string,
  target: LauncherTarget,
  pathValue: string | undefined,
  home: string = os.homedir(),
): InstallOutcome {
  const platform = target.platform ?? process.platform;
  const file = path.join(dir, launcherName(platform));
  const text = launcherText(target);
  const exists = fs.existsSync(file) || isSymlink(file);
  if (exists && !isOurLauncher(file))
    return {
      ok: false,
      file,
      reason: 'foreign_file',
      message:
        `${file} exists and was not written by AgentSync (another agentsync, perhaps from npm install -g); it was left as it is. ` +
        'Remove it yourself if you want the launcher there, or keep using that command.',
    };
  let changed = false;
  try {
    if (!exists || fs.readFileSync(file, 'utf8') !== text) {
      fs.mkdirSync(dir, { recursive: true });
      writeFileAtomic(file, text);
      changed = true;
    }
    if (platform !== 'win32') fs.chmodSync(file, 0o755);
  } catch (e) {
    return { ok: false, file, reason: 'write_failed', message: `could not write ${file}: ${(e as Error).message}` };
  }
  const onPath = isOnPath(dir, pathValue, platform);
  return { ok: true, file, changed, onPath, pathHint: onPath ? null : pathHint(dir, platform, home) };
}

/** Rewrites a launcher of ours at `file` when its text is out of date; never touches anything else. Returns whether it wrote. */
export function refreshLauncher(file: string, target: LauncherTarget): boolean {
  if (!isOurLauncher(file)) return false;
  const text = launcherText(target);
  if (fs.readFileSync(file, 'utf8') === text) return false;
  writeFileAtomic(file, text);
  if ((target.platform ?? process.platform) !== 'win32') fs.chmodSync(file, 0o755);
  return true;
}

function isSymlink(file: string): boolean {
  try {
    return fs.lstatSync(file).isSymbolicLink();
  } catch {
    return false;
  }
}
