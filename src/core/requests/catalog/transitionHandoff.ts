// transitionHandoff: any legal move of the lifecycle (docs/contract.md §4), and the moves people name: approve, revise,
// merge, block, release, escalate.
import { allowsMove, canEscalate } from '../../domain/lifecycle';
import { MAX_SKIP_REASON, skipReason } from '../../domain/skipReason';
import type { Handoff } from '../../domain/handoffSchema';
import { transitionHandoff as run } from '../actions/transitionHandoff';
import { handoffRefOf, paramSchemas } from '../requestParams';
import { defineAction, type MoveDefinition } from './actionDefinition';

/** A move that is one transition, offered where the lifecycle's move of that name starts. */
function transition(
  name: string,
  lifecycleVerb: string,
  to: MoveDefinition['to'],
  rest: Omit<MoveDefinition, 'name' | 'available' | 'fixed' | 'to'>,
) {
  return { name, to, fixed: { to }, available: (h: Handoff) => allowsMove(h.status, lifecycleVerb), ...rest } satisfies MoveDefinition;
}

/** The longest reason the editor's prompts take. */
const REASON_MAX = 2_000;

export const transitionHandoff = defineAction({
  params: paramSchemas.transitionHandoff,
  readOnly: false,
  description:
    'Move a handoff to another status (`to`: queued, in_progress, blocked, ready_for_review, approved, merged, escalated) as `agent`, ' +
    'with an optional reason. Illegal moves are refused. Answers { handoff }.',
  run: (tx, ctx, p) => run(tx, ctx, { ref: handoffRefOf(p), to: p.to, reason: p.reason, expected_rev: p.expected_rev }),
  moves: [
    transition('approve', 'approve', 'approved', {
      cli: { verb: 'approve', summary: 'approve a handoff that is ready for review', flags: ['reason'] },
      command: {
        id: 'agentsync.approveHandoff',
        title: 'Approve Handoff',
        label: 'Approve',
        icon: 'pass',
        group: '1_move@3',
        inline: true,
        done: 'is approved',
      },
      dashboard: { order: 4, hint: 'accept the reviewed work' },
    }),
    transition('revise', 'return_for_revision', 'in_progress', {
      cli: { verb: 'revise', summary: 'return a handoff in review for revision (escalates past maxAttempts)', flags: ['reason'] },
      command: {
        id: 'agentsync.requestRevision',
        title: 'Return for Revision',
        label: 'Return for Revision',
        icon: 'reply',
        group: '1_move@4',
        prompts: [
          {
            param: 'reason',
            title: 'Return {id} for revision',
            prompt: 'What must change? (the owner sees this)',
            requiredMessage: 'Say what must change.',
            maxLength: REASON_MAX,
          },
        ],
      },
    }),
    transition('merge', 'merge', 'merged', { cli: { verb: 'merge', summary: 'mark an approved handoff merged', flags: ['reason'] } }),
    transition('block', 'block', 'blocked', { cli: { verb: 'block', summary: 'park a handoff as blocked', flags: ['reason'] } }),
    {
      // A queued handoff its owner will not take (domain/skipReason.ts).
      name: 'skip',
      to: 'blocked',
      fixed: { to: 'blocked' },
      available: (h: Handoff) => h.status === 'queued' && allowsMove(h.status, 'block'),
      command: {
        id: 'agentsync.skipHandoff',
        title: 'Skip Handoff…',
        label: 'Skip',
        icon: 'debug-step-over',
        group: '2_escalate@2',
        on: 'palette',
        prompts: [
          {
            param: 'reason',
            title: 'Skip {id}',
            prompt: 'Why skip it? (it becomes blocked for a human to route; recorded in its history)',
            requiredMessage: 'Give a reason, so whoever routes it next knows why.',
            maxLength: MAX_SKIP_REASON,
            format: skipReason,
          },
        ],
        done: 'is skipped (blocked for a human to route)',
      },
      dashboard: { order: 5, hint: 'park it as blocked, with a reason, for a human to route' },
    },
    transition('release', 'release', 'queued', {
      cli: { verb: 'release', summary: 'give a claimed handoff back to the queue', flags: ['reason'] },
    }),
    {
      name: 'escalate',
      to: 'escalated',
      fixed: { to: 'escalated' },
      available: canEscalate,
      cli: { verb: 'escalate', summary: 'escalate a handoff to humans', flags: ['reason'] },
      command: {
        id: 'agentsync.escalateHandoff',
        title: 'Escalate Handoff',
        label: 'Escalate',
        icon: 'flame',
        group: '2_escalate@1',
        prompts: [
          {
            param: 'reason',
            title: 'Escalate {id}',
            prompt: 'Why escalate? (recorded in the history and decisions.md)',
            requiredMessage: 'Give a reason.',
            maxLength: REASON_MAX,
          },
        ],
        done: 'is escalated',
      },
    },
  ],
});
