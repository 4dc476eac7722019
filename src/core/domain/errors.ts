// One error type for every refusal: a machine code from a closed list, a message that says what to do, and details.
/**
 * The case of a reason (docs/contract.md §8): AgentSync's own reasons are lower snake_case; a code of the delegation
 * protocol (docs/contract.md §6) is answered by its protocol name in UPPER_SNAKE_CASE, always with its number in
 * `code`. Agents already match those names, so they stay as they are.
 */
const AGENTSYNC_REASONS = [
  'invalid_json',
  'invalid_request',
  'unknown_action',
  'not_found',
  'already_claimed',
  'not_claimable',
  'not_assigned',
  'illegal_transition',
  'stale_revision',
  'request_id_reused',
  'unknown_agent',
  'no_conflicts',
  'archived',
  'id_moved',
  'ids_exhausted',
  'ambiguous_return',
  'not_initialized',
  'not_a_workspace',
  'not_claimed',
  'handoff_required',
  'unsafe_file',
  'cancelled',
  'commands_untrusted',
  'store_invalid',
  'store_too_new',
  'record_invalid',
  'store_missing',
  'store_busy',
  'disk_full',
  'read_only',
  'permission_denied',
  'store_unsafe',
  'too_large',
  'lock_timeout',
  'lock_lost',
  'hooks_file_invalid',
  'marker_broken',
  'invalid_config',
  'config_missing',
  'worktree_held',
  'withdrawn',
  'drop_zone_off',
  'remote_unreachable',
  'remote_auth',
  'remote_refused',
  'remote_busy',
  'remote_rewound',
  'remote_outcome_unknown',
  'sync_not_consented',
  'usage',
  'internal_error',
] as const;

/** The delegation protocol's codes that are answered as refusals, and their numbers; E010 and E022 are history entries, never refusals. */
export const PROTOCOL_REFUSALS = {
  INVALID_SUBAGENT: 'E001',
  CHAIN_DEPTH_EXCEEDED: 'E002',
  CYCLE_DETECTED: 'E003',
  DISABLED_PAIR: 'E004',
  CONTEXT_OVERFLOW: 'E012',
  PERMISSION_DENIED: 'E013',
  RETURN_CONTEXT_LOST: 'E020',
  INVALID_WORK_OUTPUT: 'E021',
  CONFIG_INVALID: 'E030',
  PREFERENCE_CONFLICT: 'E031',
} as const;

export type ProtocolRefusal = keyof typeof PROTOCOL_REFUSALS;
export type RefusalReason = (typeof AGENTSYNC_REASONS)[number] | ProtocolRefusal;

/** Every reason a refusal can carry; docs/agentsync-documentation.md "Refusal reasons" lists the same set (a unit test keeps them equal). */
export const REFUSAL_REASONS: readonly RefusalReason[] = [...AGENTSYNC_REASONS, ...(Object.keys(PROTOCOL_REFUSALS) as ProtocolRefusal[])];

export function isProtocolRefusal(reason: string): reason is ProtocolRefusal {
  return Object.hasOwn(PROTOCOL_REFUSALS, reason);
}

export class ActionError extends Error {
  /** The answer's details; a protocol refusal's always begin with its `code` (`E0xx`), wherever it is raised. */
  readonly details: Record<string, unknown>;

  constructor(
    readonly reason: RefusalReason,
    message: string,
    details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'ActionError';
    this.details = isProtocolRefusal(reason) ? { code: PROTOCOL_REFUSALS[reason], ...details } : details;
  }
}

export function isActionError(e: unknown): e is ActionError {
  return e instanceof ActionError;
}
