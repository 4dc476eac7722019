// The chains of AgentTracker.md's `## Agent Handoffs` section drawn as Mermaid flowcharts
// (docs/agentsync-documentation.md, "The tracker"): one ```mermaid block per chain with two links or more
// (a pass and its return, or two passes); a single pass is plain enough in the list above it.
// Labels hold only handoff ids, agent ids and statuses, whose schemas allow no character Mermaid or Markdown reads.
import { chainFrom, chainIndex, chainRoot, type ChainLink } from './handoffChains';
import type { Handoff } from './handoffSchema';

export const CHAINS_HEADING = '### Chains';
/** Fewer links than this and a chain gets no diagram. */
export const MIN_DIAGRAM_LINKS = 2;

/** `HO-20260221-001` → `HO_20260221_001`: a Mermaid node id (a `-` could read as part of an arrow). */
function nodeId(h: Handoff): string {
  return h.handoff_id.replace(/-/g, '_');
}

function nodeLine(h: Handoff): string {
  const owners = h.to_agents.length ? h.to_agents.join(', ') : 'unassigned';
  return `  ${nodeId(h)}["${h.handoff_id}<br/>${owners}: ${h.status.replace(/_/g, ' ')}"]`;
}

function edgeLine(l: ChainLink): string {
  return `  ${nodeId(l.from)} -->|${l.kind}| ${nodeId(l.to)}`;
}

/** The chains to draw, in the store order of their first handoff. */
export function diagramChains(handoffs: readonly Handoff[]): { members: Handoff[]; links: ChainLink[] }[] {
  // Every write renders the tracker: index only the handoffs in a chain (those with a parent, and the parents they
  // name), so a store of unlinked work costs one pass over it.
  const parents = new Set<string>();
  for (const h of handoffs) if (h.parent_uid && h.parent_uid !== h.uid) parents.add(h.parent_uid);
  if (parents.size === 0) return [];
  const linked = handoffs.filter((h) => (h.parent_uid && h.parent_uid !== h.uid) || (h.uid && parents.has(h.uid)));
  const index = chainIndex(linked);
  const out: { members: Handoff[]; links: ChainLink[] }[] = [];
  for (const h of linked) {
    if (!h.uid || !index.children.has(h.uid) || chainRoot(h, index) !== h) continue;
    const chain = chainFrom(h, index);
    if (chain.links.length >= MIN_DIAGRAM_LINKS) out.push(chain);
  }
  return out;
}

/** The `### Chains` block's lines (none when no chain qualifies): a fenced Mermaid flowchart per chain. */
export function renderChainDiagrams(handoffs: readonly Handoff[]): string[] {
  const chains = diagramChains(handoffs);
  if (chains.length === 0) return [];
  const lines = [CHAINS_HEADING];
  for (const c of chains) lines.push('', '```mermaid', 'flowchart LR', ...c.members.map(nodeLine), ...c.links.map(edgeLine), '```');
  return lines;
}
