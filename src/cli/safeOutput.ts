// Output that survives its reader (docs/agentsync-documentation.md, "CLI"): Node built-ins only, so the tool hooks'
// small bundle (dist/hook.js) writes its answers through the same rule as the CLI.
import * as fs from 'node:fs';
import { oneLine } from './terminalText';

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
  if (stream !== process.stderr) safeWrite(process.stderr, `agentsync: could not write the output: ${oneLine(e.message)}\n`);
}

/** Writes to stdout or stderr under the rule above (the CLI's every line, and the tool hooks' answers). */
export function safeWrite(stream: NodeJS.WriteStream, text: string | Buffer): void {
  if (closed.has(stream)) return;
  if (stream.listenerCount('error') === 0) stream.on('error', (e: NodeJS.ErrnoException) => onWriteError(stream, e));
  try {
    stream.write(text);
  } catch (e) {
    onWriteError(stream, e as NodeJS.ErrnoException);
  }
}

/**
 * Writes `text` to standard output by its file descriptor, under the same rule, for a process that prints once and
 * exits (a tool hook's answer): process.stdout's first use loads Node's streams, a cost paid around every tool call.
 * A descriptor that would block (a non-blocking pipe that is full) hands the rest to process.stdout.
 */
export function writeStdoutOnce(text: string): void {
  const bytes = Buffer.from(text, 'utf8');
  let at = 0;
  try {
    while (at < bytes.length) at += fs.writeSync(1, bytes, at);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EAGAIN') safeWrite(process.stdout, bytes.subarray(at));
    else onWriteError(process.stdout, e as NodeJS.ErrnoException);
  }
}
