// passOver: work passed to another agent, linked to the work it came from (docs/contract.md §6).
import { canPassOver } from '../../domain/lifecycle';
import { passOver as run } from '../actions/passOver';
import { paramSchemas } from '../requestParams';
import { defineAction } from './actionDefinition';
import { agentNames, said } from './confirmText';
import { displayAgent } from '../../domain/agentId';

export const passOver = defineAction({
  params: paramSchemas.passOver,
  readOnly: false,
  description:
    'Use when part of your work needs another agent (a review, tests, research): passes work from `agent` to another agent (`to`) with ' +
    'a reason and summary, creating a new handoff linked to handoffId (the work being passed on); `to` as a list of 2-5 agents fans the ' +
    'work out (one handoff each, answered as `handoffs`) and brings ONE joined return when the last has ended; return_required (default true) ' +
    'brings it back to you when done; phase and request (feature, spec_path, constraints, instructions, expected_output) say what the ' +
    'receiver should do; `override` may tighten the policy of .agentsync.json, never loosen it (E031). `context` ({ files, ' +
    'messages ≤ 20, tool_results ≤ 20 }, within max_context_size_bytes, default 256 KB, else E012) is handed to the receiver as data. ' +
    'Loops and pass-over policy refusals carry code E00x/E03x. Answers { handoff } (the new one; a fan-out also { handoffs }).',
  // The layout says where a work context is stored (actions/passContext.ts).
  prepare: (env) => Promise.resolve(env.layout),
  run: (tx, ctx, p, layout) => run(tx, ctx, { ...p, handoffId: p.handoffId ?? p.handoff_id, layout }),
  tool: {
    displayName: 'AgentSync: Pass Over',
    userDescription: 'Pass work to another agent; it returns to you when done.',
    icon: '$(export)',
    actsAsAgent: true,
    confirm: ({ request, target, as }) => {
      const to = Array.isArray(request.to) ? agentNames(request.to) : displayAgent(said(request.to, '?'));
      const why = request.reason ? ` (${said(request.reason, '')})` : '';
      return {
        title: `Pass work over to ${to}?`,
        message: `${as} passes ${target} to ${to} as a new handoff${why}: "${said(request.summary, '')}".`,
      };
    },
  },
  moves: [
    {
      name: 'pass',
      available: canPassOver,
      cli: { verb: 'pass', summary: 'pass work to another agent', handWritten: true },
      command: {
        id: 'agentsync.passOver',
        title: 'Pass Over to Another Agent…',
        label: 'Pass Over…',
        icon: 'export',
        group: '2_delegate@1',
      },
    },
  ],
});
