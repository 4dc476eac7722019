// Who receives the handoff of a zero-touch End Session (docs/agentsync-documentation.md, "Zero-touch sessions").
// Nothing is asked, so the owners come from configured defaults, in this order:
//   1. agentsync.automation.handoffTo: one agent → single, two → shared (explicit targets: no capability lookup);
//   2. agentsync.automation.handoffCapabilities → owner_mode auto: the core's routing picks the owners (and parks
//      the handoff as blocked, for a human to assign, when nobody has them);
//   3. the session's claimed handoff → back to whoever reviews it (its originator), when that is someone else;
//   4. otherwise `human`: a person routes it.
import { AGENT_ID_PATTERN, HUMAN_AGENT, normalizeAgentId } from '../../domain/agentId';
import { capabilitySchema, type Handoff } from '../../domain/handoffSchema';
import { originatorOf } from '../../domain/lifecycle';

export interface ZeroTouchDefaults {
  handoffTo: readonly string[];
  handoffCapabilities: readonly string[];
}

export interface ZeroTouchRoute {
  owner_mode: 'single' | 'shared' | 'auto';
  to_agents?: string[];
  required_capabilities?: string[];
  /** Why these owners, for the log and the notification. */
  why: string;
}

/** A setting that cannot be used: which one, what was wrong, what to do. */
export class ZeroTouchSettingError extends Error {}

function targets(raw: readonly string[]): string[] {
  const ids = [...new Set(raw.map((a) => normalizeAgentId(String(a))).filter((a) => a !== ''))];
  const bad = ids.filter((a) => !AGENT_ID_PATTERN.test(a));
  if (bad.length)
    throw new ZeroTouchSettingError(
      `agentsync.automation.handoffTo has ${bad.map((b) => JSON.stringify(b)).join(', ')}, which is not an agent id ` +
        `(lowercase letters, digits, "-" or "_"). Fix it in Settings.`,
    );
  if (ids.length > 2)
    throw new ZeroTouchSettingError(
      `agentsync.automation.handoffTo lists ${ids.length} agents; a handoff has one owner (single) or two (shared). Keep one or two in Settings.`,
    );
  return ids;
}

function capabilities(raw: readonly string[]): string[] {
  const caps = [...new Set(raw.map((c) => String(c).trim()).filter((c) => c !== ''))];
  const bad = caps.filter((c) => !capabilitySchema.safeParse(c).success);
  if (bad.length)
    throw new ZeroTouchSettingError(
      `agentsync.automation.handoffCapabilities has ${bad.map((b) => JSON.stringify(b)).join(', ')}; capabilities are ` +
        `words of letters, digits, "_", ".", ":" or "-". Fix it in Settings.`,
    );
  return caps;
}

/** The routing fields of the zero-touch handoff; throws ZeroTouchSettingError for an unusable setting. */
export function zeroTouchRoute(defaults: ZeroTouchDefaults, me: string, claimed: Handoff | null): ZeroTouchRoute {
  const to = targets(defaults.handoffTo);
  if (to.length === 1) return { owner_mode: 'single', to_agents: to, why: `agentsync.automation.handoffTo names ${to[0]}` };
  if (to.length === 2) return { owner_mode: 'shared', to_agents: to, why: `agentsync.automation.handoffTo names ${to.join(' and ')}` };
  const caps = capabilities(defaults.handoffCapabilities);
  if (caps.length)
    return {
      owner_mode: 'auto',
      required_capabilities: caps,
      why: `routed by capabilities ${caps.join(', ')} (agentsync.automation.handoffCapabilities)`,
    };
  const reviewer = claimed ? originatorOf(claimed) : null;
  if (claimed && reviewer && reviewer !== me)
    return { owner_mode: 'single', to_agents: [reviewer], why: `back to ${reviewer}, who handed over ${claimed.handoff_id}` };
  return { owner_mode: 'single', to_agents: [HUMAN_AGENT], why: 'no default configured: a person (human) routes it' };
}
