// assignHandoff: a human routes work nobody could be routed to (docs/contract.md §5).
import { awaitsAssignment } from '../../domain/lifecycle';
import { assignHandoff as run } from '../actions/assignHandoff';
import { handoffRefOf, paramSchemas } from '../requestParams';
import { defineAction } from './actionDefinition';

export const assignHandoff = defineAction({
  params: paramSchemas.assignHandoff,
  readOnly: false,
  description:
    'Assign a blocked or queued handoff to one agent (single) or two (shared) in to_agents, as a human `agent` ("human" or one in ' +
    'humans of .agentsync.json); a blocked handoff moves to queued. Others are refused with not_assigned. Answers { handoff }.',
  run: (tx, ctx, p) => run(tx, ctx, { ref: handoffRefOf(p), to_agents: p.to_agents, reason: p.reason, expected_rev: p.expected_rev }),
  moves: [
    {
      name: 'assign',
      available: awaitsAssignment,
      cli: { verb: 'assign', summary: 'assign a handoff to one or two agents (humans only)', handWritten: true },
      command: {
        id: 'agentsync.assignHandoff',
        title: 'Assign Handoff…',
        label: 'Assign…',
        icon: 'person-add',
        group: '1_move@6',
        inline: true,
      },
      dashboard: { order: 6, hint: 'nobody could be routed to it: a human picks its owners' },
    },
  ],
});
