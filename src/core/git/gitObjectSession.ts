// One `git cat-file --batch` kept open for a conversation (docs/contract.md §13, "a write costs what the change
// costs"): a shared-state read walks a tree level by level, asking only for the objects the level before named, so
// the whole read is one git process however many round trips it takes. The same safe options as every other git
// (gitSafety.ts); objects only, no working-tree file, no fetch (a missing object is answered missing).
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { childProcess } from '../disk/childProcess';
import { SAFE_GIT_OPTIONS } from './gitSafety';
import { noteGitProcess } from './gitProcessLog';

export interface GitObject {
  oid: string;
  type: string;
  data: Buffer;
}

/** Thrown when an object is larger than the session's cap: its bytes are never read. */
export class ObjectTooLarge extends Error {
  constructor(
    readonly name_: string,
    readonly size: number,
    readonly max: number,
  ) {
    super(`${name_} is ${size} bytes, over the ${max}-byte limit`);
  }
}

type Waiter = { max: number; name: string; resolve: (o: GitObject | null) => void; reject: (e: Error) => void };

export class GitObjectSession {
  private child: ChildProcessWithoutNullStreams | null = null;
  private buffer: Buffer = Buffer.alloc(0);
  private pending: Buffer[] = [];
  private pendingLength = 0;
  /** How many more bytes the object being read needs before it is worth joining the chunks. */
  private need = 0;
  private readonly waiting: Waiter[] = [];
  private failed: Error | null = null;

  /** `gitDir`: another repository than the one `root` is in (git's --git-dir), e.g. the sync mode's own. */
  constructor(
    private readonly root: string,
    private readonly gitDir?: string,
  ) {}

  /** The objects `names` name (`<oid>`, `<rev>:<path>`, a ref), in order; null for one that is missing. */
  async get(names: readonly string[], max = 64 * 1024 * 1024): Promise<(GitObject | null)[]> {
    if (names.length === 0) return [];
    for (const n of names) if (/[\n]/.test(n)) throw new Error(`not an object name: ${JSON.stringify(n)}`);
    const child = this.start();
    const answers = names.map(
      (name) => new Promise<GitObject | null>((resolve, reject) => this.waiting.push({ max, name, resolve, reject })),
    );
    this.hold(true);
    child.stdin.write(names.join('\n') + '\n');
    try {
      return await Promise.all(answers);
    } finally {
      if (this.waiting.length === 0) this.hold(false);
    }
  }

  /** Ends the git process (idempotent). */
  close(): void {
    const child = this.child;
    this.child = null;
    if (!child) return;
    child.stdin.end();
    // A git still writing an object nobody reads (one refused as too large) would block on the pipe: ended here.
    child.stdout.destroy();
    child.kill('SIGKILL');
    this.fail(new Error('the object session was closed'));
  }

  /**
   * An idle session does not keep the process alive (a batch that failed before closing it must not hang a CLI):
   * its git and pipes are referenced only while an answer is awaited.
   */
  private hold(on: boolean): void {
    const c = this.child;
    if (!c) return;
    for (const h of [c, c.stdin, c.stdout, c.stderr] as { ref(): void; unref(): void }[]) {
      if (on) h.ref();
      else h.unref();
    }
  }

  private start(): ChildProcessWithoutNullStreams {
    if (this.failed) throw this.failed;
    if (this.child) return this.child;
    const args = ['cat-file', '--batch'];
    noteGitProcess(args);
    const repo = this.gitDir ? [`--git-dir=${this.gitDir}`] : [];
    const child = childProcess().spawn('git', [...SAFE_GIT_OPTIONS, '-C', this.root, ...repo, ...args], {
      env: { ...process.env, GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C' },
      stdio: ['pipe', 'pipe', 'pipe'],
      windowsHide: true,
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.stdout.on('data', (d: Buffer) => this.take(d));
    child.stdin.on('error', () => undefined); // a git that exited early: its close event says why
    child.on('error', (e) => this.fail(new Error(`cannot run git (${e.message}); install git`)));
    child.on('close', (status) => this.fail(new Error(`git cat-file --batch ended (${status}): ${stderr.trim()}`)));
    this.child = child;
    return child;
  }

  private fail(e: Error): void {
    this.failed ??= e;
    for (const w of this.waiting.splice(0)) w.reject(e);
  }

  /** Parses "<oid> <type> <size>\n<bytes>\n" or "<name> missing\n" answers off the stream, in order. */
  private take(d: Buffer): void {
    if (!this.child) return; // closed: what is still coming is nobody's
    this.pending.push(d);
    this.pendingLength += d.length;
    // An object's bytes arrive in many chunks: joined once they are all here, not once per chunk.
    if (this.pendingLength < this.need) return;
    this.buffer = Buffer.concat([this.buffer, ...this.pending]);
    this.pending = [];
    this.pendingLength = 0;
    this.need = 0;
    for (;;) {
      const w = this.waiting[0];
      if (!w) return;
      const nl = this.buffer.indexOf(10);
      if (nl < 0) return;
      const header = this.buffer.subarray(0, nl).toString('utf8');
      const m = /^([0-9a-f]{40,64}) (\S+) (\d+)$/.exec(header);
      if (!m) {
        // "<name> missing" or "<name> ambiguous": no such object
        this.buffer = this.buffer.subarray(nl + 1);
        this.waiting.shift();
        w.resolve(null);
        continue;
      }
      const size = Number(m[3]);
      if (size > w.max) {
        this.waiting.shift();
        w.reject(new ObjectTooLarge(w.name, size, w.max));
        this.close(); // the rest of the stream is that object: not read
        return;
      }
      const end = nl + 1 + size + 1;
      if (this.buffer.length < end) {
        this.need = end - this.buffer.length;
        return;
      }
      const data = Buffer.from(this.buffer.subarray(nl + 1, nl + 1 + size));
      this.buffer = this.buffer.subarray(end);
      this.waiting.shift();
      w.resolve({ oid: m[1], type: m[2], data });
    }
  }
}

/** A raw tree's entries: "<mode> <name>\0<binary id>" each; `hashBytes`: the length of a binary object id. */
export function treeEntries(tree: Buffer, hashBytes: number): { mode: string; name: string; oid: string }[] {
  const out: { mode: string; name: string; oid: string }[] = [];
  for (let at = 0; at < tree.length;) {
    const nul = tree.indexOf(0, at);
    if (nul < 0) break;
    const entry = tree.subarray(at, nul).toString('utf8');
    const space = entry.indexOf(' ');
    out.push({
      mode: entry.slice(0, space),
      name: entry.slice(space + 1),
      oid: tree.subarray(nul + 1, nul + 1 + hashBytes).toString('hex'),
    });
    at = nul + 1 + hashBytes;
  }
  return out;
}
