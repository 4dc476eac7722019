// returnHandoff: passed-over work goes back to the agent that passed it (docs/contract.md §6).
import { returnHandoff as run, returnsToOriginator } from '../actions/returnHandoff';
import { handoffRefOf, paramSchemas } from '../requestParams';
import { defineAction } from './actionDefinition';

export const returnHandoff = defineAction({
  params: paramSchemas.returnHandoff,
  readOnly: false,
  description:
    'Use when you finished work that was passed over to you and it must go back to the agent that passed it: returns handoffId as ' +
    '`agent`, with an optional `result` (the same report as completeHandoff) and message. Answers { handoff, returned, notify } ' +
    '(returned: the new handoff back to the originator; notify: { agent, handoff } when the policy notifies on return, else null).',
  run: (tx, ctx, p) => run(tx, ctx, { ref: handoffRefOf(p), result: p.result, message: p.message, expected_rev: p.expected_rev }),
  tool: {
    displayName: 'AgentSync: Return Handoff',
    userDescription: 'Return passed-over work to the agent that passed it.',
    icon: '$(reply)',
    actsAsAgent: true,
    confirm: ({ ref, target, as }) => ({
      title: `Return ${ref ?? 'a handoff'}?`,
      message: `${as} returns ${target} to the agent that passed it over, as a new handoff back to them.`,
    }),
  },
  moves: [
    {
      name: 'return',
      available: returnsToOriginator,
      cli: { verb: 'return', summary: 'return passed-over work to the agent that passed it', handWritten: true },
      command: {
        id: 'agentsync.returnToOriginator',
        title: 'Return to Originator',
        label: 'Return to Originator',
        icon: 'arrow-left',
        group: '1_move@5',
      },
    },
  ],
});
