// Local consent to run a workspace's configured commands (`commands.build|test|deploy` in .agentsync.json).
// A repository is untrusted input: a clone must not be able to make AgentSync run a program. Like direnv's
// `allow`, the local user approves the exact commands of one workspace with `agentsync trust`; the approval is a
// SHA-256 of the workspace's real path, the canonical JSON of its commands and the digests of what they run from the
// repository (commandTargets.ts: every word naming a repository file, package.json/.npmrc for npm), kept per user OUTSIDE the
// repository, so it never travels with a clone, and any change to the commands or to those files asks again
// (docs/agentsync-documentation.md, "Trusting a workspace's commands").
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { writeFileAtomic } from '../disk/atomicFile';
import { ActionError } from '../domain/errors';
import { stableStringify } from '../domain/stableJson';
import type { AgentSyncConfig } from '../domain/configSchema';
import { commandTargets, targetChanges, type CommandTargets } from './commandTargets';

export type ConfiguredCommands = AgentSyncConfig['commands'];

/** One approved workspace in the trust file. `commands` and `runs` are kept so `--show` can say what was approved. */
export interface TrustRecord {
  sha256: string;
  commands: ConfiguredCommands;
  /** What the commands ran from the repository when approved (absent in records written before it was covered). */
  runs?: CommandTargets;
  trustedAt: string;
}

interface TrustFile {
  version: 1;
  workspaces: Record<string, TrustRecord>;
}

export interface ConsentState {
  /** The workspace's real path (symlinks resolved): the key of its record. */
  workspace: string;
  commands: ConfiguredCommands;
  /** What the commands run from the repository now: files and package.json scripts with their SHA-256. */
  runs: CommandTargets;
  /** Why an earlier approval no longer holds (`commands changed`, `build.sh changed`); empty when trusted or never approved. */
  changes: string[];
  /** False when no command is configured: there is nothing to consent to. */
  hasCommands: boolean;
  sha256: string;
  /** What was approved before, if anything (it may be for other commands). */
  record: TrustRecord | null;
  trusted: boolean;
  trustFile: string;
}

const MAX_TRUST_FILE_BYTES = 5_000_000;
const COMMANDS_CHANGED = 'the commands changed';

/**
 * `AGENTSYNC_TRUST_FILE`, else `$XDG_CONFIG_HOME/agentsync/trusted.json`, else `~/.config/agentsync/trusted.json`.
 * A relative `AGENTSYNC_TRUST_FILE` is the user's: under the home folder, never the current folder (often the
 * repository, whose files are not the user's to trust with).
 */
export function trustFilePath(env: NodeJS.ProcessEnv = process.env): string {
  if (env.AGENTSYNC_TRUST_FILE) return path.resolve(os.homedir(), env.AGENTSYNC_TRUST_FILE);
  const base = env.XDG_CONFIG_HOME && path.isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : path.join(os.homedir(), '.config');
  return path.join(base, 'agentsync', 'trusted.json');
}

function realWorkspace(root: string): string {
  try {
    return fs.realpathSync(root);
  } catch {
    return path.resolve(root);
  }
}

export function hasConfiguredCommands(commands: ConfiguredCommands): boolean {
  return commands.build !== undefined || commands.test !== undefined || commands.deploy !== undefined;
}

/**
 * The digest approved by `agentsync trust`: the workspace, its commands and what they run, canonical (sorted keys).
 * Commands that run no repository file keep the digest they had before `runs` was covered.
 */
export function commandsDigest(workspace: string, commands: ConfiguredCommands, runs: CommandTargets = {}): string {
  const covered = Object.keys(runs).length > 0 ? { workspace, commands, runs } : { workspace, commands };
  return createHash('sha256').update(stableStringify(covered)).digest('hex');
}

function readTrustFile(file: string): TrustFile {
  let text: string;
  try {
    const st = fs.lstatSync(file);
    // A symlink or oversized file is not ours: treat it as "nothing approved" (it fails closed).
    if (!st.isFile() || st.size > MAX_TRUST_FILE_BYTES) return { version: 1, workspaces: {} };
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return { version: 1, workspaces: {} };
  }
  try {
    const raw = JSON.parse(text) as Partial<TrustFile>;
    const workspaces = Object.create(null) as Record<string, TrustRecord>;
    for (const [k, v] of Object.entries(raw?.workspaces ?? {})) {
      if (v && typeof v.sha256 === 'string') workspaces[k] = v;
    }
    return { version: 1, workspaces };
  } catch {
    return { version: 1, workspaces: {} };
  }
}

function writeTrustFile(file: string, data: TrustFile): void {
  const dir = path.dirname(file);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const st = fs.lstatSync(dir);
  if (!st.isDirectory()) {
    throw new ActionError(
      'store_unsafe',
      `${dir} is not a folder (a symlink or file); AgentSync keeps its trust records there. Replace it with a folder.`,
    );
  }
  // writeFileAtomic refuses a symlink in place of the file and replaces it whole (temp file, fsync, rename).
  writeFileAtomic(file, JSON.stringify(data, null, 2) + '\n');
}

export function consentState(root: string, commands: ConfiguredCommands, env: NodeJS.ProcessEnv = process.env): ConsentState {
  const workspace = realWorkspace(root);
  const trustFile = trustFilePath(env);
  const hasCommands = hasConfiguredCommands(commands);
  const runs = hasCommands ? commandTargets(workspace, commands) : {};
  const sha256 = commandsDigest(workspace, commands, runs);
  const record = readTrustFile(trustFile).workspaces[workspace] ?? null;
  const trusted = !hasCommands || record?.sha256 === sha256;
  let changes: string[] = [];
  if (!trusted && record) {
    changes = stableStringify(record.commands) !== stableStringify(commands) ? [COMMANDS_CHANGED] : targetChanges(record.runs, runs);
  }
  return { workspace, commands, runs, changes, hasCommands, sha256, record, trusted, trustFile };
}

/** Records the local user's approval of exactly these commands for this workspace. */
export function grantConsent(
  root: string,
  commands: ConfiguredCommands,
  now = new Date(),
  env: NodeJS.ProcessEnv = process.env,
): ConsentState {
  const state = consentState(root, commands, env);
  const data = readTrustFile(state.trustFile);
  data.workspaces[state.workspace] = { sha256: state.sha256, commands, runs: state.runs, trustedAt: now.toISOString() };
  writeTrustFile(state.trustFile, data);
  return { ...state, record: data.workspaces[state.workspace], trusted: true };
}

/** Forgets any approval for this workspace; true when there was one. */
export function revokeConsent(root: string, env: NodeJS.ProcessEnv = process.env): boolean {
  const file = trustFilePath(env);
  const workspace = realWorkspace(root);
  const data = readTrustFile(file);
  if (!data.workspaces[workspace]) return false;
  delete data.workspaces[workspace];
  writeTrustFile(file, data);
  return true;
}

/** The commands as people read them: `build: sh -c 'id > marker'`. */
export function describeCommands(commands: ConfiguredCommands): string[] {
  return (['build', 'test', 'deploy'] as const)
    .filter((k) => commands[k] !== undefined)
    .map((k) => {
      const c = commands[k]!;
      return `${k}: ${typeof c === 'string' ? c : c.map((w) => (/^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`)).join(' ')}`;
    });
}

/** What the commands run from the repository, as people read it: `build.sh (sha256 3f2a…)`, `package.json scripts.test`. */
export function describeTargets(runs: CommandTargets): string[] {
  return Object.entries(runs).map(([label, digest]) => `${label} (${digest === null ? 'missing' : `sha256 ${digest.slice(0, 12)}…`})`);
}

/** Why the commands are not approved now, for the refusal and the editor's prompt. */
export function whyUntrusted(state: ConsentState): string {
  if (!state.record) return 'have not been approved on this machine';
  if (state.changes.length === 0 || state.changes[0] === COMMANDS_CHANGED) return 'have changed since they were approved';
  return `were approved, but what they run changed since (${state.changes.join(', ')})`;
}

/** The refusal every surface gives while the commands are not approved: what would run, and how to approve it. */
export function untrustedCommandsError(state: ConsentState): ActionError {
  const runs = describeTargets(state.runs);
  return new ActionError(
    'commands_untrusted',
    `.agentsync.json configures commands that ${whyUntrusted(state)}: ${describeCommands(state.commands).join('; ')}` +
      `${runs.length ? ` (running from the repository: ${runs.join(', ')})` : ''}. Nothing was run. ` +
      `A repository cannot make AgentSync run programs: review the commands and those files, then run \`agentsync trust --dir ` +
      `${JSON.stringify(state.workspace)}\` to allow them.`,
    { commands: state.commands, runs: state.runs, changes: state.changes, workspace: state.workspace },
  );
}
