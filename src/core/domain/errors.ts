// One error type for every refusal: a machine code from a closed list, a message that says what to do, and details.
/** Every reason a refusal can carry; docs/agentsync-documentation.md "Refusal reasons" lists the same set (a unit test keeps them equal). */
export const REFUSAL_REASONS = [
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
  'ambiguous_return',
  'not_initialized',
  'not_claimed',
  'handoff_required',
  'unsafe_file',
  'cancelled',
  'commands_untrusted',
  'CONFIG_INVALID',
  'PREFERENCE_CONFLICT',
  'CHAIN_DEPTH_EXCEEDED',
  'CYCLE_DETECTED',
  'DISABLED_PAIR',
  'INVALID_SUBAGENT',
  'PERMISSION_DENIED',
  'RETURN_CONTEXT_LOST',
  'INVALID_WORK_OUTPUT',
  'CONTEXT_OVERFLOW',
  'store_invalid',
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
  'drop_zone_off',
  'remote_unreachable',
  'remote_auth',
  'remote_refused',
  'remote_busy',
  'usage',
  'internal_error',
] as const;

export type RefusalReason = (typeof REFUSAL_REASONS)[number];

export class ActionError extends Error {
  constructor(
    readonly reason: RefusalReason,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'ActionError';
  }
}

export function isActionError(e: unknown): e is ActionError {
  return e instanceof ActionError;
}
