// The one line a zero-touch End Session copies for the next agent (docs/agentsync-documentation.md, "Zero-touch
// sessions"): paste it into that agent's chat and it knows what to pick up and the command that claims it.
import type { Handoff } from '../../domain/handoffSchema';

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

export function pickUpPrompt(h: Handoff, repo: string): string {
  const ref = h.uid ?? h.handoff_id;
  const what = oneLine(h.summary, 200);
  if (h.status !== 'queued' || h.to_agents.length === 0)
    return `Handoff ${ref} in ${repo} needs an owner (${h.status}): ${what} — a human runs \`agentsync assign ${ref} --to <agent> --agent human\``;
  if (h.to_agents.length === 1)
    return `Pick up handoff ${ref} in ${repo}: ${what} — run \`agentsync claim ${ref} --agent ${h.to_agents[0]}\``;
  return `Pick up handoff ${ref} in ${repo}: ${what} — run \`agentsync claim ${ref}\` as ${h.to_agents.join(' or ')}`;
}
