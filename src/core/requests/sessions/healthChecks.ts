// Health checks (AgentSync 0.3's Current Health): run `commands.build|test|deploy` without a shell, one after the
// other (a test may need the build), each with a time limit, capturing the tail of its output.
import { childProcess } from '../../disk/childProcess';
import { commandArgv } from '../../domain/commandLine';
import { ActionError, isActionError } from '../../domain/errors';

/** 0.3's labels, in its order, and the config key each reads. */
export const HEALTH_CHECKS = [
  { label: 'Build', key: 'build' },
  { label: 'Tests', key: 'test' },
  { label: 'Deploy', key: 'deploy' },
] as const;

export type HealthLabel = (typeof HEALTH_CHECKS)[number]['label'];
export type HealthKey = (typeof HEALTH_CHECKS)[number]['key'];
export type HealthStatus = 'Pass' | 'Fail' | 'Not configured' | 'Skipped';

export interface HealthResult {
  status: HealthStatus;
  /** The last part of stdout and stderr together (ANSI colours removed). */
  output: string;
  command: string[] | null;
  exitCode: number | null;
  timedOut: boolean;
  durationMs: number;
}

export type HealthReport = Record<HealthLabel, HealthResult>;

export interface HealthOptions {
  timeoutMs?: number;
  maxOutputBytes?: number;
  /** Stops the running check (its process group is killed) and the ones after it: runHealthChecks throws `cancelled`. */
  signal?: AbortSignal;
  /** Called before each configured check runs (the editor shows it as progress). */
  onProgress?: (label: HealthLabel, index: number, total: number) => void;
  /** When set, no command runs and every configured check is `Skipped` with this reason (an untrusted workspace). */
  skipReason?: string;
  /** Which checks may run (default: all three); a configured check left out is `Skipped` with `omittedReason`. */
  checks?: readonly HealthKey[];
  omittedReason?: string;
}

export const DEFAULT_HEALTH_TIMEOUT_MS = 5 * 60_000;
const DEFAULT_MAX_OUTPUT = 64 * 1024;

const notConfigured = (): HealthResult => ({
  status: 'Not configured',
  output: '',
  command: null,
  exitCode: null,
  timedOut: false,
  durationMs: 0,
});

export function stripAnsi(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\u001b\[[0-9;?]*[ -/]*[@-~]/g, '').replace(/\u001b\][^\u0007]*\u0007/g, '');
}

export function runCommand(cwd: string, argv: string[], options: HealthOptions = {}): Promise<HealthResult> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_HEALTH_TIMEOUT_MS;
  const maxOutput = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT;
  const started = Date.now();
  return new Promise((resolve) => {
    let output = '';
    let timedOut = false;
    let settled = false;
    const append = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      if (output.length > 2 * maxOutput) output = output.slice(-maxOutput);
    };
    const finish = (exitCode: number | null, extra = '') => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      const text = stripAnsi(output.slice(-maxOutput) + extra);
      resolve({
        status: exitCode === 0 && !timedOut ? 'Pass' : 'Fail',
        output: text,
        command: argv,
        exitCode,
        timedOut,
        durationMs: Date.now() - started,
      });
    };
    // detached: the check gets its own process group, so a time-out kills what it started too (npm → node → ...).
    const child = childProcess().spawn(argv[0], argv.slice(1), {
      cwd,
      shell: false,
      windowsHide: true,
      detached: process.platform !== 'win32',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const kill = () => {
      try {
        if (child.pid && process.platform !== 'win32') process.kill(-child.pid, 'SIGKILL');
        else child.kill('SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      kill();
    }, timeoutMs);
    options.signal?.addEventListener('abort', kill, { once: true });
    child.stdout.on('data', append);
    child.stderr.on('data', append);
    child.on('error', (e: NodeJS.ErrnoException) => {
      const hint =
        process.platform === 'win32' ? ' On Windows a .cmd shim (npm, npx) needs the array form ["cmd", "/c", "npm", "test"].' : '';
      finish(
        null,
        `could not start ${argv[0]}: ${e.code ?? e.message}. Check the command in .agentsync.json (it runs without a shell).${hint}`,
      );
    });
    child.on('close', (code) => finish(code, timedOut ? `\n[timed out after ${timeoutMs} ms and was stopped]` : ''));
  });
}

/** Runs each configured check in 0.3's order. A command that cannot even be parsed is a failed check, not an error. */
export async function runHealthChecks(
  cwd: string,
  commands: Partial<Record<'build' | 'test' | 'deploy', string | readonly string[]>>,
  options: HealthOptions = {},
): Promise<HealthReport> {
  const report = {} as HealthReport;
  const configured = HEALTH_CHECKS.filter(
    ({ key }) => commands[key] !== undefined && (!options.checks || options.checks.includes(key)),
  ).length;
  let index = 0;
  for (const { label, key } of HEALTH_CHECKS) {
    if (options.signal?.aborted)
      throw new ActionError('cancelled', 'The health checks were cancelled; nothing was changed. Run the action again when you are ready.');
    if (options.skipReason !== undefined) {
      report[label] = commands[key] === undefined ? notConfigured() : { ...notConfigured(), status: 'Skipped', output: options.skipReason };
      continue;
    }
    if (options.checks && !options.checks.includes(key)) {
      report[label] =
        commands[key] === undefined
          ? notConfigured()
          : { ...notConfigured(), status: 'Skipped', output: options.omittedReason ?? 'not run' };
      continue;
    }
    let argv: string[] | null;
    try {
      argv = commandArgv(commands[key]);
    } catch (e) {
      report[label] = { ...notConfigured(), status: 'Fail', output: isActionError(e) ? e.message : String(e) };
      continue;
    }
    if (argv) options.onProgress?.(label, index++, configured);
    report[label] = argv ? await runCommand(cwd, argv, options) : notConfigured();
  }
  if (options.signal?.aborted)
    throw new ActionError('cancelled', 'The health checks were cancelled; nothing was changed. Run the action again when you are ready.');
  return report;
}
