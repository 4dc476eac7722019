// What every verb gets: the workspace, the dispatcher, how to print, and a usage error type (exit 2).
import * as fs from 'node:fs';
import { HandoffStore } from '../core/store/handoffStore';
import { StoreReader } from '../core/store/storeReader';
import { otherWorktreeCopies } from '../core/store/worktreeCopies';
import { RequestDispatcher, type RequestResponse } from '../core/requests/requestDispatcher';
import { processCaller } from '../core/requests/requestSession';
import { WorkspaceLayout } from '../core/workspace/workspaceLayout';
import { terminalSafe, oneLine } from './terminalText';

export class UsageError extends Error {}

export interface CliIo {
  out(text: string): void;
  err(text: string): void;
  readStdin(): Promise<string>;
}

/**
 * Streams whose reader went away (`agentsync list | head -1`): like other CLIs, AgentSync then stops writing to
 * them, quietly, instead of dying on an unhandled EPIPE with a stack trace; the command ends with its own exit code.
 * Any other write error (a full disk, a closed descriptor) loses output someone expected: it is said in one line on
 * stderr and the command exits 1 (outputFailed).
 */
const closed = new Set<NodeJS.WriteStream>();
let failed = false;

/** Whether printing failed for a reason other than the reader going away: the command must not exit 0. */
export function outputFailed(): boolean {
  return failed;
}

function onWriteError(stream: NodeJS.WriteStream, e: NodeJS.ErrnoException): void {
  if (closed.has(stream)) return;
  closed.add(stream);
  if (e.code === 'EPIPE') return;
  failed = true;
  process.exitCode = 1;
  if (stream !== process.stderr) write(process.stderr, `agentsync: could not write the output: ${oneLine(e.message)}\n`);
}

function write(stream: NodeJS.WriteStream, text: string): void {
  if (closed.has(stream)) return;
  if (stream.listenerCount('error') === 0) stream.on('error', (e: NodeJS.ErrnoException) => onWriteError(stream, e));
  try {
    stream.write(text);
  } catch (e) {
    onWriteError(stream, e as NodeJS.ErrnoException);
  }
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
      });
      this.dispatcherInstance = new RequestDispatcher(store, 'cli', this.fresh, processCaller(this.layout.root, process.env));
    }
    return this.dispatcherInstance;
  }

  /** Prints a response: the envelope under --json, readable text otherwise. Returns the exit code. */
  report<R extends RequestResponse>(response: R, human: (r: R) => string): number {
    if (this.json) this.io.out(JSON.stringify(response));
    else if (response.ok) this.io.out(human(response));
    // One line: a message may quote agent text (an id, a file name) with a newline in it.
    else this.io.err(`agentsync: ${response.reason}: ${oneLine(response.message ?? '')}`);
    return response.ok ? 0 : 1;
  }
}
