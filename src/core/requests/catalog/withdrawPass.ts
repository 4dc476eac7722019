// withdrawPass: the originator of passed work (or a human) takes the pass back (docs/contract.md §6, "Withdraw").
import { canWithdraw } from '../../domain/withdrawal';
import { withdrawPass as run } from '../actions/withdrawPass';
import { handoffRefOf, paramSchemas } from '../requestParams';
import { defineAction } from './actionDefinition';

export const withdrawPass = defineAction({
  params: paramSchemas.withdrawPass,
  readOnly: false,
  description:
    'Use when work you passed over is no longer wanted: withdraws the pass handoffId as `agent` (the agent that passed it, or a human), ' +
    'with a reason the receiver is told. The pass ends `withdrawn` (final): no return is created and a later report of the receiver is ' +
    'refused `withdrawn`. Answers { handoff, told } (told: the agents told of it).',
  run: (tx, ctx, p) => run(tx, ctx, { ref: handoffRefOf(p), reason: p.reason, expected_rev: p.expected_rev }),
  tool: {
    displayName: 'AgentSync: Withdraw Pass',
    userDescription: 'Take back work you passed over to another agent.',
    icon: '$(circle-slash)',
    actsAsAgent: true,
    confirm: ({ ref, target, as }) => ({
      title: `Withdraw ${ref ?? 'a pass'}?`,
      message: `${as} withdraws ${target}: it ends withdrawn, its receiver is told and nothing comes back.`,
    }),
  },
  moves: [
    {
      name: 'withdraw',
      to: 'withdrawn',
      available: canWithdraw,
      cli: { verb: 'withdraw', summary: 'withdraw work you passed over (its receiver is told)', flags: ['reason'], required: ['reason'] },
      command: {
        id: 'agentsync.withdrawPass',
        title: 'Withdraw Pass…',
        label: 'Withdraw Pass…',
        icon: 'circle-slash',
        group: '2_delegate@3',
        prompts: [
          {
            param: 'reason',
            title: 'Withdraw {id}',
            prompt: 'Why withdraw it? (its receiver is told)',
            requiredMessage: 'Give a reason, so the receiver knows why its work was taken back.',
            maxLength: 2_000,
          },
        ],
        done: 'is withdrawn',
      },
    },
  ],
});
