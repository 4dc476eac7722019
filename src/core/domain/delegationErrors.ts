// The delegation error codes (docs/contract.md §6), as AgentSync answers them: `reason` is the code's name, `code` is
// E0xx (docs/agentsync-documentation.md, "Pass-over delegation"); the numbers of those answered as refusals are in
// errors.ts (PROTOCOL_REFUSALS). E030 CONFIG_INVALID is raised by the config (configSchema.ts) for every section
// that fails closed.
import { ActionError, PROTOCOL_REFUSALS } from './errors';

/** The delegation codes: the ones answered as refusals (their numbers are in errors.ts), the two timeouts and the crash. */
export const DELEGATION_CODES = {
  INVALID_SUBAGENT: PROTOCOL_REFUSALS.INVALID_SUBAGENT,
  CHAIN_DEPTH_EXCEEDED: PROTOCOL_REFUSALS.CHAIN_DEPTH_EXCEEDED,
  CYCLE_DETECTED: PROTOCOL_REFUSALS.CYCLE_DETECTED,
  DISABLED_PAIR: PROTOCOL_REFUSALS.DISABLED_PAIR,
  SUBAGENT_TIMEOUT: 'E010',
  SUBAGENT_CRASHED: 'E011',
  CONTEXT_OVERFLOW: PROTOCOL_REFUSALS.CONTEXT_OVERFLOW,
  PERMISSION_DENIED: PROTOCOL_REFUSALS.PERMISSION_DENIED,
  RETURN_CONTEXT_LOST: PROTOCOL_REFUSALS.RETURN_CONTEXT_LOST,
  INVALID_WORK_OUTPUT: PROTOCOL_REFUSALS.INVALID_WORK_OUTPUT,
  RETURN_TIMEOUT: 'E022',
} as const;

export type DelegationCode = keyof typeof DELEGATION_CODES;

/**
 * E010 and E022 are written in a history when a pass times out, E011 when its receiver's session ended holding it;
 * never answered as a refusal.
 */
export type DelegationRefusal = Exclude<DelegationCode, 'SUBAGENT_TIMEOUT' | 'RETURN_TIMEOUT' | 'SUBAGENT_CRASHED'>;

export function delegationError(name: DelegationRefusal, message: string, details: Record<string, unknown> = {}): ActionError {
  return new ActionError(name, message, details); // ActionError puts the code first
}
