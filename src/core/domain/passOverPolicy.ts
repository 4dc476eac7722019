// Pass-over policy resolution (docs/contract.md §6, seed 000 §5.4): inline override > pair > subagent > defaults > built-in.
import { assertSectionUsable, type AgentSyncConfig, type PassOverPolicy } from './configSchema';

export type EffectivePolicy = Required<PassOverPolicy>;

export const BUILT_IN_POLICY: EffectivePolicy = {
  enabled: true,
  auto_return: false,
  auto_apply: false,
  require_user_approval: false,
  timeout_ms: 30 * 60_000,
  max_chain_depth: 3,
  notify_on_return: true,
  can_receive_passes: true,
};

/** A broken passOver section fails closed (docs/contract.md §6, §7): E030 CONFIG_INVALID, never the permissive built-ins. */
export function resolvePassOverPolicy(config: AgentSyncConfig, from: string, to: string, override: PassOverPolicy = {}): EffectivePolicy {
  assertSectionUsable(config, 'passOver');
  const layers = [
    config.passOver.defaults ?? {},
    config.passOver.subagents?.[to] ?? {},
    config.passOver.pairs?.[`${from}->${to}`] ?? {},
    override,
  ];
  const effective: EffectivePolicy = { ...BUILT_IN_POLICY };
  for (const layer of layers) {
    for (const [k, v] of Object.entries(layer)) if (v !== undefined) (effective as Record<string, unknown>)[k] = v;
  }
  return effective;
}
