// The receiver's completion report (docs/agentsync-documentation.md, "completeHandoff"), asked for by Complete and by
// Return to Originator: the decision, then a summary. PROCEED sends it on; STOP or CLARIFY put it before a human.
import type { CompletionResult } from '../../core/domain/handoffSchema';
import { askText, pickOne } from './prompts';

/** The report, or undefined for a PROCEED without a summary (the core then records no report). */
export async function askCompletionReport(title: string): Promise<CompletionResult | undefined> {
  const decision = await pickOne<CompletionResult['decision']>(
    [
      { label: '$(check) PROCEED', description: 'done: send it for review', value: 'PROCEED' },
      { label: '$(debug-stop) STOP', description: 'cannot go on: block it for a human', value: 'STOP' },
      { label: '$(question) CLARIFY', description: 'needs an answer first: block it for a human', value: 'CLARIFY' },
    ],
    { title, placeHolder: 'How did it go?' },
  );
  const summary = await askText({
    title,
    prompt:
      decision === 'PROCEED'
        ? 'What was done, for the reviewer (optional, ≤ 500 tokens)'
        : 'What is in the way, for the human who picks it up',
    requiredMessage: decision === 'PROCEED' ? undefined : 'Say what is needed, so a human can act on it.',
    maxLength: 2_000,
  });
  if (decision === 'PROCEED' && !summary) return undefined;
  return {
    status: decision === 'PROCEED' ? 'complete' : 'blocked',
    decision,
    findings: {},
    context_summary: summary,
    issues: decision === 'PROCEED' ? [] : [summary],
  };
}
