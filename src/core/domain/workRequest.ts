// The request side of the handoff protocol (docs/contract.md §6, docs/agentsync-documentation.md "The request side"): what the
// receiver is asked to do, stored on the handoff as `request`, and the protocol phase that decides the report's shape.
import * as z from 'zod';
import { ActionError } from './errors';
import { workspaceRelativePath } from './workspacePath';

export const PHASES = ['research', 'write', 'validate', 'parallel'] as const;
export type Phase = (typeof PHASES)[number];
export const phaseSchema = z.enum(PHASES);

/** Each phase's expected output, one to one (docs/agentsync-documentation.md, "The request side"). */
export const EXPECTED_OUTPUT_OF: Readonly<Record<Phase, string>> = {
  research: 'structured_findings',
  write: 'files_changed',
  validate: 'validation_result',
  parallel: 'aggregated_results',
};
const OUTPUTS = ['structured_findings', 'files_changed', 'validation_result', 'aggregated_results'] as const;

export const workRequestSchema = z.strictObject({
  feature: z.string().min(1).max(200).optional(),
  spec_path: workspaceRelativePath.nullable().optional(),
  constraints: z.array(z.string().min(1).max(2_000)).max(50).optional(),
  instructions: z.string().min(1).max(20_000).optional(),
  expected_output: z.enum(OUTPUTS).optional(),
});

export type WorkRequest = z.infer<typeof workRequestSchema>;

/**
 * The phase a new handoff gets: the one given, else the one its expected_output implies. Both given and not a pair
 * is refused: the report would be checked against a shape the request did not ask for.
 */
export function phaseOf(phase: Phase | null | undefined, request: WorkRequest | undefined, prefix = ''): Phase | null {
  const output = request?.expected_output;
  const implied = output ? (PHASES.find((p) => EXPECTED_OUTPUT_OF[p] === output) ?? null) : null;
  if (phase && implied && phase !== implied) {
    throw new ActionError(
      'invalid_request',
      `${prefix}request.expected_output "${output}" belongs to the ${implied} phase, but phase is "${phase}" (whose output is ` +
        `"${EXPECTED_OUTPUT_OF[phase]}"). Make them agree, or leave one out. Nothing was changed.`,
      { field: `${prefix}request.expected_output` },
    );
  }
  return phase ?? implied;
}

/** A stored request without empty parts, or undefined when nothing is left (so records stay small). */
export function storedRequest(request: WorkRequest | undefined): WorkRequest | undefined {
  if (!request) return undefined;
  const kept = Object.fromEntries(
    Object.entries(request).filter(([, v]) => v !== undefined && v !== null && !(Array.isArray(v) && v.length === 0)),
  ) as WorkRequest;
  return Object.keys(kept).length ? kept : undefined;
}
