// What every verb gets: the workspace, the dispatcher, how to print, and a usage error type (exit 2).
import * as fs from 'node:fs';
import { HandoffStore } from '../core/store/handoffStore';
import { RequestDispatcher, type RequestResponse } from '../core/requests/requestDispatcher';
import { WorkspaceLayout } from '../core/workspace/workspaceLayout';
import { terminalSafe } from './terminalText';

export class UsageError extends Error {}

export interface CliIo {
  out(text: string): void;
  err(text: string): void;
  readStdin(): Promise<string>;
}

export const processIo: CliIo = {
  // Every line printed passes terminalSafe: agent text can never send control sequences to the terminal.
  out: (t) => process.stdout.write(terminalSafe(t.endsWith('\n') ? t : t + '\n')),
  err: (t) => process.stderr.write(terminalSafe(t.endsWith('\n') ? t : t + '\n')),
  readStdin: async () => {
    const chunks: Buffer[] = [];
    for await (const c of process.stdin) chunks.push(c as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  },
};

export class CliContext {
  readonly layout: WorkspaceLayout;
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
  }

  get dispatcher(): RequestDispatcher {
    if (!this.dispatcherInstance) {
      const store = new HandoffStore(this.layout, { logger: { info: () => undefined, warn: (m) => this.io.err(`agentsync: ${m}`) } });
      this.dispatcherInstance = new RequestDispatcher(store, 'cli', this.fresh);
    }
    return this.dispatcherInstance;
  }

  /** Prints a response: the envelope under --json, readable text otherwise. Returns the exit code. */
  report(response: RequestResponse, human: (r: RequestResponse) => string): number {
    if (this.json) this.io.out(JSON.stringify(response));
    else if (response.ok) this.io.out(human(response));
    else this.io.err(`agentsync: ${response.reason}: ${response.message}`);
    return response.ok ? 0 : 1;
  }
}
