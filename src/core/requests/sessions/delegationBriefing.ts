// What a briefing says about delegation beyond the lists of handoffs (docs/contract.md §6): fan-outs whose join a
// blocked child holds for a human, and the work contexts of passes to the agent. Lines are built from records other agents wrote, so they are shown as data.
import { foldAgentText } from '../../domain/agentText';
import { isTerminal, type Handoff } from '../../domain/handoffSchema';
import { contextSummary, type WorkContext } from '../../domain/workContext';

/** For `agent`'s fan-outs not joined yet: each child blocked (STOP / CLARIFY) that holds the join until a human acts. */
export function heldJoins(handoffs: readonly Handoff[], agent: string): string[] {
  const joined = new Set(handoffs.filter((h) => h.group?.join).map((h) => h.group!.id));
  const lines: string[] = [];
  for (const h of handoffs) {
    if (!h.group || h.group.join || joined.has(h.group.id) || h.return_to !== agent || h.status !== 'blocked') continue;
    const why = h.state_history[h.state_history.length - 1]?.reason ?? 'blocked';
    lines.push(
      `- ${h.handoff_id} (${foldAgentText(h.to_agents[0] ?? '?', 64)}, one of ${h.group.size} parallel passes) is blocked: ` +
        `${foldAgentText(why, 200)}; its group's joined return waits until a human unblocks or escalates it`,
    );
  }
  return lines;
}

/** The work context of each open pass to `agent` (passContext.ts), summarized: another agent's data, at most 10 passes. */
export function passContexts(handoffs: readonly Handoff[], agent: string, read: (uid: string) => WorkContext | null): string[] {
  const lines: string[] = [];
  for (const h of handoffs) {
    if (lines.length >= 10 || !h.uid || !h.return_to || isTerminal(h.status) || !h.to_agents.includes(agent)) continue;
    const context = read(h.uid);
    if (!context) continue;
    const parts = contextSummary(context).map((l) => foldAgentText(l, 200));
    lines.push(`- ${h.handoff_id} from ${foldAgentText(h.from_agent, 64)}: ${parts.join(' | ')}`);
  }
  return lines;
}

/** What each pass to `agent` lets it do, when its policy limits it (docs/contract.md §6, "What a receiver may do"). */
export function passLimits(handoffs: readonly Handoff[], agent: string): string[] {
  const lines: string[] = [];
  for (const h of handoffs) {
    const p = h.policy;
    if (!p || isTerminal(h.status) || !h.return_to || !h.to_agents.includes(agent)) continue;
    const limits = [
      ...(p.can_run_tools === false
        ? ['can_run_tools: false (only AgentSync itself: its MCP tools, `agentsync …`, .agentsync/requests/)']
        : []),
      ...(p.can_modify_files === false
        ? ['can_modify_files: false (read-only: no file writes, no shell commands but `agentsync …` and read-only ones)']
        : []),
      ...(p.max_compute_time_ms ? [`max_compute_time_ms: ${p.max_compute_time_ms} (the lease of a claim)`] : []),
      ...(p.validate_output && p.output_schema
        ? ["validate_output: the report's findings must fit its output_schema (agentsync show --json)"]
        : []),
    ];
    if (limits.length)
      lines.push(`- ${h.handoff_id}: ${limits.join('; ')}; your pre-tool hook refuses the rest with E013 PERMISSION_DENIED`);
    if (lines.length >= 10) break;
  }
  return lines;
}
