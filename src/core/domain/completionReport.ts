// The receiver's completion report (`result`, docs/contract.md §6): over the limits it is E012 CONTEXT_OVERFLOW,
// missing or misshapen fields are E021 INVALID_WORK_OUTPUT (docs/agentsync-documentation.md, "The completion report").
// Checked wherever a report arrives: completeHandoff, returnHandoff, and a pass back to the work's return_to.
import type { z } from 'zod';
import { outputProblems } from './outputSchema';
import { delegationError } from './delegationErrors';
import type { ActionError } from './errors';
import { describeIssues, LIMITS, type CompletionResult, type Handoff } from './handoffSchema';
import { findingsProblems, PHASE_SHAPE_HINT } from './phaseFindings';

export const MAX_CONTEXT_SUMMARY_TOKENS = 500;

/** A rough token estimate (about 4 characters a token for English text and code). */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

const REQUIRED = 'A report needs status (complete|partial|blocked), decision (PROCEED|STOP|CLARIFY) and context_summary';

/**
 * A request whose `result` does not parse is answered with the protocol's codes rather than invalid_request:
 * a field over its size limit is E012, anything else (missing, wrong type, unknown field) is E021.
 */
export function reportInputRefusal(error: z.ZodError): ActionError | null {
  const issues = error.issues.filter((i) => i.path[0] === 'result');
  if (issues.length === 0 || error.issues[0].path[0] !== 'result') return null;
  const first = issues[0];
  const field = [...first.path.map(String), ...(first.code === 'unrecognized_keys' ? first.keys.slice(0, 1) : [])].join('.');
  const what = describeIssues({ issues });
  if (first.code === 'too_big') {
    return delegationError(
      'CONTEXT_OVERFLOW',
      `${what}. Shorten it: long detail belongs in files the handoff names. Nothing was changed.`,
      {
        field,
      },
    );
  }
  return delegationError('INVALID_WORK_OUTPUT', `${what}. ${REQUIRED}; see docs/agentsync-documentation.md. Nothing was changed.`, {
    field,
  });
}

/** Refuses a report over the limits (E012) or that does not fit the handoff it completes (E021); nothing is changed. */
export function checkReport(result: CompletionResult | undefined, h: Handoff): void {
  if (!result) return;
  const tokens = estimateTokens(result.context_summary);
  if (tokens > MAX_CONTEXT_SUMMARY_TOKENS) {
    throw delegationError(
      'CONTEXT_OVERFLOW',
      `result.context_summary is about ${tokens} tokens; the limit is ${MAX_CONTEXT_SUMMARY_TOKENS} (about ${MAX_CONTEXT_SUMMARY_TOKENS * 4} ` +
        'characters). Shorten it to what the next agent needs (files, decisions, next steps) and put detail in result.findings.',
      { field: 'result.context_summary', tokens, limit: MAX_CONTEXT_SUMMARY_TOKENS },
    );
  }
  const bytes = Buffer.byteLength(JSON.stringify(result.findings));
  if (bytes > LIMITS.findingsBytes) {
    throw delegationError(
      'CONTEXT_OVERFLOW',
      `result.findings is ${bytes} bytes as JSON, over the ${LIMITS.findingsBytes}-byte (64 KiB) limit; keep findings short and put ` +
        'long detail in files the handoff names.',
      { field: 'result.findings', bytes, limit: LIMITS.findingsBytes },
    );
  }
  if (result.task_id && h.task_id && result.task_id !== h.task_id) {
    throw invalidOutput(
      'result.task_id',
      `result.task_id is "${result.task_id}", but ${h.handoff_id} is task "${h.task_id}"; echo the task's id.`,
    );
  }
  if (result.phase && h.phase && result.phase !== h.phase) {
    throw invalidOutput(
      'result.phase',
      `result.phase is "${result.phase}", but ${h.handoff_id} is a ${h.phase} handoff; report on the ${h.phase} phase.`,
    );
  }
  // A blocked report may say only why it is blocked; whatever findings it does carry are checked like any other.
  if (result.status === 'blocked' && Object.keys(result.findings).length === 0) return;
  checkOutputSchema(result, h);
  const phase = h.phase ?? result.phase;
  if (!phase) return;
  const problems = findingsProblems(phase, result.findings);
  if (problems.length) {
    throw invalidOutput(
      'result.findings',
      `result.findings is not a ${phase} report: ${problems.join('; ')}. A ${phase} report has ${PHASE_SHAPE_HINT[phase]}.`,
      { phase },
    );
  }
}

/** validate_output with an output_schema (outputSchema.ts): the findings must fit the schema stored on the pass. */
function checkOutputSchema(result: CompletionResult, h: Handoff): void {
  const schema = h.policy?.validate_output ? h.policy.output_schema : undefined;
  if (!schema) return;
  const problems = outputProblems(schema, result.findings);
  if (problems.length)
    throw invalidOutput(
      'result.findings',
      `result.findings does not match the output_schema of ${h.handoff_id} (validate_output): ${problems.join('; ')}.`,
      { problems },
    );
}

function invalidOutput(field: string, message: string, details: Record<string, unknown> = {}): ActionError {
  return delegationError('INVALID_WORK_OUTPUT', `${message} Nothing was changed.`, { field, ...details });
}
