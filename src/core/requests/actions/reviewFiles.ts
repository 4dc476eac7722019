// reviewFiles: the reviewer of returned work accepts or rejects each file its report lists (docs/contract.md §6,
// "Per-file review"). Decisions are recorded on the report's file_modifications; once every file has one, all accepted
// approves the work and any rejected returns it to its receiver for revision (escalated past maxAttempts). Only the
// record changes: no file in any worktree.
import { ActionError } from '../../domain/errors';
import { formatNotice } from '../../domain/storeVersion';
import { planFileReview, rejectionReason, reportedFiles, withFiles, type FileVerdicts, type ReviewOutcome } from '../../domain/fileReview';
import type { FileModification } from '../../domain/fileModification';
import { storeVersionFor, type Handoff } from '../../domain/handoffSchema';
import { assertAuthority, isReturnedWork, legalTargets } from '../../domain/lifecycle';
import { assertNotWithdrawn } from '../../domain/withdrawal';
import { applyFieldChange, applyStatusChange, boundedReason, type ActionContext } from '../../store/handoffMutation';
import type { StoreTransaction } from '../../store/storeTransaction';
import { checkRevision, requireHandoff } from './findHandoff';
import { joinGroupIfDone } from './groupJoin';
import { reviseOrEscalate } from './transitionHandoff';

export interface ReviewFilesOutput {
  handoff: Handoff;
  /** Every file of the report with its decision so far. */
  files: FileModification[];
  /** The paths decided by this request. */
  decided: string[];
  /** pending: files still undecided; accepted: the work is approved; rejected: it went back for revision (or escalated). */
  outcome: ReviewOutcome;
  /** Set when this review first makes the store version 3 (docs/upgrading.md). */
  notice?: string;
  /** A fan-out's joined return, when an escalation ended the last child of its group. */
  returned?: Handoff;
}

export function reviewFiles(
  tx: StoreTransaction,
  ctx: ActionContext,
  p: FileVerdicts & { ref: string; expected_rev?: number },
): ReviewFilesOutput {
  const h = requireHandoff(tx, p.ref);
  assertNotWithdrawn(h);
  if (reportedFiles(h).length === 0) {
    throw new ActionError(
      'invalid_request',
      `${h.handoff_id}'s report lists no file modifications (result.artifacts.file_modifications), so there is nothing to review ` +
        'file by file; approve it or return it for revision as a whole.',
      { handoff_id: h.handoff_id },
    );
  }
  if (isReturnedWork(h)) {
    const pass = h.parent_uid ? tx.find(h.parent_uid) : undefined;
    throw new ActionError(
      'invalid_request',
      `${h.handoff_id} carries returned work back; its files are reviewed on the pass itself` +
        (pass ? ` (reviewFiles with handoffId ${pass.handoff_id}).` : '.'),
      { handoff_id: h.handoff_id, pass: pass?.handoff_id ?? null },
    );
  }
  if (h.status !== 'ready_for_review') {
    throw new ActionError(
      'illegal_transition',
      `${h.handoff_id} is ${h.status}: its files are reviewed only while it is ready_for_review` +
        (h.status === 'approved' || h.status === 'in_progress' ? ' (its review is over: it was approved or returned for revision).' : '.'),
      { from: h.status, to: 'approved', legal: legalTargets(h.status) },
    );
  }
  assertAuthority(h, 'originator', ctx.agent, tx.config.humans, 'review the files of');
  checkRevision(h, p.expected_rev);
  const plan = planFileReview(h, p, ctx.agent, tx.now().toISOString());
  const firstV3 = storeVersionFor(tx.handoffs) < 3;
  const result = withFiles(h.result!, plan.files);
  const said = `files reviewed: ${plan.decided.join(', ') || 'none new'}`;
  let handoff: Handoff;
  if (plan.outcome === 'accepted')
    handoff = applyStatusChange(tx, ctx, h, 'approved', boundedReason(`every file accepted (${said})`), { result });
  else if (plan.outcome === 'rejected') handoff = reviseOrEscalate(tx, ctx, h, rejectionReason(plan.files), { result });
  else if (plan.decided.length) handoff = applyFieldChange(tx, ctx, h, { result }, boundedReason(said));
  else handoff = h; // every file named was already decided the same way: nothing to write
  const returned = handoff.group && handoff.status === 'escalated' ? joinGroupIfDone(tx, ctx, handoff) : null;
  return {
    handoff,
    files: plan.files,
    decided: plan.decided,
    outcome: plan.outcome,
    ...(firstV3 && storeVersionFor(tx.handoffs) === 3 ? { notice: REVIEW_FORMAT_NOTICE } : {}),
    ...(returned ? { returned } : {}),
  };
}

const REVIEW_FORMAT_NOTICE = formatNotice(
  3,
  'it records a per-file review, which earlier AgentSync builds cannot read. Upgrade AgentSync in every clone of this ' +
    'repository (docs/upgrading.md).',
);
