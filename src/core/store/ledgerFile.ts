// The request ledger (.agentsync/ledger.jsonl, runtime only): request_id → hash of the request and its response,
// so the same request_id is answered again instead of applied twice, from any process.
import * as fs from 'node:fs';
import { appendLines } from '../disk/atomicFile';
import type { LedgerEntry } from './storeTransaction';

/** Past this size the ledger is rotated to ledger.prev.jsonl; ids stay answerable for two generations. */
export const LEDGER_ROTATE_BYTES = 16 * 1024 * 1024;

export class LedgerFile {
  private readonly entries = new Map<string, LedgerEntry>();
  private offset = 0;
  private ino = -1;
  private readonly previous: string;

  constructor(private readonly file: string) {
    this.previous = file.replace(/\.jsonl$/, '.prev.jsonl');
  }

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
      this.readWhole(this.previous);
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

  private readWhole(file: string): void {
    try {
      if (!fs.lstatSync(file).isFile()) return;
      for (const line of fs.readFileSync(file, 'utf8').split('\n')) this.add(line);
    } catch {
      /* no previous generation */
    }
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
    if (this.offset > LEDGER_ROTATE_BYTES) {
      fs.renameSync(this.file, this.previous);
      this.offset = 0;
    }
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
