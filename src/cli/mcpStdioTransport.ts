// The MCP server's stdio transport. The SDK's StdioServerTransport buffers without a per-message cap (a 9 MB
// argument reached the store), and past 10 MiB it closes itself, so `agentsync mcp` exited 0 in silence; a
// client that went away made the next stdout write crash the process with EPIPE. This one reads line by line,
// refuses a message over the cap with a JSON-RPC error without keeping it in memory, and keeps serving; a
// closed stdout ends the server cleanly (docs/agentsync-documentation.md, "agentsync mcp").
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { MAX_REQUEST_BYTES } from '../core/requests/requestDispatcher';

/** One MCP message (one line of JSON-RPC) may be as large as one request file: 1 MiB. */
export const MAX_MCP_MESSAGE_BYTES = MAX_REQUEST_BYTES;
/** Bytes kept from each end of an over-size message, to find its JSON-RPC id without keeping the rest. */
const EDGE = 256;

/** The JSON-RPC id of a message seen only by its first and last bytes, when it is written the usual ways. */
export function idFromEdges(head: string, tail: string): string | number | undefined {
  const value = String.raw`(-?\d{1,15}|"(?:[^"\\]|\\.){0,200}")`;
  const atStart = new RegExp(String.raw`^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*${value}`).exec(head);
  const atEnd = new RegExp(String.raw`[,{]\s*"id"\s*:\s*${value}\s*\}\s*$`).exec(tail);
  const raw = atStart?.[1] ?? atEnd?.[1];
  return raw === undefined ? undefined : (JSON.parse(raw) as string | number);
}

export class CappedStdioServerTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** Resolves with why the conversation ended: stdin closed, or stdout broke (the client went away). */
  readonly ended: Promise<string>;
  private endWith!: (why: string) => void;
  private parts: Buffer[] = [];
  private size = 0;
  private oversize: { head: Buffer; tail: Buffer } | null = null;
  private writable = true;

  constructor(
    private readonly stdin: NodeJS.ReadableStream = process.stdin,
    private readonly stdout: NodeJS.WritableStream = process.stdout,
    readonly maxMessageBytes = MAX_MCP_MESSAGE_BYTES,
    private readonly warn: (message: string) => void = () => undefined,
  ) {
    this.ended = new Promise((resolve) => (this.endWith = resolve));
  }

  start(): Promise<void> {
    this.stdin.on('data', this.onData);
    this.stdin.on('error', this.onStdinError);
    this.stdin.once('end', this.onStdinEnd);
    this.stdin.once('close', this.onStdinEnd);
    this.stdout.on('error', this.onStdoutError);
    return Promise.resolve();
  }

  private readonly onStdinEnd = () => this.endWith('stdin closed');
  private readonly onStdinError = (e: Error) => this.onerror?.(e);

  private readonly onStdoutError = (e: NodeJS.ErrnoException) => {
    // EPIPE and friends: nobody reads our answers any more. Stop writing and end, instead of crashing.
    this.writable = false;
    this.endWith(`the client closed its end (stdout: ${e.code ?? e.message})`);
  };

  private readonly onData = (chunk: Buffer | string) => {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    let start = 0;
    while (start < buf.length) {
      const nl = buf.indexOf(10, start);
      this.take(buf.subarray(start, nl === -1 ? buf.length : nl));
      if (nl === -1) break;
      this.endOfLine();
      start = nl + 1;
    }
  };

  private take(part: Buffer): void {
    if (part.length === 0) return;
    this.size += part.length;
    if (this.oversize) {
      this.oversize.tail = lastBytes([this.oversize.tail, part]);
    } else if (this.size > this.maxMessageBytes) {
      // Over the cap: keep only its two ends (for the id) and drop the rest as it arrives.
      const all = [...this.parts, part];
      this.oversize = { head: Buffer.concat(all).subarray(0, EDGE), tail: lastBytes(all) };
      this.parts = [];
    } else {
      this.parts.push(part);
    }
  }

  private endOfLine(): void {
    const size = this.size;
    const oversize = this.oversize;
    const line = oversize ? '' : Buffer.concat(this.parts).toString('utf8').replace(/\r$/, '');
    this.parts = [];
    this.size = 0;
    this.oversize = null;
    if (oversize) return this.refuseOversize(size, oversize);
    if (line.trim() === '') return;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch (e) {
      this.warn(`a message that is not JSON was refused (${(e as Error).message})`);
      const why = `Parse error: the message is not valid JSON (${(e as Error).message}). Send one JSON-RPC message per line.`;
      return void this.sendError(undefined, -32700, why);
    }
    const parsed = JSONRPCMessageSchema.safeParse(json);
    if (!parsed.success) {
      this.onerror?.(new Error(`not a JSON-RPC message: ${parsed.error.message}`));
      const id = (json as { id?: unknown } | null)?.id;
      const known = typeof id === 'string' || typeof id === 'number' ? id : undefined;
      return void this.sendError(known, -32600, 'Invalid Request: the message is not a JSON-RPC 2.0 message.');
    }
    this.onmessage?.(parsed.data);
  }

  private refuseOversize(size: number, edges: { head: Buffer; tail: Buffer }): void {
    const id = idFromEdges(edges.head.toString('utf8'), edges.tail.toString('utf8'));
    const message =
      `The message is ${size} bytes, over the ${this.maxMessageBytes}-byte limit for one MCP message (the same limit as a request file); ` +
      'it was not read and nothing was changed. Send less: large text belongs in files the handoff names.';
    const which = id === undefined ? '' : ` (id ${JSON.stringify(id)})`;
    this.warn(`refused a ${size}-byte message${which}: over the ${this.maxMessageBytes}-byte limit`);
    void this.sendError(id, -32600, message, { reason: 'too_large', size, limit: this.maxMessageBytes });
  }

  private sendError(id: string | number | undefined, code: number, message: string, data?: Record<string, unknown>): Promise<void> {
    const error = { code, message, ...(data ? { data } : {}) };
    return this.send({ jsonrpc: '2.0', ...(id === undefined ? {} : { id }), error });
  }

  send(message: JSONRPCMessage): Promise<void> {
    if (!this.writable) return Promise.resolve(); // the client is gone; its answers have nowhere to go
    return new Promise((resolve) => {
      const flushed = this.stdout.write(JSON.stringify(message) + '\n', () => resolve());
      if (!flushed) this.stdout.once('drain', () => resolve());
    });
  }

  close(): Promise<void> {
    this.stdin.off('data', this.onData);
    this.stdin.off('error', this.onStdinError);
    this.stdin.off('end', this.onStdinEnd);
    this.stdin.off('close', this.onStdinEnd);
    this.stdin.pause();
    this.parts = [];
    this.onclose?.();
    return Promise.resolve();
  }
}

function lastBytes(parts: Buffer[]): Buffer {
  const out: Buffer[] = [];
  let n = 0;
  for (let i = parts.length - 1; i >= 0 && n < EDGE; i--) {
    out.unshift(parts[i].subarray(Math.max(0, parts[i].length - (EDGE - n))));
    n += out[0].length;
  }
  return Buffer.concat(out);
}
