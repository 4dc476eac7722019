// Talking to a git remote without ever waiting on a person (docs/contract.md §13): no terminal prompt, no askpass,
// ssh in batch mode unless the user chose their own ssh command, no controlling terminal, a timeout; and no program
// named by the repository's config (hooks, fsmonitor, upload-pack/receive-pack overrides, the ext:: transport).
import { childProcess } from '../disk/childProcess';
import { SAFE_GIT_OPTIONS } from './gitSafety';
import { runGitPlumbing } from './gitCommand';
import { noteGitProcess } from './gitProcessLog';
import { networkDeadline } from '../domain/networkDeadline';

export interface RemoteRun {
  ok: boolean;
  status: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

/** How long one fetch or push may take before it counts as unreachable. */
export const REMOTE_TIMEOUT_MS =
  Number(process.env.AGENTSYNC_REMOTE_TIMEOUT_MS) > 0 ? Number(process.env.AGENTSYNC_REMOTE_TIMEOUT_MS) : 30_000;

/**
 * The options put before a fetch or push: the safe options, and no ext:: transport. The upload-pack and receive-pack
 * programs a clone's config may name for a remote are overridden by the fetch's and push's own options
 * (REMOTE_PROGRAM_OPTIONS): a `-c` cannot, since git uses the first of several values.
 */
export function remoteGitOptions(): string[] {
  return [
    ...SAFE_GIT_OPTIONS,
    '-c',
    'protocol.ext.allow=never',
    '-c',
    'core.askPass=',
    // No background gc or maintenance after a fetch: its time would be a claim's latency.
    '-c',
    'gc.auto=0',
    '-c',
    'maintenance.auto=false',
  ];
}

/**
 * The environment of a network git: the user's own, minus every way of asking a person for something. `ssh` false:
 * the caller knows the remote's last URL used no ssh (sshUrl), so the user's core.sshCommand is not looked up (one git
 * process fewer a write); should the URL have become an ssh one since, ssh still cannot ask anything: it runs in a
 * session without a terminal (runRemoteGit) and with SSH_ASKPASS_REQUIRE=never.
 */
export function remoteEnv(root: string, ssh = true): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_ASKPASS: '', SSH_ASKPASS: '', LC_ALL: 'C' };
  env.SSH_ASKPASS_REQUIRE = 'never';
  // The user's own ssh command wins (their keys, their proxy); otherwise ssh may not ask for a password or a host key.
  if (ssh && !env.GIT_SSH_COMMAND && !env.GIT_SSH && !userSshCommand(root)) env.GIT_SSH_COMMAND = 'ssh -o BatchMode=yes';
  return env;
}

/** Whether git reaches `url` (as a push prints it, "To <url>") through ssh; anything not plainly another transport counts. */
export function sshUrl(url: string): boolean {
  if (/^(git|https?|file):\/\//i.test(url)) return false;
  if (url.startsWith('/') || url.startsWith('.') || /^[A-Za-z]:[\\/]/.test(url)) return false;
  return true;
}

const sshCommandSet = new Map<string, boolean>();

function userSshCommand(root: string): boolean {
  const known = sshCommandSet.get(root);
  if (known !== undefined) return known;
  const r = runGitPlumbing(root, ['config', '--get', 'core.sshCommand']);
  const set = r.ok && r.stdout.trim() !== '';
  sshCommandSet.set(root, set);
  return set;
}

/** What a fetch and a push run on the other side (locally, for a path or file:// remote): git's own, never the config's. */
export const REMOTE_PROGRAM_OPTIONS = { fetch: '--upload-pack=git-upload-pack', push: '--receive-pack=git-receive-pack' } as const;

/** The process groups of the network gits running now: ended with the process (endRemoteGits). */
const live = new Set<number>();

/** Kills every network git this process started that still runs, as a process group (no orphaned push). */
export function endRemoteGits(): void {
  for (const pid of live) killGroup(pid);
  live.clear();
}

/** Runs a fetch or push (args after the options) with the remote environment; never throws for git's own failure. */
export function runRemoteGit(root: string, args: string[], timeoutMs = REMOTE_TIMEOUT_MS, ssh = true): Promise<RemoteRun> {
  const deadline = networkDeadline(process.env);
  const left = deadline === null ? timeoutMs : Math.min(timeoutMs, deadline - Date.now());
  // No time left under the deadline: not started at all, answered as a time-out (what is not done stays for later).
  if (left <= 0) return Promise.resolve({ ok: false, status: null, stdout: '', stderr: '', timedOut: true });
  noteGitProcess(args);
  return new Promise((resolve, reject) => {
    const child = childProcess().spawn('git', [...remoteGitOptions(), '-C', root, ...args], {
      env: remoteEnv(root, ssh),
      // A new session: no controlling terminal, so neither git nor ssh can open /dev/tty to ask anything.
      detached: process.platform !== 'win32',
      stdio: ['ignore', 'pipe', 'pipe'],
      windowsHide: true,
    });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    if (child.pid) live.add(child.pid);
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child.pid);
    }, left);
    child.on('error', (e) => {
      clearTimeout(timer);
      if (child.pid) live.delete(child.pid);
      reject(new Error(`cannot run git (${e.message}); install git`));
    });
    child.on('close', (status) => {
      clearTimeout(timer);
      if (child.pid) live.delete(child.pid);
      resolve({ ok: status === 0 && !timedOut, status, stdout, stderr, timedOut });
    });
  });
}

function killGroup(pid: number | undefined): void {
  if (!pid) return;
  try {
    process.kill(process.platform === 'win32' ? pid : -pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

export type RemoteFailure = 'unreachable' | 'auth' | 'refused';

const AUTH = [
  /could not read (Username|Password)/i,
  /terminal prompts disabled/i,
  /Authentication failed/i,
  /Permission denied \((publickey|password|keyboard)/i,
  /Host key verification failed/i,
  /returned error: 401/i,
  /HTTP Basic: Access denied/i,
  /invalid credentials/i,
];
const REFUSED = [/returned error: 403/i, /\[remote rejected\]/i, /protected branch/i, /pre-receive hook declined/i, /denied/i];

/**
 * Words git, ssh and curl use when the conversation never started (no connection, no such host): nothing was sent.
 * Any other failure of a push (the connection dropped, the time ran out) may come after the pack was sent, so the
 * remote may have taken it (store/sync/pushOutcome.ts settles that with a fetch).
 */
const NEVER_CONNECTED = [
  /unable to connect/i,
  /Connection refused/i,
  /Could not resolve host/i,
  /Could not resolve hostname/i,
  /Name or service not known/i,
  /No route to host/i,
  /Network is unreachable/i,
  /Failed to connect to/i,
  /does not appear to be a git repository/i,
];

/** Whether a failed fetch or push never reached the remote (so a push certainly changed nothing there). */
export function neverConnected(run: RemoteRun): boolean {
  if (run.timedOut) return false;
  return NEVER_CONNECTED.some((r) => r.test(`${run.stdout}\n${run.stderr}`));
}

/** What kind of failure a fetch or push output shows: auth wanted, refused by the server, or (the rest) unreachable. */
export function classifyRemoteFailure(run: RemoteRun): RemoteFailure {
  if (run.timedOut) return 'unreachable';
  const text = `${run.stdout}\n${run.stderr}`;
  if (AUTH.some((r) => r.test(text))) return 'auth';
  if (REFUSED.some((r) => r.test(text))) return 'refused';
  return 'unreachable';
}

/** The last meaningful lines of git's output, for a message (no progress noise, at most 400 characters). */
export function gitOutputSummary(run: RemoteRun): string {
  if (run.timedOut) return 'no answer within the time limit';
  const lines = `${run.stderr}\n${run.stdout}`
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !/^(To |Done$|remote: Counting|remote: Compressing|Enumerating|Counting|Compressing|Writing|Total )/.test(l));
  return lines.join(' | ').slice(0, 400) || `git exited with status ${run.status}`;
}
