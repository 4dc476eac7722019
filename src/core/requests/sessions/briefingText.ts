// The briefing as text for an agent's context (the session-start hook, docs/agentsync-documentation.md "Hook packs").
import type { BriefHandoff, SessionBriefing } from './sessionBriefing';

function line(h: BriefHandoff): string {
  const held = h.claimed_by ? `, held by ${h.claimed_by}` : '';
  return `- ${h.handoff_id} [${h.status}${held}] from ${h.from_agent}: ${h.summary}${h.files.length ? ` (files: ${h.files.join(', ')})` : ''}`;
}

export function briefingText(b: SessionBriefing): string {
  const out = [`AgentSync briefing for ${b.agent} (this repository hands work over through AgentSync; see AGENTS.md).`];
  const list = (title: string, items: string[], none: string) => out.push('', `${title}:`, ...(items.length ? items : [`- ${none}`]));
  list('Your open handoffs', b.open.map(line), 'none');
  list('Claimable by you (claimHandoff before working on one)', b.claimable.map(line), 'none');
  list('Returned to you / waiting for your review', b.returns.map(line), 'none');
  list(
    'Latest decisions (decisions.md)',
    b.decisions.map((d) => `- ${d}`),
    'none yet',
  );
  list(
    'Held by other agents (leases)',
    b.leases.map((l) => `- ${l.handoff_id} held by ${l.claimed_by} until ${l.lease_expires_at ?? '?'}`),
    'none',
  );
  list(
    'Files other agents are working on (ask before editing)',
    b.hotFiles.map((f) => `- ${f.file} (${f.handoff_id}, ${f.agent})`),
    'none',
  );
  if (b.moved_ids?.length)
    list(
      'Ids a git merge moved in this clone (use the new id for the handoff you knew by the old one)',
      b.moved_ids.map(
        (m) =>
          `- ${m.id} is now ${m.moved_to} (uid ${m.uid})${m.now_names ? `; ${m.id} names the published ${m.holder_uid} from here on` : ''}`,
      ),
      'none',
    );
  out.push('', 'Before you stop: complete claimed work with a report (completeHandoff), pass it over, return it, or release it.');
  return out.join('\n');
}
