// One error type for every refusal: a machine code, a message that says what to do, and details.
export type RefusalReason =
  | 'invalid_json'
  | 'invalid_request'
  | 'unknown_action'
  | 'not_found'
  | 'already_claimed'
  | 'not_claimable'
  | 'not_assigned'
  | 'illegal_transition'
  | 'stale_revision'
  | 'request_id_reused'
  | 'unknown_agent'
  | 'unroutable'
  | 'store_invalid'
  | 'store_unsafe'
  | 'lock_timeout'
  | 'too_large'
  | 'unsafe_path'
  | 'internal_error'
  // Any other code (the list above is the common ones); `string & {}` keeps the literals for completion.
  | (string & {});

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
