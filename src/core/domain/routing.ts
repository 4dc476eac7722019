// Routing (docs/contract.md §5): who receives a handoff, from explicit targets or from capabilities.
import type { AgentSyncConfig } from './configSchema';
import type { Handoff, OwnerMode } from './handoffSchema';

export type RoutingOutcome =
  | { kind: 'routed'; owner_mode: Exclude<OwnerMode, 'auto'>; to_agents: string[]; explanation: string }
  | { kind: 'unroutable'; missing: string[]; explanation: string };

/** Load = in_progress handoffs an agent owns; the tie-breaker of rule 5. */
export function loadByAgent(handoffs: readonly Handoff[]): Map<string, number> {
  const load = new Map<string, number>();
  for (const h of handoffs) {
    if (h.status !== 'in_progress') continue;
    for (const a of h.to_agents) load.set(a, (load.get(a) ?? 0) + 1);
  }
  return load;
}

export function routeByCapabilities(
  required: readonly string[],
  config: AgentSyncConfig,
  load: ReadonlyMap<string, number>,
): RoutingOutcome {
  const agents = Object.keys(config.agentCapabilities);
  const caps = (a: string) => new Set(config.agentCapabilities[a]);
  const covers = (set: Set<string>) => required.every((c) => set.has(c));
  const weight = (a: string) => load.get(a) ?? 0;

  // Rules 3 and 5: one agent covers everything; several → lowest load, then config order (sort is stable).
  const full = agents.filter((a) => covers(caps(a)));
  if (full.length > 0) {
    const chosen = [...full].sort((a, b) => weight(a) - weight(b))[0];
    const why =
      full.length === 1
        ? `routed automatically: ${chosen} is the only agent with ${required.join(', ')}`
        : `routed automatically: ${full.join(', ')} all have ${required.join(', ')}; ${chosen} has the fewest in-progress handoffs (${weight(chosen)})`;
    return { kind: 'routed', owner_mode: 'single', to_agents: [chosen], explanation: why };
  }

  // Rule 4: no single agent, but a pair together; lowest combined load, then config order.
  let best: { pair: [string, string]; load: number } | null = null;
  for (let i = 0; i < agents.length; i++) {
    for (let j = i + 1; j < agents.length; j++) {
      const union = new Set([...caps(agents[i]), ...caps(agents[j])]);
      if (!covers(union)) continue;
      const combined = weight(agents[i]) + weight(agents[j]);
      if (!best || combined < best.load) best = { pair: [agents[i], agents[j]], load: combined };
    }
  }
  if (best) {
    return {
      kind: 'routed',
      owner_mode: 'shared',
      to_agents: best.pair,
      explanation: `routed automatically: no single agent has ${required.join(', ')}; ${best.pair.join(' and ')} together do`,
    };
  }

  // Rule 6: nobody (alone or in a pair) can; say which capabilities nobody has at all.
  const everyone = new Set(agents.flatMap((a) => config.agentCapabilities[a]));
  const missing = required.filter((c) => !everyone.has(c));
  const explanation =
    missing.length > 0
      ? `unroutable: no configured agent has ${missing.join(', ')}; a human must assign owners`
      : `unroutable: no one agent or pair of agents covers ${required.join(', ')}; a human must assign owners`;
  return { kind: 'unroutable', missing, explanation };
}
