// createHandoff: work one agent leaves for another (docs/contract.md §8).
import { createHandoff as run } from '../actions/createHandoff';
import { paramSchemas } from '../requestParams';
import { defineAction } from './actionDefinition';
import { agentNames, said } from './confirmText';

export const createHandoff = defineAction({
  params: paramSchemas.createHandoff,
  readOnly: false,
  description:
    'Use when you stop before a piece of work is done and another agent or a person should pick it up, or when the user asks you to ' +
    'hand work over. Creates a handoff: `handoff` holds from_agent, owner_mode (single: one to_agents entry; shared: several; ' +
    'auto: routed by required_capabilities), summary (what to do, one line), and optionally notes, files (workspace-relative), task_id, ' +
    'branch, commit, priority (low|medium|high), phase and request (feature, spec_path, constraints, instructions, expected_output). ' +
    "A [pass_over: x] … Reason: … or [return_to: y] tag in the summary or notes acts like that pass or return; the answer's `tag` " +
    'says whether it was accepted. Answers { handoff } with its handoff_id (HO-YYYYMMDD-NNN).',
  run: (tx, ctx, p) => run(tx, ctx, p),
  tool: {
    displayName: 'AgentSync: Create Handoff',
    userDescription: 'Leave work for another agent or a person as an AgentSync handoff.',
    icon: '$(note)',
    actsAsAgent: true,
    confirm: ({ request }) => {
      const h = (request.handoff ?? {}) as Record<string, unknown>;
      const to = Array.isArray(h.to_agents) && h.to_agents.length ? agentNames(h.to_agents) : 'routed by capabilities';
      return {
        title: 'Create an AgentSync handoff?',
        message:
          `A new handoff from ${agentNames([h.from_agent])} to ${to} (${said(h.owner_mode, '?')}): "${said(h.summary, '')}". ` +
          'It is written to .agentsync/handoffs.json and AgentTracker.md.',
      };
    },
  },
});
