// The parameters of the request actions (docs/contract.md §8). Names are part of the contract. Each schema is built
// on first use and kept (lazy): a CLI verb builds only the schemas of the action it runs.
import * as z from 'zod';
import { normalizeAgentId } from '../domain/agentId';
import {
  agentIdSchema,
  capabilitySchema,
  completionResultSchema,
  LIMITS,
  ownerModeSchema,
  sessionIdSchema,
  statusSchema,
  STATUSES,
  todoSchema,
} from '../domain/handoffSchema';
import { phaseSchema, workRequestSchema } from '../domain/workRequest';
import { inputWorkspacePath } from '../domain/workspacePath';
import { passOverPolicySchema } from '../domain/configSchema';
import { workContextSchema } from '../domain/workContext';

/** `build()` on the first call, the same value after: how every schema here is made. */
export function lazy<T>(build: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= build());
}

/** Accepts `Codex`, stores `codex`. */
export const agentParam = lazy(() =>
  z
    .string()
    .max(64)
    .transform((s) => normalizeAgentId(s))
    .pipe(agentIdSchema),
);

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
export const requestIdSchema = lazy(() => z.string().regex(REQUEST_ID, 'request_id is 1-128 letters, digits, ".", "_", ":" or "-"'));

/** Fields every request may carry. */
export const envelope = lazy(() => ({
  action: z.string(),
  request_id: requestIdSchema().optional(),
  agent: agentParam().optional(),
  /** The agent's session id (docs/contract.md §4): which session of the agent acts; else its vendor's variable. */
  session: sessionIdSchema.optional(),
  /** In sync mode a read fetches the shared state first (docs/contract.md §13); elsewhere it changes nothing. */
  fresh: z.boolean().optional(),
}));

const handoffRef = lazy(() => ({
  handoffId: z.string().min(1).max(64).optional(),
  handoff_id: z.string().min(1).max(64).optional(),
}));

/**
 * The completion report as a request parameter. Its size limits (context_summary ≤ 500 tokens, findings ≤ 64 KiB) and
 * its fit to the handoff's phase are checked by the core (completionReport.ts), which answers them with E012 / E021.
 */
export const resultParam = lazy(() => completionResultSchema.extend({ context_summary: z.string() }));

export const expectedRev = lazy(() => ({ expected_rev: z.number().int().nonnegative().optional() }));

/** The parameters of an action on one handoff: the envelope, handoffId (or handoff_id, one of them required) and `shape`. */
export function withHandoffRef<T extends z.ZodRawShape>(shape: T) {
  return z.strictObject({ ...envelope(), ...handoffRef(), ...shape }).refine(
    (v) => {
      const r = v as { handoffId?: string; handoff_id?: string };
      return Boolean(r.handoffId ?? r.handoff_id);
    },
    { message: 'handoffId (or handoff_id) is required', path: ['handoffId'] },
  );
}

export const newHandoffSchema = lazy(() =>
  z.strictObject({
    from_agent: agentParam(),
    to_agents: z.array(agentParam()).max(10).optional(),
    owner_mode: ownerModeSchema,
    required_capabilities: z.array(capabilitySchema).max(LIMITS.capabilities).optional(),
    summary: z.string().trim().min(1, 'summary must not be empty').max(LIMITS.summary),
    notes: z.string().max(LIMITS.notes).optional(),
    files: z.array(inputWorkspacePath).max(LIMITS.files).optional(),
    task_id: z.string().max(LIMITS.shortText).nullable().optional(),
    branch: z.string().max(LIMITS.shortText).nullable().optional(),
    commit: z.string().max(LIMITS.shortText).nullable().optional(),
    no_handoff_reason: z.string().max(LIMITS.reason).nullable().optional(),
    priority: z.enum(['low', 'medium', 'high']).nullable().optional(),
    phase: phaseSchema.nullable().optional(),
    request: workRequestSchema.optional(),
  }),
);

/** endSession's handoff: createHandoff's object, where from_agent defaults to the ending agent and files to the hot files. */
const endSessionHandoffSchema = () => newHandoffSchema().extend({ from_agent: agentParam().optional() });

/** Each action's parameter schema, built by the action's catalog entry on first use (catalog/). */
export const paramSchemas = {
  createHandoff: () => z.strictObject({ ...envelope(), handoff: newHandoffSchema() }),
  listHandoffs: () =>
    z.strictObject({
      ...envelope(),
      ...handoffRef(),
      status: z.union([statusSchema, z.array(statusSchema).max(STATUSES.length)]).optional(),
      open: z.boolean().optional(),
      /** A page of at most `limit` handoffs, in creation order (by uid); `next_cursor` in the answer continues it. */
      limit: z.number().int().positive().max(100_000).optional(),
      /** The `next_cursor` of the previous page: the handoffs created after it (docs/contract.md §8). */
      cursor: z
        .string()
        .regex(/^[0-9A-HJKMNP-TV-Z]{26}$/, 'cursor is the next_cursor of a previous listHandoffs answer')
        .optional(),
      /** Also search the archive (.agentsync/archive/), where finished handoffs go after archive.after_days. */
      archived: z.boolean().optional(),
    }),
  claimHandoff: () => withHandoffRef({ agent: agentParam(), ...expectedRev() }),
  transitionHandoff: () =>
    withHandoffRef({
      agent: agentParam(),
      to: statusSchema,
      reason: z.string().max(LIMITS.reason).optional(),
      ...expectedRev(),
    }),
  completeHandoff: () => withHandoffRef({ agent: agentParam(), result: resultParam().optional(), ...expectedRev() }),
  updateTodos: () => withHandoffRef({ agent: agentParam(), todos: z.array(todoSchema).max(LIMITS.todos), ...expectedRev() }),
  heartbeat: () => withHandoffRef({ agent: agentParam() }),
  withdrawPass: () =>
    withHandoffRef({
      agent: agentParam(),
      reason: z.string().trim().min(1, 'reason must say why the pass is withdrawn (the receiver is told)').max(LIMITS.reason),
      ...expectedRev(),
    }),
  reviewFiles: () =>
    withHandoffRef({
      agent: agentParam(),
      // Paths exactly as the report lists them (result.artifacts.file_modifications).
      accept: z.array(z.string().min(1).max(1_000)).max(LIMITS.files).default([]),
      reject: z
        .array(
          z.strictObject({
            path: z.string().min(1).max(1_000),
            reason: z.string().trim().min(1, 'each rejected file needs a reason (its receiver is told)').max(LIMITS.reason),
          }),
        )
        .max(LIMITS.files)
        .default([]),
      ...expectedRev(),
    }),
  clearConflicts: () => withHandoffRef({ agent: agentParam(), ...expectedRev() }),
  expireLeases: () => z.strictObject({ ...envelope() }),
  passOver: () =>
    z.strictObject({
      ...envelope(),
      ...handoffRef(),
      agent: agentParam(),
      // One receiver, or 2-5 for a fan-out (docs/contract.md §6, "Fan-out and join"); the count is checked by the core.
      to: z.union([z.string().max(64), z.array(z.string().max(64)).max(10)]).optional(),
      reason: z.string().max(LIMITS.reason).optional(),
      summary: z.string().max(LIMITS.summary).optional(),
      message: z.string().max(LIMITS.notes).optional(),
      notes: z.string().max(LIMITS.notes).optional(),
      files: z.array(inputWorkspacePath).max(LIMITS.files).optional(),
      return_required: z.boolean().optional(),
      override: passOverPolicySchema.optional(),
      phase: phaseSchema.nullable().optional(),
      request: workRequestSchema.optional(),
      /** The work context (docs/contract.md §6): stored beside the record, shown to the receiver as data. */
      context: workContextSchema.optional(),
      // Used when the pass goes back to the work's return_to, which makes it the return (docs/contract.md §6).
      result: resultParam().optional(),
      ...expectedRev(),
    }),
  returnHandoff: () =>
    withHandoffRef({
      agent: agentParam(),
      result: resultParam().optional(),
      message: z.string().max(LIMITS.notes).optional(),
      ...expectedRev(),
    }),
  assignHandoff: () =>
    withHandoffRef({
      agent: agentParam(),
      to_agents: z.array(agentParam()).min(1).max(2),
      reason: z.string().max(LIMITS.reason).optional(),
      ...expectedRev(),
    }),
  // Sessions (AgentSync 0.3's drop-zone actions, docs/contract.md §8, §10).
  startSession: () =>
    z.strictObject({ ...envelope(), ...handoffRef(), agent: agentParam(), goal: z.string().max(LIMITS.summary).optional() }),
  endSession: () =>
    z.strictObject({
      ...envelope(),
      agent: agentParam(),
      summary: z.string().max(LIMITS.summary).optional(),
      nextWork: z.string().max(LIMITS.summary).optional(),
      handoff: endSessionHandoffSchema().nullable().optional(),
      no_handoff_reason: z.string().trim().min(1, 'no_handoff_reason must say why no handoff is left').max(LIMITS.reason).optional(),
    }),
  status: () => z.strictObject({ ...envelope() }),
  health: () => z.strictObject({ ...envelope() }),
} as const;

type SchemaName = keyof typeof paramSchemas;
/** The parsed parameters of an action, for the functions that run it. */
export type ParamsOf<A extends SchemaName> = z.infer<ReturnType<(typeof paramSchemas)[A]>>;

export function handoffRefOf(p: { handoffId?: string; handoff_id?: string }): string {
  return (p.handoffId ?? p.handoff_id)!;
}
