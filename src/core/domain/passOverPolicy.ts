// Pass-over policy resolution (docs/contract.md §6, Policies; docs/agentsync-documentation.md, "Pass-over policies"):
// inline override > pair > subagent > defaults > built-in, except that an override may not loosen a restriction.
import { assertSectionUsable, type AgentSyncConfig, type PassOverPolicy } from './configSchema';
import { ActionError } from './errors';
import { RECEIVER_KEYS, type ReceiverKey } from './receiverKeys';

export { RECEIVER_KEYS };

/** A resolved policy, as a pass stores it: every key but the receiver's (kept only when set) and the pair limit (never). */
export type EffectivePolicy = Required<Omit<PassOverPolicy, ReceiverKey | typeof PAIR_LIMIT.key>> & Pick<PassOverPolicy, ReceiverKey>;
export type PolicyKey = Exclude<keyof EffectivePolicy, ReceiverKey>;

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

export const POLICY_KEYS = Object.keys(BUILT_IN_POLICY) as PolicyKey[];

/**
 * The pair limit (docs/contract.md §6, "Loops across the graph"): more than `perHour` handoffs between two agents within
 * `windowMs`, with no human action on them in between, and the next one waits for a human (pairLimit.ts). The key
 * `max_handoffs_per_pair_per_hour` sets it per layer; it decides whether work is made, so no record stores it.
 */
export const PAIR_LIMIT = { key: 'max_handoffs_per_pair_per_hour', perHour: 20, windowMs: 60 * 60_000 } as const;

/** A resolved policy and, per key, where its value came from (`passOver.pairs.alice->audit`, `built-in`, `override`). */
export interface ResolvedPolicy {
  policy: EffectivePolicy;
  sources: Record<PolicyKey, string>;
}

/** The policy .agentsync.json gives a pass from `from` to `to`, with sources; a broken section refuses (E030/E031). */
export function resolveConfiguredPolicy(config: AgentSyncConfig, from: string, to: string): ResolvedPolicy {
  const layers = layersOf(config, from, to);
  const policy: EffectivePolicy = { ...BUILT_IN_POLICY };
  const sources = Object.fromEntries(POLICY_KEYS.map((k) => [k, 'built-in'])) as Record<PolicyKey, string>;
  for (const [source, layer] of layers) {
    for (const k of [...POLICY_KEYS, ...RECEIVER_KEYS]) {
      if (layer?.[k] === undefined) continue;
      (policy as Record<string, unknown>)[k] = layer[k];
      (sources as Record<string, string>)[k] = source;
    }
  }
  return { policy, sources };
}

/** The layers of .agentsync.json for a pass from `from` to `to`, weakest first; a broken section refuses (E030/E031). */
function layersOf(config: AgentSyncConfig, from: string, to: string): [string, PassOverPolicy | undefined][] {
  assertSectionUsable(config, 'passOver');
  const pair = `${from}->${to}`;
  return [
    ['passOver.defaults', config.passOver.defaults],
    [`passOver.subagents.${to}`, config.passOver.subagents?.[to]],
    [`passOver.pairs.${pair}`, config.passOver.pairs?.[pair]],
  ];
}

/** The pair limit of work from `from` to `to` and where it came from; an override may lower it, not raise it (E031). */
export function pairLimitOf(
  config: AgentSyncConfig,
  from: string,
  to: string,
  override: PassOverPolicy = {},
): { limit: number; source: string } {
  const key = PAIR_LIMIT.key;
  let found = { limit: PAIR_LIMIT.perHour as number, source: `the built-in ${key}` };
  for (const [source, layer] of layersOf(config, from, to))
    if (layer?.[key] !== undefined) found = { limit: layer[key], source: `${source}.${key}` };
  const asked = override[key];
  if (asked === undefined) return found;
  if (asked > found.limit)
    throw new ActionError(
      'PREFERENCE_CONFLICT',
      `override.${key}: ${asked} would lift ${found.source} (${found.limit}); an inline override may tighten a pass-over ` +
        `restriction, not loosen it. Drop override.${key}, or change .agentsync.json. Nothing was changed.`,
      { code: 'E031', key: 'passOver', path: `override.${key}`, conflicts_with: found.source },
    );
  return { limit: asked, source: `override.${key}` };
}

/** Where a key's value came from, as a user finds it: `passOver.pairs.alice->audit.enabled`, `override.enabled`. */
export function keySource(sources: Record<PolicyKey, string>, key: PolicyKey | ReceiverKey): string {
  const from = (sources as Record<string, string | undefined>)[key] ?? 'built-in';
  return from === 'built-in' ? `the built-in ${key}` : `${from}.${key}`;
}

/** True when `value` for `key` allows more than `configured` does: the keys whose job is to restrict agents. */
function loosens(key: PolicyKey | ReceiverKey, value: unknown, configured: EffectivePolicy): boolean {
  switch (key) {
    case 'can_modify_files':
    case 'can_run_tools':
      return value === true && configured[key] === false;
    case 'validate_output':
      return value === false && configured.validate_output === true;
    case 'output_schema':
      return configured.output_schema !== undefined && JSON.stringify(value) !== JSON.stringify(configured.output_schema);
    case 'max_compute_time_ms':
    case 'max_context_size_bytes': {
      const limit = configured[key];
      return typeof value === 'number' && limit !== undefined && value > limit;
    }
    case 'enabled':
    case 'can_receive_passes':
      return value === true && configured[key] === false;
    case 'require_user_approval':
      return value === false && configured.require_user_approval;
    case 'max_chain_depth':
      return typeof value === 'number' && value > configured.max_chain_depth;
    default:
      return false;
  }
}

/**
 * The effective policy of one pass: the configured one under the request's inline override. The override wins for
 * every key, but may only tighten what restricts agents (enabled, can_receive_passes, require_user_approval,
 * max_chain_depth): an agent must not lift the user's restriction by asking, so that is E031 PREFERENCE_CONFLICT.
 */
export function resolvePassOverPolicy(config: AgentSyncConfig, from: string, to: string, override: PassOverPolicy = {}): EffectivePolicy {
  return resolveWithOverride(config, from, to, override).policy;
}

export function resolveWithOverride(config: AgentSyncConfig, from: string, to: string, override: PassOverPolicy = {}): ResolvedPolicy {
  const { policy, sources } = resolveConfiguredPolicy(config, from, to);
  const effective: EffectivePolicy = { ...policy };
  for (const k of [...POLICY_KEYS, ...RECEIVER_KEYS]) {
    const value = override[k];
    if (value === undefined) continue;
    if (loosens(k, value, policy)) {
      throw new ActionError(
        'PREFERENCE_CONFLICT',
        `override.${k}: ${JSON.stringify(value)} would lift ${keySource(sources, k)} (${JSON.stringify(policy[k])}); ` +
          `an inline override may tighten a pass-over restriction, not loosen it. Drop override.${k}, ` +
          `or change .agentsync.json (agentsync policy set-pair ${from} ${to} ...). Nothing was changed.`,
        { code: 'E031', key: 'passOver', path: `override.${k}`, conflicts_with: keySource(sources, k) },
      );
    }
    (effective as Record<string, unknown>)[k] = value;
    (sources as Record<string, string>)[k] = 'override';
  }
  return { policy: effective, sources };
}

export interface PolicyListing {
  scope: 'defaults' | 'subagent' | 'pair';
  /** `defaults`, the subagent's id, or the pair `from->to`. */
  name: string;
  policy: EffectivePolicy;
  sources: Record<PolicyKey, string>;
}

/**
 * The resolved policy of the defaults, of each configured subagent (a pass from any agent without a pair of its own)
 * and of each configured pair, for `agentsync policy list`. `*` matches no pair or subagent (not an agent id).
 */
export function listPolicies(config: AgentSyncConfig): PolicyListing[] {
  const out: PolicyListing[] = [{ scope: 'defaults', name: 'defaults', ...resolveConfiguredPolicy(config, '*', '*') }];
  for (const id of Object.keys(config.passOver.subagents ?? {}))
    out.push({ scope: 'subagent', name: id, ...resolveConfiguredPolicy(config, '*', id) });
  for (const pair of Object.keys(config.passOver.pairs ?? {})) {
    const [from, to] = pair.split('->');
    out.push({ scope: 'pair', name: pair, ...resolveConfiguredPolicy(config, from, to) });
  }
  return out;
}
