// `agentsync review`: per-file review of returned work from the terminal (docs/contract.md §6, "Per-file review").
// Without --accept/--reject it lists the report's files, each with the git diff to read (or why there is none); with
// them it sends one reviewFiles request through the dispatcher.
import type { Handoff } from '../core/domain/handoffSchema';
import { reviewDiffPlan, type ReviewDiffPlan } from '../core/git/reviewDiff';
import { UsageError } from './cliContext';
import { handoffLine } from './handoffFormat';
import type { Verb } from './handoffVerbs';
import { agentOf, list, one, rev } from './verbArgs';

/** `--reject <path>=<reason>`, repeatable (a reason may hold commas, so it is never split on them). */
function rejections(v: string | boolean | string[] | undefined): { path: string; reason: string }[] {
  if (v === undefined || typeof v === 'boolean') return [];
  return (Array.isArray(v) ? v : [v]).map((raw) => {
    const at = raw.indexOf('=');
    if (at <= 0) throw new UsageError(`--reject ${raw}: give <path>=<reason> (the receiver is told why)`);
    return { path: raw.slice(0, at), reason: raw.slice(at + 1) };
  });
}

function fileLines(plan: ReviewDiffPlan): string[] {
  return plan.files.map(({ file, base, head }) => {
    const decision = file.review
      ? `${file.review.decision} by ${file.review.by}${file.review.reason ? ` (${file.review.reason})` : ''}`
      : 'to review';
    const diff = plan.ok ? `  git diff ${base?.commit ?? '<none>'} ${head?.commit ?? '<none>'} -- ${file.path}` : '';
    return `  ${file.change.padEnd(8)} ${file.path}  [${decision}]${file.summary ? `: ${file.summary}` : ''}${diff ? `\n  ${diff}` : ''}`;
  });
}

function listing(h: Handoff, plan: ReviewDiffPlan): string {
  const where = plan.ok
    ? `changes: ${plan.from}; diffs against the merge base ${plan.base?.slice(0, 12) ?? '(none)'}`
    : `no diff: ${plan.why}`;
  return [handoffLine(h), where, ...fileLines(plan)].join('\n');
}

export const reviewVerb: Verb = {
  usage: '<handoff-id> [--agent <id> (--accept <path> | --reject <path>=<reason>)...] [--expected-rev N]',
  summary: "review returned work file by file: list its report's files and diffs, or accept/reject them (reviewFiles)",
  details: [
    "without --accept/--reject: the files of the report, each with the git diff to read (the report's commit, else the worktree branch)",
    'once every file has a decision, all accepted approves the work and any rejected returns it to its receiver for revision',
  ],
  options: {
    agent: { type: 'string', short: 'a' },
    accept: { type: 'string', multiple: true },
    reject: { type: 'string', multiple: true },
    'expected-rev': { type: 'string' },
  },
  run: async (ctx, v, pos) => {
    const id = one(pos, 'handoff id');
    const accept = list(v.accept) ?? [];
    const reject = rejections(v.reject);
    if (accept.length === 0 && reject.length === 0) {
      const response = await ctx.dispatcher.dispatch({ action: 'listHandoffs', handoffId: id, archived: true });
      const h = response.ok ? response.data!.handoffs[0] : undefined;
      if (!response.ok || !h) {
        if (!response.ok) return ctx.report(response, () => '');
        throw new UsageError(`no handoff ${id}; run agentsync list to see the ids`);
      }
      const plan = reviewDiffPlan(ctx.layout.root, h);
      const data = {
        handoff: h,
        diff: plan.ok ? { head: plan.head, base: plan.base, from: plan.from } : { why: plan.why },
        files: plan.files,
      };
      return ctx.report({ ...response, data }, () => listing(h, plan));
    }
    return ctx.report(
      await ctx.dispatcher.dispatch({ action: 'reviewFiles', handoffId: id, agent: agentOf(v), accept, reject, expected_rev: rev(v) }),
      (r) => {
        const d = r.data!;
        const what =
          d.outcome === 'accepted'
            ? 'every file accepted: approved'
            : d.outcome === 'rejected'
              ? `files rejected: ${d.handoff.status === 'escalated' ? 'escalated' : 'returned for revision'}`
              : 'files still to review';
        const notice = d.notice ? `\nnote: ${d.notice}` : '';
        return `reviewed ${d.decided.join(', ') || 'nothing new'} (${what})\n${handoffLine(d.handoff)}${notice}`;
      },
    );
  },
};
