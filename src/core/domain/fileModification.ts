// One file a receiver's report says it changed (docs/contract.md §6, "Per-file review"): `artifacts.file_modifications`
// of the completion report, and the reviewer's decision on it once made. The rules of the review are fileReview.ts.
import * as z from 'zod';
import { AGENT_ID_PATTERN } from './agentId';
import { workspaceRelativePath } from './workspacePath';

export const FILE_DECISIONS = ['accepted', 'rejected'] as const;
export type FileDecision = (typeof FILE_DECISIONS)[number];

/** The reviewer's answer on one file: `accepted` is the protocol's `applied`; a rejection says why. */
export const fileReviewSchema = z.strictObject({
  decision: z.enum(FILE_DECISIONS),
  by: z.string().regex(AGENT_ID_PATTERN),
  at: z.iso.datetime({ offset: true }),
  reason: z.string().min(1).max(2_000).optional(),
});

export const fileModificationSchema = z.strictObject({
  path: workspaceRelativePath,
  change: z.enum(['added', 'modified', 'deleted']),
  summary: z.string().max(2_000).optional(),
  review: fileReviewSchema.optional(),
});

export type FileReview = z.infer<typeof fileReviewSchema>;
export type FileModification = z.infer<typeof fileModificationSchema>;

/** The commit a report says its changes are on: a full git object id, so nothing a reader resolves is ambiguous. */
export const reportCommitSchema = z
  .string()
  .regex(/^[0-9a-f]{40}(?:[0-9a-f]{24})?$/, 'commit is a full git object id (40 or 64 hex digits)');
