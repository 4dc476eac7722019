// snoozeHandoff: hide an open handoff from "Assigned to me" and the stale badge until a time (docs/contract.md §8). The
// work stays open and anyone may still act on it; the snooze ends by itself, or early with a new snooze.
import * as z from 'zod';
import { ActionError } from '../../domain/errors';
import { isTerminal } from '../../domain/handoffSchema';
import { assertAuthority } from '../../domain/lifecycle';
import { snoozeEnd } from '../../domain/snoozeTime';
import { applyFieldChange } from '../../store/handoffMutation';
import { checkRevision, requireHandoff } from '../actions/findHandoff';
import { agentParam, expectedRev, handoffRefOf, withHandoffRef } from '../requestParams';
import { defineAction } from './actionDefinition';

export const snoozeHandoff = defineAction({
  params: () => withHandoffRef({ agent: agentParam(), until: z.string().min(1).max(64), ...expectedRev() }),
  readOnly: false,
  description:
    'Use when a handoff assigned to you cannot move before a later time (waiting on someone, a release, a review slot): snoozes it as ' +
    '`agent` until `until`, an ISO time with its offset or a duration from now (30m, 2h, 1d, 1w; at most 30 days). It leaves ' +
    '"Assigned to me" and the stale badge until then and comes back by itself; it stays open and keeps its status. Answers { handoff } ' +
    'with snoozed_until.',
  run: (tx, ctx, p) => {
    const h = requireHandoff(tx, handoffRefOf(p));
    if (isTerminal(h.status))
      throw new ActionError('illegal_transition', `${h.handoff_id} is ${h.status}; only open work can be snoozed.`, {
        handoff_id: h.handoff_id,
        status: h.status,
      });
    assertAuthority(h, 'involved', ctx.agent, tx.config.humans, 'snooze');
    checkRevision(h, p.expected_rev);
    const until = snoozeEnd(p.until, tx.now());
    return { handoff: applyFieldChange(tx, ctx, h, { snoozed_until: until }, `snoozed until ${until}`) };
  },
  tool: {
    displayName: 'AgentSync: Snooze Handoff',
    userDescription: 'Hide an AgentSync handoff from "Assigned to me" until a time.',
    icon: '$(clock)',
    actsAsAgent: true,
    confirm: ({ request, ref, target, as }) => ({
      title: `Snooze ${ref ?? 'a handoff'}?`,
      message: `${as} snoozes ${target} until ${typeof request.until === 'string' ? request.until : '?'}: it leaves "Assigned to me" until then.`,
    }),
  },
  moves: [
    {
      name: 'snooze',
      available: (h) => !isTerminal(h.status),
      cli: {
        verb: 'snooze',
        summary: 'hide a handoff from "Assigned to me" and the stale badge until --until (an ISO time, or 30m, 2h, 1d, 1w)',
        flags: ['until'],
        required: ['until'],
        done: 'snoozed',
      },
      command: {
        id: 'agentsync.snoozeHandoff',
        title: 'Snooze Handoff…',
        label: 'Snooze…',
        icon: 'clock',
        group: '2_snooze@1',
        prompts: [
          {
            param: 'until',
            title: 'Snooze {id}',
            prompt: 'Until when? A duration (30m, 2h, 1d, 1w) or an ISO time such as 2026-11-27T09:00:00Z',
            requiredMessage: 'Say until when.',
            maxLength: 64,
          },
        ],
        done: 'is snoozed: it is back in "Assigned to me" when the snooze ends',
      },
    },
  ],
});
