// claimHandoff: first claimer wins (docs/contract.md §4).
import { allowsMove } from '../../domain/lifecycle';
import { claimHandoff as run } from '../actions/claimHandoff';
import { handoffRefOf, paramSchemas } from '../requestParams';
import { defineAction } from './actionDefinition';

export const claimHandoff = defineAction({
  params: paramSchemas.claimHandoff,
  readOnly: false,
  description:
    'Use before you start on a queued handoff (handoffId from listHandoffs or status), so no other agent works on it at the same ' +
    'time: claims it for `agent` and moves it to in_progress, held with a lease. Refused with reason already_claimed and claimedBy ' +
    'when another agent holds it: then pick other work. expected_rev guards against a stale read. Answers { handoff }.',
  run: (tx, ctx, p) => run(tx, ctx, { ref: handoffRefOf(p), expected_rev: p.expected_rev }),
  tool: {
    displayName: 'AgentSync: Claim Handoff',
    userDescription: 'Claim a queued AgentSync handoff.',
    icon: '$(arrow-circle-down)',
    actsAsAgent: true,
    confirm: ({ ref, target, as }) => ({
      title: `Claim ${ref ?? 'a handoff'}?`,
      message: `${target} moves to in progress, held by ${as}, in .agentsync/handoffs.json.`,
    }),
  },
  moves: [
    {
      name: 'claim',
      available: (h) => allowsMove(h.status, 'claim'),
      cli: { verb: 'claim', summary: 'claim a queued handoff (first claimer wins)', done: 'claimed' },
      command: {
        id: 'agentsync.claimHandoff',
        title: 'Claim Handoff',
        label: 'Claim',
        icon: 'arrow-circle-down',
        group: '1_move@1',
        inline: true,
        done: 'you ({me}) hold {id} now',
      },
      dashboard: { order: 1, hint: 'take it: it becomes in progress, held by you' },
    },
  ],
});
