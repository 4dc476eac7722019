// reviewFiles: the reviewer of returned work accepts or rejects it file by file (docs/contract.md §6, "Per-file review").
import { canReviewFiles } from '../../domain/fileReview';
import { reviewFiles as run } from '../actions/reviewFiles';
import { handoffRefOf, paramSchemas } from '../requestParams';
import { defineAction } from './actionDefinition';

export const reviewFiles = defineAction({
  params: paramSchemas.reviewFiles,
  readOnly: false,
  description:
    'Use to review returned work file by file: as `agent` (the agent the work came back to, or a human) accept paths (`accept`) and ' +
    'reject others with a reason each (`reject: [{ path, reason }]`), naming only files its report lists (result.artifacts.file_modifications), ' +
    'each once. Decisions are final and add up across calls; when every file has one, all accepted approves the work and any rejected ' +
    'returns it to its receiver for revision. No file in any worktree changes. Answers { handoff, files, decided, outcome }.',
  run: (tx, ctx, p) => run(tx, ctx, { ref: handoffRefOf(p), accept: p.accept, reject: p.reject, expected_rev: p.expected_rev }),
  tool: {
    displayName: 'AgentSync: Review Files',
    userDescription: 'Accept or reject the files of work that came back to you, one by one.',
    icon: '$(checklist)',
    actsAsAgent: true,
    confirm: ({ request, target, as }) => ({
      title: `Review files of ${target}?`,
      message:
        `${as} accepts ${(request.accept as unknown[] | undefined)?.length ?? 0} and rejects ` +
        `${(request.reject as unknown[] | undefined)?.length ?? 0} file(s); any rejected file sends the work back for revision.`,
    }),
  },
  moves: [
    {
      name: 'acceptFile',
      available: canReviewFiles,
      cli: {
        verb: 'review',
        summary: "list returned work's files with their diffs, or accept/reject them (--accept <path>, --reject <path>=<reason>)",
        handWritten: true,
      },
      command: {
        id: 'agentsync.acceptFile',
        title: 'Accept File',
        label: 'Accept File',
        icon: 'check',
        group: '1_review@1',
        inline: true,
        on: 'file',
      },
    },
    {
      name: 'rejectFile',
      available: canReviewFiles,
      command: {
        id: 'agentsync.rejectFile',
        title: 'Reject File…',
        label: 'Reject File…',
        icon: 'close',
        group: '1_review@2',
        inline: true,
        on: 'file',
        prompts: [
          {
            param: 'reason',
            title: 'Reject {id}',
            prompt: 'Why reject this file? (its receiver is told)',
            requiredMessage: 'Give a reason, so the receiver knows what to change.',
            maxLength: 2_000,
          },
        ],
      },
    },
  ],
});
