// The work context a pass may carry (docs/contract.md §6, "The work context"): the files, the conversation and the tool
// results the passer had. Stored beside the record (requests/actions/passContext.ts), never inside it, and shown to
// the receiver as data written by another agent, never as instructions.
import * as z from 'zod';
import { delegationError } from './delegationErrors';
import { isoTimeSchema, LIMITS } from './handoffSchema';
import { workspaceRelativePath } from './workspacePath';

export const CONTEXT_LIMITS = { messages: 20, toolResults: 20, defaultBytes: 256 * 1024 } as const;

const text = z.string().max(256 * 1024);
/** Loose bounds for the shape; the counts and the size the protocol sets are checked by checkContext (E012). */
export const workContextSchema = z.strictObject({
  files: z
    .array(
      z.strictObject({
        path: workspaceRelativePath,
        size_bytes: z.number().int().nonnegative().optional(),
        last_modified: isoTimeSchema.optional(),
        is_binary: z.boolean().optional(),
      }),
    )
    .max(LIMITS.files)
    .default([]),
  messages: z
    .array(z.strictObject({ role: z.string().min(1).max(32), agent: z.string().max(64).optional(), text, at: isoTimeSchema.optional() }))
    .max(1_000)
    .default([]),
  tool_results: z
    .array(
      z.strictObject({
        tool: z.string().min(1).max(200),
        status: z.string().min(1).max(32),
        input: z.unknown().optional(),
        output: z.unknown().optional(),
        error: z.unknown().optional(),
      }),
    )
    .max(1_000)
    .default([]),
});

export type WorkContext = z.infer<typeof workContextSchema>;

/** E012 CONTEXT_OVERFLOW when the context holds more than 20 messages or tool results, or more bytes than allowed. */
export function checkContext(context: WorkContext, maxBytes: number = CONTEXT_LIMITS.defaultBytes): void {
  for (const [field, count, limit] of [
    ['context.messages', context.messages.length, CONTEXT_LIMITS.messages],
    ['context.tool_results', context.tool_results.length, CONTEXT_LIMITS.toolResults],
  ] as const) {
    if (count > limit)
      throw delegationError(
        'CONTEXT_OVERFLOW',
        `${field} holds ${count} entries; the limit is ${limit}. Keep the latest ${limit}. Nothing was changed.`,
        {
          field,
          count,
          limit,
        },
      );
  }
  const bytes = Buffer.byteLength(JSON.stringify(context));
  if (bytes > maxBytes)
    throw delegationError(
      'CONTEXT_OVERFLOW',
      `context is ${bytes} bytes as JSON, over max_context_size_bytes (${maxBytes}). Leave out file contents and long outputs ` +
        '(the receiver can read the files). Nothing was changed.',
      { field: 'context', bytes, limit: maxBytes },
    );
}

/** One line per part, for a briefing or `show`: counts, then the files and the latest messages, shortened. */
export function contextSummary(context: WorkContext): string[] {
  const lines = [`${context.files.length} file(s), ${context.messages.length} message(s), ${context.tool_results.length} tool result(s)`];
  if (context.files.length)
    lines.push(
      `files: ${context.files
        .slice(0, 10)
        .map((f) => f.path)
        .join(', ')}${context.files.length > 10 ? ', …' : ''}`,
    );
  for (const m of context.messages.slice(-3)) lines.push(`${m.role}${m.agent ? ` (${m.agent})` : ''}: ${m.text.slice(0, 200)}`);
  for (const t of context.tool_results.slice(-3)) lines.push(`tool ${t.tool}: ${t.status}`);
  return lines;
}
