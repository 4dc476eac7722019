// What the schema of passOver cannot see on its own (docs/agentsync-documentation.md, "Pass-over policies"): a pair or
// subagent naming an agent that is not configured (a typo would leave the real pair unrestricted: E030), and keys
// that contradict each other (E031). Either makes the whole passOver section fail closed, like a schema error.
import { didYouMean } from './configKeyHints';
import type { AgentSyncConfig, PassOverPolicy, SectionProblem } from './configSchema';

type Layer = { path: string; policy: PassOverPolicy };

function layersOf(passOver: AgentSyncConfig['passOver']): Layer[] {
  return [
    ...(passOver.defaults ? [{ path: 'passOver.defaults', policy: passOver.defaults }] : []),
    ...Object.entries(passOver.pairs ?? {}).map(([k, policy]) => ({ path: `passOver.pairs.${k}`, policy })),
    ...Object.entries(passOver.subagents ?? {}).map(([k, policy]) => ({ path: `passOver.subagents.${k}`, policy })),
  ];
}

/** Agent ids a pair or subagent may name: the configured agents, the humans and "human"; null when no list is configured. */
function agentList(config: Pick<AgentSyncConfig, 'agentCapabilities' | 'humans'>): string[] | null {
  const agents = Object.keys(config.agentCapabilities);
  return agents.length ? [...agents, ...config.humans, 'human'] : null;
}

function unknownAgents(config: Pick<AgentSyncConfig, 'passOver' | 'agentCapabilities' | 'humans'>): SectionProblem[] {
  const known = agentList(config);
  if (!known) return [];
  const problem = (path: string, id: string): SectionProblem => ({
    path,
    code: 'E030',
    message:
      `${path}: "${id}" is not a configured agent${didYouMean(id, known)}; expected one of ${known.join(', ')} ` +
      '(agentCapabilities, humans or "human"), since a policy for an unknown agent never applies',
  });
  const out: SectionProblem[] = [];
  for (const key of Object.keys(config.passOver.pairs ?? {})) {
    for (const id of key.split('->')) if (!known.includes(id)) out.push(problem(`passOver.pairs.${key}`, id));
  }
  for (const id of Object.keys(config.passOver.subagents ?? {})) {
    if (!known.includes(id)) out.push(problem(`passOver.subagents.${id}`, id));
  }
  return out;
}

function conflicts(passOver: AgentSyncConfig['passOver']): SectionProblem[] {
  const out: SectionProblem[] = [];
  const conflict = (path: string, message: string) => out.push({ path, code: 'E031', message: `${path}: ${message}` });
  for (const { path, policy } of layersOf(passOver)) {
    if (policy.auto_apply === true && policy.require_user_approval === true)
      conflict(
        path,
        'auto_apply is true (merge the returned work without review) but require_user_approval is true (only a human approves it); set one of them to false',
      );
  }
  for (const [key, policy] of Object.entries(passOver.pairs ?? {})) {
    const [from, to] = key.split('->');
    // A disabled pair is never passed over (an inline override may not enable it), so how its return behaves can never apply.
    for (const k of ['auto_return', 'auto_apply'] as const) {
      if (policy.enabled === false && policy[k] === true)
        conflict(
          `passOver.pairs.${key}`,
          `enabled is false (no pass from ${from} to ${to}) but ${k} is true; remove ${k} or enable the pair`,
        );
    }
    if (policy.enabled === true && passOver.subagents?.[to]?.can_receive_passes === false)
      conflict(
        `passOver.pairs.${key}`,
        `enabled is true but passOver.subagents.${to}.can_receive_passes is false (${to} takes no passes); set one of them differently`,
      );
  }
  return out;
}

/** The problems of a passOver section that parsed, worst first (unknown agents, then conflicts); empty when usable. */
export function passOverProblems(config: Pick<AgentSyncConfig, 'passOver' | 'agentCapabilities' | 'humans'>): SectionProblem[] {
  return [...unknownAgents(config), ...conflicts(config.passOver)];
}
