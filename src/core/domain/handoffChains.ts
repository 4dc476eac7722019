// Chains of delegated work (docs/agentsync-documentation.md, "Pass-over delegation"): a handoff passed on from
// another, or carrying its result back, names it in `parent_uid`. One index of those links serves the tree, the
// tooltip, the history document and the tracker's diagrams, so they all agree on what a chain is.
import { displayAgent } from './agentId';
import { isReturnedWork } from './lifecycle';
import type { Handoff } from './handoffSchema';

/** How a handoff came from its parent: passed on to another agent, or its result carried back. */
export type ChainLinkKind = 'pass' | 'return';

export interface ChainIndex {
  /** Handoffs by uid. */
  byUid: ReadonlyMap<string, Handoff>;
  /** The handoffs whose parent_uid names this uid, in store order. */
  children: ReadonlyMap<string, readonly Handoff[]>;
}

/**
 * O(n). Not cached here: a snapshot's list is edited in place during a write, so callers cache per view they own
 * (the editor per folder view, which is rebuilt after every change).
 */
export function chainIndex(handoffs: readonly Handoff[]): ChainIndex {
  const byUid = new Map<string, Handoff>();
  const children = new Map<string, Handoff[]>();
  for (const h of handoffs) if (h.uid) byUid.set(h.uid, h);
  for (const h of handoffs) {
    if (!h.parent_uid || h.parent_uid === h.uid) continue;
    const list = children.get(h.parent_uid);
    if (list) list.push(h);
    else children.set(h.parent_uid, [h]);
  }
  return { byUid, children };
}

export function linkKind(child: Handoff): ChainLinkKind {
  return isReturnedWork(child) ? 'return' : 'pass';
}

/** The parent a handoff was passed on from (or returned from), when it is still in the store. */
export function parentOf(h: Handoff, index: ChainIndex): Handoff | undefined {
  return h.parent_uid ? index.byUid.get(h.parent_uid) : undefined;
}

/** The first handoff of the chain `h` is in (itself when it has no parent in the store). A parent loop stops the walk. */
export function chainRoot(h: Handoff, index: ChainIndex): Handoff {
  const seen = new Set<Handoff>([h]);
  let at = h;
  for (let up = parentOf(at, index); up && !seen.has(up); up = parentOf(at, index)) {
    seen.add(up);
    at = up;
  }
  return at;
}

export interface ChainLink {
  from: Handoff;
  to: Handoff;
  kind: ChainLinkKind;
}

/** Every handoff of the chain under `root` (depth first, store order) and the links between them. */
export function chainFrom(root: Handoff, index: ChainIndex): { members: Handoff[]; links: ChainLink[] } {
  const members: Handoff[] = [];
  const links: ChainLink[] = [];
  const seen = new Set<Handoff>([root]);
  // Iterative depth first: follow-ups may make a chain far deeper than the call stack.
  const stack: Handoff[] = [root];
  while (stack.length) {
    const h = stack.pop()!;
    members.push(h);
    const kids = ((h.uid && index.children.get(h.uid)) || []).filter((c) => !seen.has(c)); // a corrupted store may loop
    for (const c of kids) {
      seen.add(c);
      links.push({ from: h, to: c, kind: linkKind(c) });
    }
    for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]);
  }
  return { members, links };
}

/** The chain `h` belongs to, whole: from its first handoff down. */
export function chainOf(h: Handoff, handoffs: readonly Handoff[]): { members: Handoff[]; links: ChainLink[] } {
  const index = chainIndex(handoffs);
  return chainFrom(chainRoot(h, index), index);
}

/**
 * The chain around `h` in words, one plain line each: the agents so far (`chain`), where it came from, whom it
 * returns to, and what was passed on or returned from it. Empty for a handoff that is in no chain.
 */
export function chainLines(h: Handoff, index: ChainIndex): string[] {
  const who = (x: Handoff) =>
    `${x.handoff_id} (${x.to_agents.map(displayAgent).join(', ') || 'unassigned'}, ${x.status.replace(/_/g, ' ')})`;
  const lines: string[] = [];
  if (h.chain?.length) lines.push(`agents: ${h.chain.map(displayAgent).join(' → ')}`);
  const parent = parentOf(h, index);
  if (parent) lines.push(`${linkKind(h) === 'return' ? 'returned from' : 'passed on from'} ${who(parent)}`);
  else if (h.parent_uid) lines.push(`follows ${h.parent_uid} (no longer in the store)`);
  if (h.return_to) lines.push(`returns to ${displayAgent(h.return_to)}`);
  for (const c of (h.uid && index.children.get(h.uid)) || [])
    lines.push(`${linkKind(c) === 'return' ? 'returned as' : 'passed on to'} ${who(c)}`);
  return lines;
}
