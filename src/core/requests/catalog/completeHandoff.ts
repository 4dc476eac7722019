// completeHandoff: the receiver's report ends the work (docs/contract.md §6).
import { allowsMove } from '../../domain/lifecycle';
import { completeHandoff as run } from '../actions/completeHandoff';
import { handoffRefOf, paramSchemas } from '../requestParams';
import { defineAction } from './actionDefinition';

export const completeHandoff = defineAction({
  params: paramSchemas.completeHandoff,
  readOnly: false,
  description:
    'Use when you finished (or must stop) the work of a handoff you claimed: finishes it as `agent`, optionally with the protocol ' +
    "report `result` {status: complete|partial|blocked, decision: PROCEED|STOP|CLARIFY, findings in the shape of the handoff's phase, " +
    'context_summary: what you did and what is left, at most 500 tokens}. PROCEED moves it to ready_for_review; STOP or CLARIFY blocks ' +
    'it for a human. A report over its limits is refused with E012 CONTEXT_OVERFLOW, a missing or misshapen one with E021 ' +
    'INVALID_WORK_OUTPUT. Answers { handoff }.',
  run: (tx, ctx, p) => run(tx, ctx, { ref: handoffRefOf(p), result: p.result, expected_rev: p.expected_rev }),
  tool: {
    displayName: 'AgentSync: Complete Handoff',
    userDescription: 'Finish a claimed AgentSync handoff with a report.',
    icon: '$(check)',
    actsAsAgent: true,
    confirm: ({ request, ref, target, as }) => {
      const decision = (request.result as { decision?: string } | undefined)?.decision ?? 'PROCEED';
      const next = decision === 'PROCEED' ? 'ready for review' : 'blocked, for a human';
      return {
        title: `Complete ${ref ?? 'a handoff'}?`,
        message: `${as} completes ${target} with decision ${decision}: it moves to ${next}.`,
      };
    },
  },
  moves: [
    {
      name: 'complete',
      available: (h) => allowsMove(h.status, 'complete'),
      cli: {
        verb: 'complete',
        summary: 'complete a handoff you hold, optionally with the protocol report (docs/contract.md §6)',
        done: 'completed',
        handWritten: true,
      },
      command: {
        id: 'agentsync.completeHandoff',
        title: 'Complete Handoff',
        label: 'Complete',
        icon: 'check',
        group: '1_move@2',
        inline: true,
      },
      dashboard: { order: 3, hint: 'report it done (or blocked) and send it on' },
    },
  ],
});
