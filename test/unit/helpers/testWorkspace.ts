// A real workspace in a temp folder with a real HandoffStore and RequestDispatcher, plus readers for
// what the core writes (store bytes, audit lines, derived files), so tests assert on disk, not on mocks.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { HandoffStore } from '../../../src/core/store/handoffStore';
import { RequestDispatcher, type RequestResponse } from '../../../src/core/requests/requestDispatcher';
import { WorkspaceLayout } from '../../../src/core/workspace/workspaceLayout';
import type { AuditEntry } from '../../../src/core/store/auditLog';
import type { Handoff } from '../../../src/core/domain/handoffSchema';

const created: string[] = [];

/** A fresh empty folder under the OS temp dir; removed by removeTempDirs(). */
export function makeTempDir(prefix = 'agentsync-unit-'): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  created.push(dir);
  return dir;
}

export function removeTempDirs(): void {
  while (created.length) fs.rmSync(created.pop()!, { recursive: true, force: true });
}

/** A clock the store reads: fixed until a test moves it, so timestamps in records are predictable. */
export class TestClock {
  private current: number;
  constructor(iso = '2026-03-10T12:00:00.000Z') {
    this.current = Date.parse(iso);
  }
  readonly now = (): Date => new Date(this.current);
  iso(): string {
    return new Date(this.current).toISOString();
  }
  advance(ms = 1_000): string {
    this.current += ms;
    return this.iso();
  }
}

export class TestWorkspace {
  readonly root: string;
  readonly layout: WorkspaceLayout;
  readonly clock: TestClock;
  readonly warnings: string[] = [];
  store: HandoffStore;
  dispatcher: RequestDispatcher;

  constructor(options: { config?: unknown; handoffs?: Handoff[]; lockTimeoutMs?: number; now?: string } = {}) {
    this.root = makeTempDir();
    this.layout = new WorkspaceLayout(this.root);
    this.clock = new TestClock(options.now);
    fs.mkdirSync(this.layout.dataDir, { recursive: true });
    if (options.config !== undefined) this.writeConfig(options.config);
    if (options.handoffs) this.writeHandoffs(options.handoffs);
    this.store = this.newStore(options.lockTimeoutMs);
    this.dispatcher = new RequestDispatcher(this.store, 'test');
  }

  /** Another store + dispatcher on the same folder: what a second window or process would have. */
  newStore(lockTimeoutMs?: number): HandoffStore {
    return new HandoffStore(this.layout, {
      now: this.clock.now,
      lockTimeoutMs,
      logger: { info: () => undefined, warn: (m) => this.warnings.push(m) },
    });
  }

  secondDispatcher(): RequestDispatcher {
    return new RequestDispatcher(this.newStore(), 'second');
  }

  writeConfig(config: unknown): void {
    fs.writeFileSync(this.layout.configFile, typeof config === 'string' ? config : JSON.stringify(config, null, 2));
  }

  writeHandoffs(handoffs: readonly Handoff[]): void {
    fs.writeFileSync(this.layout.handoffsFile, JSON.stringify({ version: 1, handoffs }, null, 2) + '\n');
  }

  dispatch(request: Record<string, unknown>): Promise<RequestResponse> {
    return this.dispatcher.dispatch(request);
  }

  /** codex → alice (created), then alice passes it to audit for a code review; throws when either is refused. */
  async passedToAudit(): Promise<{ work: Handoff; passed: Handoff }> {
    const made = await this.dispatch({
      action: 'createHandoff',
      handoff: { from_agent: 'codex', owner_mode: 'single', to_agents: ['alice'], summary: 'Fix the login race' },
    });
    if (!made.ok) throw new Error(`createHandoff refused: ${JSON.stringify(made)}`);
    const work = made.data!.handoff as Handoff;
    const p = await this.dispatch({
      action: 'passOver',
      agent: 'alice',
      to: 'audit',
      reason: 'code_review',
      summary: 'Review it',
      handoffId: work.handoff_id,
    });
    if (!p.ok) throw new Error(`passOver refused: ${JSON.stringify(p)}`);
    return { work, passed: p.data!.handoff as Handoff };
  }

  storeBytes(): Buffer {
    return fs.readFileSync(this.layout.handoffsFile);
  }

  storedHandoffs(): Handoff[] {
    return (JSON.parse(fs.readFileSync(this.layout.handoffsFile, 'utf8')) as { handoffs: Handoff[] }).handoffs;
  }

  stored(id: string): Handoff {
    const h = this.storedHandoffs().find((x) => x.handoff_id === id);
    if (!h) throw new Error(`no stored handoff ${id}`);
    return h;
  }

  /** Every audit line of every month file, in file order. */
  auditEntries(): AuditEntry[] {
    if (!fs.existsSync(this.layout.auditDir)) return [];
    return fs
      .readdirSync(this.layout.auditDir)
      .filter((n) => n.endsWith('.jsonl'))
      .sort()
      .flatMap((n) =>
        fs
          .readFileSync(path.join(this.layout.auditDir, n), 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as AuditEntry),
      );
  }

  auditFor(requestId: string): AuditEntry[] {
    return this.auditEntries().filter((e) => e.request_id === requestId);
  }

  readText(file: string): string | null {
    try {
      return fs.readFileSync(file, 'utf8');
    } catch {
      return null;
    }
  }

  stateJson(): Record<string, unknown> {
    return JSON.parse(fs.readFileSync(this.layout.stateFile, 'utf8')) as Record<string, unknown>;
  }
}

let counter = 0;
/** A request id unique within the run, readable in failure output. */
export function rid(label = 'req'): string {
  return `${label}-${process.pid}-${++counter}`;
}
