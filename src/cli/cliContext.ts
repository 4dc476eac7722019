// What every verb gets: the workspace, the dispatcher, how to print, and a usage error type (exit 2).
import * as fs from 'node:fs';
import { HandoffStore } from '../core/store/handoffStore';
import { StoreReader } from '../core/store/storeReader';
import { otherWorktreeCopies } from '../core/store/worktreeCopies';
import { RequestDispatcher, type RequestResponse } from '../core/requests/requestDispatcher';
import { processCaller } from '../core/requests/requestSession';
import { WorkspaceLayout } from '../core/workspace/workspaceLayout';
import { safeWrite as write } from './safeOutput';
import { testClock } from './testClock';
import { terminalSafe, oneLine } from './terminalText';
import { withdrawalText, type WithdrawalNotice } from '../core/hooks/withdrawNotices';

export { outputFailed } from './safeOutput';

export class UsageError extends Error {}

export interface CliIo {
  out(text: string): void;
  err(text: string): void;
  readStdin(): Promise<string>;
}

export const processIo: CliIo = {
  // Every line printed passes terminalSafe: agent text can never send control sequences to the terminal.
  out: (t) => write(process.stdout, terminalSafe(t.endsWith('\n') ? t : t + '\n')),
  err: (t) => write(process.stderr, terminalSafe(t.endsWith('\n') ? t : t + '\n')),
  readStdin: async () => {
    const chunks: Buffer[] = [];
    for await (const c of process.stdin) chunks.push(c as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  },
};

/**
 * An offline-local write (docs/contract.md §13) is this clone's only until the remote confirms it: its text says so,
 * never a plain "claimed" (under --json, data.sync.confirmed is false).
 */
function provisionalLine(response: RequestResponse): string {
  const sync = (response.data as { sync?: { confirmed?: unknown; pending?: unknown } } | undefined)?.sync;
  if (!sync || sync.confirmed !== false || sync.pending !== true) return '';
  return (
    '\nprovisional: made offline (sync offline "local"); the remote has not confirmed it and may revoke it. ' +
    '`agentsync sync` confirms it or says it was revoked.'
  );
}

/** A withdrawn pass the answer tells its receiver (docs/contract.md §6, "Withdraw"), for stderr; '' when none. */
function withdrawnLines(response: RequestResponse): string {
  const told = (response.data as { withdrawn?: WithdrawalNotice[] } | undefined)?.withdrawn;
  return Array.isArray(told) && told.length ? withdrawalText(told) : '';
}

export class CliContext {
  readonly layout: WorkspaceLayout;
  /** The state as this clone holds it, read without the dispatcher (src/core/store/storeReader.ts). */
  readonly storeReader: StoreReader;
  private dispatcherInstance: RequestDispatcher | null = null;

  constructor(
    dir: string,
    readonly json: boolean,
    readonly io: CliIo,
    /** --fresh: with sync set, reads fetch the shared state first. */
    private readonly fresh = false,
    /** --request-id: the request_id of the command's write (docs/contract.md §8). */
    private readonly requestId?: string,
  ) {
    if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) throw new UsageError(`--dir ${dir} is not a folder`);
    this.layout = new WorkspaceLayout(dir);
    this.storeReader = new StoreReader(this.layout);
  }

  get dispatcher(): RequestDispatcher {
    if (!this.dispatcherInstance) {
      const store = new HandoffStore(this.layout, {
        logger: { info: () => undefined, warn: (m) => this.io.err(`agentsync: ${oneLine(m)}`) },
        // Upgrading (docs/contract.md §14): the first run names records only linked worktrees' own copies hold.
        seedNoticeExtras: (record) => otherWorktreeCopies(this.layout, record),
        now: testClock(process.env),
      });
      this.dispatcherInstance = new RequestDispatcher(
        store,
        'cli',
        this.fresh,
        processCaller(this.layout.root, process.env),
        this.requestId,
      );
    }
    return this.dispatcherInstance;
  }

  /** Prints a response: the envelope under --json, readable text otherwise. Returns the exit code. */
  report<R extends RequestResponse>(response: R, human: (r: R) => string): number {
    if (this.json) this.io.out(JSON.stringify(response));
    else if (response.ok) {
      const withdrawn = withdrawnLines(response);
      if (withdrawn) this.io.err(withdrawn);
      const text = human(response);
      const note = provisionalLine(response);
      // --quiet prints a bare id for a script to capture: the note goes to stderr there.
      if (note && !/\s/.test(text.trim())) this.io.err(`agentsync: ${note.trim()}`);
      this.io.out(/\s/.test(text.trim()) ? text + note : text);
    }
    // One line: a message may quote agent text (an id, a file name) with a newline in it.
    else this.io.err(`agentsync: ${response.reason}: ${oneLine(response.message ?? '')}`);
    return response.ok ? 0 : 1;
  }
}
