// clearConflicts: a person accepts what a git merge of the store chose (docs/contract.md §12).
import { clearConflicts as run } from '../actions/clearConflicts';
import { handoffRefOf, paramSchemas } from '../requestParams';
import { defineAction } from './actionDefinition';

export const clearConflicts = defineAction({
  params: paramSchemas.clearConflicts,
  readOnly: false,
  description:
    'Clear the merge conflicts recorded on a handoff (its `conflicts`: what a git merge of the store could not decide on its own), ' +
    'after a person checked what the merge chose. Only a human agent may; others are refused with not_assigned. Answers { handoff, cleared }.',
  run: (tx, ctx, p) => run(tx, ctx, { ref: handoffRefOf(p), expected_rev: p.expected_rev }),
  moves: [
    {
      name: 'clearConflicts',
      available: (h) => (h.conflicts?.length ?? 0) > 0,
      command: {
        id: 'agentsync.clearConflicts',
        title: 'Clear Merge Conflicts',
        label: 'Clear Merge Conflicts',
        icon: 'check-all',
        group: '1_move@1',
        inline: true,
        on: 'conflict',
      },
    },
  ],
});
