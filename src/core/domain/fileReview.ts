// Per-file review of returned work (docs/contract.md §6, "Per-file review"): the reviewer accepts or rejects each file
// the receiver's report lists (`artifacts.file_modifications`). Decisions accumulate until every file has one; then all
// accepted is the approval of the work, and any rejected is its return for revision. No file in any worktree changes.
// The rules are pure; the action is requests/actions/reviewFiles.ts.
import { ActionError } from './errors';
import type { FileDecision, FileModification } from './fileModification';
import type { CompletionResult, Handoff } from './handoffSchema';
import { isReturnedWork } from './lifecycle';

export interface FileVerdicts {
  accept: readonly string[];
  reject: readonly { path: string; reason: string }[];
}

/** What a review comes to: files still undecided (`pending`), every file accepted, or some rejected. */
export type ReviewOutcome = 'pending' | 'accepted' | 'rejected';

export interface ReviewPlan {
  files: FileModification[];
  /** The paths this review decided now (a file decided the same way before is not among them). */
  decided: string[];
  outcome: ReviewOutcome;
}

/** The files a handoff's report lists. */
export function reportedFiles(h: Pick<Handoff, 'result'>): readonly FileModification[] {
  return h.result?.artifacts?.file_modifications ?? [];
}

/**
 * Whether the handoff waits for a review of its files now: returned for review, with a listed file not yet decided. The
 * handoff that carries passed work back holds a copy of the report: the files are reviewed on the pass itself.
 */
export function canReviewFiles(h: Handoff): boolean {
  return h.status === 'ready_for_review' && !isReturnedWork(h) && reportedFiles(h).some((f) => !f.review);
}

export function outcomeOf(files: readonly FileModification[]): ReviewOutcome {
  if (files.some((f) => f.review?.decision === 'rejected')) return files.some((f) => !f.review) ? 'pending' : 'rejected';
  return files.every((f) => f.review?.decision === 'accepted') ? 'accepted' : 'pending';
}

function refuse(message: string, details: Record<string, unknown>): never {
  throw new ActionError('invalid_request', message, details);
}

/**
 * Applies `verdicts` by `by` at `at` to the files of `h`'s report. Refused (invalid_request, nothing changed): no file
 * named, a file the report does not list, a file named twice, a file decided the other way before.
 */
export function planFileReview(h: Handoff, verdicts: FileVerdicts, by: string, at: string): ReviewPlan {
  const files = reportedFiles(h);
  const listed = files.map((f) => f.path);
  const asked: { path: string; decision: FileDecision; reason?: string }[] = [
    ...verdicts.accept.map((path) => ({ path, decision: 'accepted' as const })),
    ...verdicts.reject.map((r) => ({ path: r.path, decision: 'rejected' as const, reason: r.reason })),
  ];
  if (asked.length === 0)
    refuse(`Name at least one file to accept or reject; ${h.handoff_id}'s report lists: ${listed.join(', ')}.`, { listed });
  const seen = new Set<string>();
  for (const a of asked) {
    if (!listed.includes(a.path)) {
      refuse(`${a.path} is not among the files ${h.handoff_id}'s report lists (${listed.join(', ') || 'none'}); review only those files.`, {
        path: a.path,
        listed,
      });
    }
    if (seen.has(a.path)) refuse(`${a.path} is named twice; accept or reject each file once.`, { path: a.path });
    seen.add(a.path);
  }
  const decided: string[] = [];
  const next = files.map((f) => {
    const a = asked.find((x) => x.path === f.path);
    if (!a) return f;
    if (f.review && f.review.decision !== a.decision) {
      refuse(
        `${f.path} was already ${f.review.decision} by ${f.review.by} at ${f.review.at}; a file's decision is final. ` +
          'To change it, return the work for revision and review its next report.',
        { path: f.path, decision: f.review.decision, by: f.review.by, at: f.review.at },
      );
    }
    if (f.review) return f; // the same decision again: already recorded
    decided.push(f.path);
    return { ...f, review: { decision: a.decision, by, at, ...(a.reason ? { reason: a.reason } : {}) } };
  });
  return { files: next, decided, outcome: outcomeOf(next) };
}

/** The report with `files` in place of its file list. */
export function withFiles(result: CompletionResult, files: FileModification[]): CompletionResult {
  return { ...result, artifacts: { findings: [], decisions: [], ...result.artifacts, file_modifications: files } };
}

/** Approval (approve, auto_apply) accepts every file not yet decided; refused while a file is rejected. */
export function acceptRemaining(h: Handoff, by: string, at: string): CompletionResult | undefined {
  const files = reportedFiles(h);
  if (!h.result || files.length === 0 || files.every((f) => f.review)) return undefined;
  const rejected = files.filter((f) => f.review?.decision === 'rejected');
  if (rejected.length) {
    refuse(
      `${h.handoff_id} cannot be approved: ${rejected.map((f) => f.path).join(', ')} ${rejected.length === 1 ? 'was' : 'were'} rejected. ` +
        'Finish its review with reviewFiles (any rejected file returns it for revision), or return it for revision.',
      { rejected: rejected.map((f) => f.path) },
    );
  }
  return withFiles(
    h.result,
    files.map((f) => (f.review ? f : { ...f, review: { decision: 'accepted' as const, by, at } })),
  );
}

/** The reason of a return for revision: the rejected files and why. */
export function rejectionReason(files: readonly FileModification[]): string {
  const rejected = files.filter((f) => f.review?.decision === 'rejected');
  return `files rejected: ${rejected.map((f) => `${f.path} (${f.review!.reason ?? 'no reason'})`).join('; ')}`;
}
