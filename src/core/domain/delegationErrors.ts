// The delegation error codes (docs/contract.md §6), as AgentSync answers them: `reason` is the code's name, `code` is
// E0xx (docs/agentsync-documentation.md, "Pass-over delegation"). E030 CONFIG_INVALID lives with the config
// (configSchema.ts), which raises it for every section that fails closed.
import { ActionError } from './errors';

export const DELEGATION_CODES = {
  INVALID_SUBAGENT: 'E001',
  CHAIN_DEPTH_EXCEEDED: 'E002',
  CYCLE_DETECTED: 'E003',
  DISABLED_PAIR: 'E004',
  SUBAGENT_TIMEOUT: 'E010',
  CONTEXT_OVERFLOW: 'E012',
  PERMISSION_DENIED: 'E013',
  RETURN_CONTEXT_LOST: 'E020',
  INVALID_WORK_OUTPUT: 'E021',
  RETURN_TIMEOUT: 'E022',
} as const;

export type DelegationCode = keyof typeof DELEGATION_CODES;

/** E010 and E022 are written in a history when a pass times out, never answered as a refusal. */
export type DelegationRefusal = Exclude<DelegationCode, 'SUBAGENT_TIMEOUT' | 'RETURN_TIMEOUT'>;

export function delegationError(name: DelegationRefusal, message: string, details: Record<string, unknown> = {}): ActionError {
  return new ActionError(name, message, { code: DELEGATION_CODES[name], ...details });
}
