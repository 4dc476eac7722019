// The handoff record and handoffs.json (docs/contract.md §3). Strict objects: an unknown key is an error, not data to drop.
import * as z from 'zod';
import { AGENT_ID_PATTERN } from './agentId';
import { SESSION_ID_PATTERN } from './agentSession';
import { phaseSchema, workRequestSchema } from './workRequest';
import { workspaceRelativePath } from './workspacePath';
import { passGroupSchema } from './passGroup';
import { outputSchemaSchema } from './outputSchema';
import { recordVersion } from './storeVersion';
import { fileModificationSchema, reportCommitSchema } from './fileModification';

export const STATUSES = ['queued', 'in_progress', 'blocked', 'ready_for_review', 'approved', 'merged', 'escalated', 'withdrawn'] as const;
/** Nothing leaves them (docs/contract.md §4); `withdrawn` is a pass its originator took back (withdrawPass). */
export const TERMINAL_STATUSES = ['merged', 'escalated', 'withdrawn'] as const;
export const OWNER_MODES = ['single', 'shared', 'auto'] as const;

export const LIMITS = {
  summary: 2_000,
  notes: 20_000,
  reason: 2_000,
  shortText: 200,
  files: 500,
  capabilities: 50,
  history: 10_000,
  todos: 200,
  todoContent: 2_000,
  chain: 20,
  /** Bytes of a completion report's `findings` as JSON; over it the report is refused with E012 (completionReport.ts). */
  findingsBytes: 64 * 1024,
  /** A record's `conflicts`; a merge keeps the newest (merge/mergeRecord.ts). */
  conflicts: 100,
  /** A record's `previous_ids`; a renumbering keeps the newest (previousIds.ts). */
  previousIds: 20,
} as const;

export const statusSchema = z.enum(STATUSES);
export const ownerModeSchema = z.enum(OWNER_MODES);
export const agentIdSchema = z.string().regex(AGENT_ID_PATTERN, 'agent ids are lowercase letters, digits, "-" or "_" (1-64 characters)');
export const handoffIdSchema = z.string().regex(/^HO-\d{8}-\d{3,6}$/, 'handoff ids look like HO-YYYYMMDD-NNN');
export const isoTimeSchema = z.iso.datetime({ offset: true });
const shortText = z.string().max(LIMITS.shortText);
export const capabilitySchema = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[A-Za-z0-9_.:-]+$/, 'capabilities are words of letters, digits, "_", ".", ":" or "-"');

export const historyEntrySchema = z.strictObject({
  status: statusSchema,
  agent: agentIdSchema,
  timestamp: isoTimeSchema,
  reason: z.string().max(LIMITS.reason).nullable().default(null),
  request_id: z.string().max(128).optional(),
  /** Hash of the request that made this change, so a replay of the id is answered only for the same request. */
  request_hash: z
    .string()
    .regex(/^[0-9a-f]{1,64}$/)
    .optional(),
});

export const todoSchema = z.strictObject({
  id: z.string().min(1).max(100),
  content: z.string().min(1).max(LIMITS.todoContent),
  status: z.enum(['pending', 'in_progress', 'completed', 'cancelled']),
  priority: z.enum(['high', 'medium', 'low']).default('medium'),
});

export const conflictSchema = z.strictObject({
  field: shortText,
  ours: z.unknown(),
  theirs: z.unknown(),
  resolved_to: z.unknown(),
  at: isoTimeSchema,
});

/** The receiver's completion report (docs/contract.md §6). */
export const completionResultSchema = z.strictObject({
  // Echoes of the request (docs/contract.md §6); checked against the handoff when given (completionReport.ts).
  task_id: shortText.nullable().optional(),
  phase: phaseSchema.optional(),
  status: z.enum(['complete', 'partial', 'blocked']),
  decision: z.enum(['PROCEED', 'STOP', 'CLARIFY']),
  findings: z.record(z.string().max(200), z.unknown()).default({}),
  context_summary: z.string().max(20_000),
  tokens_used: z.number().int().nonnegative().optional(),
  issues: z.array(z.string().max(LIMITS.reason)).max(100).default([]),
  artifacts: z
    .strictObject({
      findings: z
        .array(
          z.strictObject({
            severity: z.enum(['critical', 'high', 'medium', 'low', 'info']),
            category: shortText,
            location: z.string().max(1_000).optional(),
            message: z.string().max(LIMITS.reason),
          }),
        )
        .max(500)
        .default([]),
      decisions: z.array(z.string().max(LIMITS.reason)).max(200).default([]),
      // Each with the reviewer's decision once made (reviewFiles, domain/fileReview.ts).
      file_modifications: z.array(fileModificationSchema).max(LIMITS.files).default([]),
    })
    .optional(),
  /** The commit the changes are on, so a reviewer can see them (docs/contract.md §6, "Per-file review"). */
  commit: reportCommitSchema.optional(),
});

/** The pass-over policy keys (docs/contract.md §6): a layer of .agentsync.json → passOver, an inline override, or the policy stored on a handoff. */
export const passOverPolicySchema = z.strictObject({
  enabled: z.boolean().optional(),
  auto_return: z.boolean().optional(),
  auto_apply: z.boolean().optional(),
  require_user_approval: z.boolean().optional(),
  timeout_ms: z
    .number()
    .int()
    .positive()
    .max(7 * 24 * 3_600_000)
    .optional(),
  max_chain_depth: z.number().int().min(1).max(20).optional(),
  notify_on_return: z.union([z.boolean(), z.enum(['always', 'only_issues', 'never'])]).optional(),
  can_receive_passes: z.boolean().optional(),
  // What a receiver may do, and what its report must look like (docs/contract.md §6, "What a receiver may do"). Not
  // among the built-in values: a pass stores them only when a layer sets them (store version 3, storeVersion.ts).
  can_modify_files: z.boolean().optional(),
  can_run_tools: z.boolean().optional(),
  max_compute_time_ms: z
    .number()
    .int()
    .positive()
    .max(7 * 24 * 3_600_000)
    .optional(),
  max_context_size_bytes: z
    .number()
    .int()
    .positive()
    .max(4 * 1024 * 1024)
    .optional(),
  validate_output: z.boolean().optional(),
  output_schema: outputSchemaSchema.optional(),
  // Whether new work between two agents is made at all (pairLimit.ts): resolved per pass or create, never stored on one.
  max_handoffs_per_pair_per_hour: z.number().int().min(1).max(10_000).optional(),
});

export const sessionIdSchema = z.string().regex(SESSION_ID_PATTERN, 'a session id is 1-128 letters, digits or ._:@/+=-');

/** Where a claim was taken (domain/agentSession.ts): the agent's session id, git's worktree name, the branch. */
export const claimedSessionSchema = z.strictObject({
  id: sessionIdSchema.nullable(),
  worktree: z.string().min(1).max(LIMITS.shortText),
  branch: shortText.nullable(),
});

/**
 * The worktree a handoff owns (`agentsync worktree add`, docs/contract.md §14 item 5): git's name for it, its branch and
 * the commit it was made from. No path: the record is committed, and a path is this machine's (git's worktree list has it).
 */
export const worktreeBindingSchema = z.strictObject({
  name: z.string().min(1).max(LIMITS.shortText),
  branch: z.string().min(1).max(LIMITS.shortText),
  commit: z.string().regex(/^[0-9a-f]{40}(?:[0-9a-f]{24})?$/, 'commit is a full git object id'),
});

export const handoffSchema = z
  .strictObject({
    // The original plan's fields, names unchanged (docs/contract.md §3).
    handoff_id: handoffIdSchema,
    task_id: shortText.nullable().default(null),
    from_agent: agentIdSchema,
    to_agents: z.array(agentIdSchema).max(10).default([]),
    owner_mode: ownerModeSchema,
    status: statusSchema,
    required_capabilities: z.array(capabilitySchema).max(LIMITS.capabilities).default([]),
    summary: z.string().min(1).max(LIMITS.summary),
    notes: z.string().max(LIMITS.notes).default(''),
    no_handoff_reason: z.string().min(1).max(LIMITS.reason).nullable().default(null),
    files: z.array(workspaceRelativePath).max(LIMITS.files).default([]),
    branch: shortText.nullable().default(null),
    commit: shortText.nullable().default(null),
    prior_attempts: z.number().int().nonnegative().default(0),
    created_at: isoTimeSchema,
    updated_at: isoTimeSchema,
    state_history: z.array(historyEntrySchema).max(LIMITS.history).default([]),
    // Additions (docs/contract.md §3), optional so AgentSync 0.3 files load.
    uid: z
      .string()
      .regex(/^[0-9A-HJKMNP-TV-Z]{26}$/, 'uid is a ULID')
      .optional(),
    rev: z.number().int().nonnegative().optional(),
    claimed_by: agentIdSchema.nullable().optional(),
    claimed_at: isoTimeSchema.nullable().optional(),
    /** Where the claim was taken: the agent's session id, worktree and branch (docs/contract.md §4, "Who may act"). */
    claimed_session: claimedSessionSchema.nullable().optional(),
    lease_expires_at: isoTimeSchema.nullable().optional(),
    /** The worktree this handoff owns (docs/contract.md §14 item 5); absent when it owns none. */
    worktree: worktreeBindingSchema.optional(),
    /** Hidden from "Assigned to me" and the stale badge until then (snoozeHandoff, domain/snoozeTime.ts). */
    snoozed_until: isoTimeSchema.nullable().optional(),
    return_to: agentIdSchema.nullable().optional(),
    parent_uid: z.string().max(26).nullable().optional(),
    chain: z.array(agentIdSchema).max(LIMITS.chain).optional(),
    reason: z.string().max(LIMITS.reason).nullable().optional(),
    phase: phaseSchema.nullable().optional(),
    /** What the receiver is asked to do (the request side, docs/contract.md §6): feature, spec_path, constraints, instructions, expected_output. */
    request: workRequestSchema.optional(),
    priority: z.enum(['low', 'medium', 'high']).nullable().optional(),
    result: completionResultSchema.nullable().optional(),
    /** The previous hop's context_summary, handed to the next agent in a chain (docs/contract.md §6). */
    previous_findings: z.string().max(20_000).nullable().optional(),
    todos: z.array(todoSchema).max(LIMITS.todos).optional(),
    /** The pass-over policy resolved when the work was passed (inline override included); governs its lease and return (docs/contract.md §6). */
    policy: passOverPolicySchema.nullable().optional(),
    /** On work returned under notify_on_return: whose editor shows a notification, and this handoff (docs/agentsync-documentation.md). */
    notify: z.strictObject({ agent: agentIdSchema, handoff: handoffIdSchema }).nullable().optional(),
    conflicts: z.array(conflictSchema).max(LIMITS.conflicts).optional(),
    /** One pass to several agents (docs/contract.md §6, "Fan-out and join"): the group a child or the joined return belongs to. */
    group: passGroupSchema.optional(),
    /** Ids the record had before a git merge renumbered it, oldest first (docs/contract.md §3). */
    previous_ids: z.array(handoffIdSchema).max(LIMITS.previousIds).optional(),
  })
  .superRefine((h, ctx) => {
    // Owner counts (docs/contract.md §3); a skipped handoff (no_handoff_reason) needs no owners.
    if (h.no_handoff_reason !== null) return;
    const owners = new Set(h.to_agents).size;
    if (h.owner_mode === 'single' && h.to_agents.length !== 1) {
      ctx.addIssue({
        code: 'custom',
        path: ['to_agents'],
        message: `owner_mode "single" needs exactly 1 agent in to_agents (got ${h.to_agents.length})`,
      });
    } else if (h.owner_mode === 'shared' && (h.to_agents.length !== 2 || owners !== 2)) {
      ctx.addIssue({
        code: 'custom',
        path: ['to_agents'],
        message: `owner_mode "shared" needs exactly 2 different agents in to_agents (got ${h.to_agents.length})`,
      });
    } else if (h.owner_mode === 'auto' && h.required_capabilities.length === 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['required_capabilities'],
        message: 'owner_mode "auto" needs at least one required capability',
      });
    }
  });

/**
 * The store versions this build reads (docs/contract.md §3): 1, 2 once a record carries a field AgentSync 0.4.0 does
 * not know (`claimed_session`, `worktree`), 3 once one carries a field or status the build before this one does not know
 * (a pass group, a receiver's permissions, the status `withdrawn`, a per-file review: storeVersion.ts). A file is
 * written as the lowest version that holds its records (storeVersionFor), so an older clone reads every other file as before.
 */
export const STORE_VERSION = 3;
export type StoreVersion = 1 | 2 | 3;

/** The version a store holding `handoffs` is written as: the highest any of its records needs (storeVersion.ts). */
export function storeVersionFor(
  handoffs: readonly Partial<Pick<Handoff, 'status' | 'claimed_session' | 'worktree' | 'group' | 'policy' | 'result'>>[],
): StoreVersion {
  let version: StoreVersion = 1;
  for (const h of handoffs) {
    const needs = recordVersion(h);
    if (needs === 3) return 3;
    if (needs > version) version = needs;
  }
  return version;
}

export const handoffsFileSchema = z.strictObject({
  version: z.union([z.literal(1), z.literal(2), z.literal(3)]),
  /** The highest handoff_id ever moved to the archive: new ids are allocated above it, so an id is never reused. */
  id_high_water: handoffIdSchema.optional(),
  handoffs: z.array(handoffSchema),
});

export type HandoffStatus = z.infer<typeof statusSchema>;
export type OwnerMode = z.infer<typeof ownerModeSchema>;
export type Handoff = z.infer<typeof handoffSchema>;
export type HistoryEntry = z.infer<typeof historyEntrySchema>;
export type CompletionResult = z.infer<typeof completionResultSchema>;
export type Todo = z.infer<typeof todoSchema>;
export type HandoffsFile = z.infer<typeof handoffsFileSchema>;

export function isTerminal(status: HandoffStatus): boolean {
  return (TERMINAL_STATUSES as readonly string[]).includes(status);
}

/** Turns zod issues into one sentence per problem: which field, what was wrong. */
export function describeIssues(error: Pick<z.ZodError, 'issues'>, prefix = ''): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => {
      const where = [prefix, ...issue.path.map(String)].filter(Boolean).join('.') || '(root)';
      if (issue.code === 'unrecognized_keys') return `${where}: unknown field(s) ${issue.keys.map((k) => JSON.stringify(k)).join(', ')}`;
      return `${where}: ${issue.message}`;
    })
    .join('; ');
}
