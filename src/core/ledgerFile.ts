// The request ledger (.agentsync/ledger.jsonl, runtime only): request_id → hash of the request and its response,
// so the same request_id is answered again instead of applied twice, from any process.
import * as fs from 'node:fs';
import { appendLines } from './atomicFile';
import type { LedgerEntry } from './storeTransaction';

export class LedgerFile {
  private readonly entries = new Map<string, LedgerEntry>();
  private offset = 0;
  private ino = -1;

  constructor(private readonly file: string) {}

  /** Reads only what other processes appended since the last call. Call inside the store lock. */
  index(): ReadonlyMap<string, LedgerEntry> {
    let st: fs.Stats;
    try {
      st = fs.lstatSync(this.file);
    } catch {
      this.entries.clear();
      this.offset = 0;
      return this.entries;
    }
    if (!st.isFile()) return this.entries;
    if (st.ino !== this.ino || st.size < this.offset) {
      this.entries.clear();
      this.offset = 0;
      this.ino = st.ino;
    }
    if (st.size > this.offset) {
      const fd = fs.openSync(this.file, 'r');
      try {
        const buf = Buffer.alloc(st.size - this.offset);
        fs.readSync(fd, buf, 0, buf.length, this.offset);
        const text = buf.toString('utf8');
        const lastNewline = text.lastIndexOf('\n');
        if (lastNewline >= 0) {
          for (const line of text.slice(0, lastNewline).split('\n')) this.add(line);
          this.offset += Buffer.byteLength(text.slice(0, lastNewline + 1));
        }
      } finally {
        fs.closeSync(fd);
      }
    }
    return this.entries;
  }

  private add(line: string): void {
    if (!line) return;
    try {
      const e = JSON.parse(line) as LedgerEntry;
      if (e && typeof e.request_id === 'string' && typeof e.hash === 'string') this.entries.set(e.request_id, e);
    } catch {
      // A line torn by a crash is skipped; the store's own request markers cover what it recorded.
    }
  }

  append(entries: readonly LedgerEntry[]): void {
    if (entries.length === 0) return;
    // A leading newline seals off a line torn by a crash, so the next entry still parses.
    const text = (this.tornTail() ? '\n' : '') + entries.map((e) => JSON.stringify(e)).join('\n') + '\n';
    appendLines(this.file, text, true);
    for (const e of entries) this.entries.set(e.request_id, e);
    try {
      const st = fs.lstatSync(this.file);
      this.ino = st.ino;
      this.offset = st.size;
    } catch {
      /* next index() starts over */
    }
  }

  private tornTail(): boolean {
    try {
      return fs.statSync(this.file).size !== this.offset;
    } catch {
      return false;
    }
  }
}
