// listHandoffs: a page of handoffs, filtered (docs/contract.md §8). Read-only.
import { listHandoffs as run } from '../actions/listHandoffs';
import { paramSchemas } from '../requestParams';
import { defineAction } from './actionDefinition';

export const listHandoffs = defineAction({
  params: paramSchemas.listHandoffs,
  readOnly: true,
  description:
    'Use to see what work is waiting in this repository before you start, or to find a handoff_id: lists handoffs, optionally ' +
    'filtered by status (queued, in_progress, blocked, ready_for_review, approved, merged, escalated; one or several), agent (owned by / ' +
    'assigned to), open (true: not merged or escalated) or handoffId (one handoff). archived: true also searches the archive, where ' +
    'finished handoffs go after archive.after_days. Read-only. Answers a page: { count, handoffs, total, next_cursor } in creation ' +
    'order, at most `limit` (default 50) compact records (handoff_id, status, owners, claimed_by, summary, age); `full: true` gives the ' +
    'stored records. While next_cursor is there, call again with cursor: next_cursor (and the same filters) for the next page. Every ' +
    'answer is at most 64 KB: a page that would be larger is cut and says so (cut_to_fit). One handoff in full: handoffId with full: true.',
  run: (tx, _ctx, p) => run(tx, p),
  tool: {
    displayName: 'AgentSync: List Handoffs',
    userDescription: 'List the AgentSync handoffs of this workspace.',
    icon: '$(list-unordered)',
    actsAsAgent: false,
  },
});
