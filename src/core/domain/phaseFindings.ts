// The shape of a report's `findings` in each protocol phase (docs/contract.md §6;
// docs/agentsync-documentation.md, "The completion report"). Known keys are checked, extra keys are kept: findings
// are the receiver's data, but a validate report that does not say which checks passed is no validate report.
import * as z from 'zod';
import type { Phase } from './workRequest';

/**
 * The phases' schemas, built on the first report checked: most processes (a claim, a list) check none, so they never
 * pay for building them (bench/cli-start-bench.mjs times a claim).
 */
let shapes: Readonly<Record<Phase, z.ZodType>> | undefined;

function buildShapes(): Readonly<Record<Phase, z.ZodType>> {
  const text = z.string().max(2_000);
  const texts = z.array(text).max(500);
  const count = z.number().int().nonnegative();

  const research = z.looseObject({
    existing_implementations: z
      .array(z.looseObject({ file: text, description: text, relevance: z.enum(['high', 'medium', 'low']) }))
      .max(500)
      .optional(),
    conflicts: z
      .array(
        z.looseObject({
          type: z.enum(['naming', 'pattern', 'dependency']),
          description: text,
          severity: z.enum(['critical', 'warning', 'info']),
        }),
      )
      .max(500)
      .optional(),
    patterns_found: z
      .array(z.looseObject({ file: text, pattern: text, recommendation: text }))
      .max(500)
      .optional(),
    recommendations: texts.optional(),
  });

  const write = z.looseObject({
    files_created: z
      .array(z.looseObject({ path: text, purpose: text }))
      .max(500)
      .optional(),
    files_modified: z
      .array(z.looseObject({ path: text, changes: text }))
      .max(500)
      .optional(),
    tests_written: z
      .array(z.looseObject({ path: text, test_count: count, coverage_areas: texts.optional() }))
      .max(500)
      .optional(),
    implementation_notes: texts.optional(),
  });

  const validate = z
    .looseObject({
      checks: z
        .record(z.string().max(100), z.looseObject({ passed: z.boolean(), errors: texts.optional(), warnings: texts.optional() }))
        .refine((c) => Object.keys(c).length > 0, 'name at least one check, e.g. { "tests": { "passed": true } }'),
      overall_passed: z.boolean(),
      blocking_issues: texts.optional(),
      warnings: texts.optional(),
    })
    .superRefine((f, ctx) => {
      const failed = Object.entries(f.checks)
        .filter(([, c]) => !c.passed)
        .map(([name]) => name);
      if (f.overall_passed && failed.length)
        ctx.addIssue({ code: 'custom', path: ['overall_passed'], message: `is true, but ${failed.join(', ')} did not pass` });
      if (!f.overall_passed && !failed.length)
        ctx.addIssue({ code: 'custom', path: ['overall_passed'], message: 'is false, but every check passed; say which one failed' });
    });

  const parallel = z
    .looseObject({
      results: z
        .array(z.looseObject({ task_id: text, passed: z.boolean(), type: text.optional(), summary: text.optional() }))
        .min(1)
        .max(500),
      aggregation: z.looseObject({ total: count, passed: count, failed: count, overall_passed: z.boolean(), rule: text.optional() }),
    })
    .superRefine((f, ctx) => {
      const passed = f.results.filter((r) => r.passed).length;
      const a = f.aggregation;
      if (a.total !== f.results.length || a.passed !== passed || a.failed !== f.results.length - passed)
        ctx.addIssue({
          code: 'custom',
          path: ['aggregation'],
          message: `says ${a.total} total, ${a.passed} passed, ${a.failed} failed, but results hold ${f.results.length}, ${passed} passed`,
        });
    });

  return { research, write, validate, parallel };
}

/** A phase whose keys are all optional still needs one of them: `{}` reports nothing about the phase. */
const ONE_OF: Partial<Record<Phase, readonly string[]>> = {
  research: ['existing_implementations', 'conflicts', 'patterns_found', 'recommendations'],
  write: ['files_created', 'files_modified', 'tests_written', 'implementation_notes'],
};

/** What a report of each phase looks like, for the refusal message. */
export const PHASE_SHAPE_HINT: Readonly<Record<Phase, string>> = {
  research:
    'existing_implementations[{file, description, relevance: high|medium|low}], conflicts[{type: naming|pattern|dependency, ' +
    'description, severity: critical|warning|info}], patterns_found[{file, pattern, recommendation}], recommendations[string]',
  write:
    'files_created[{path, purpose}], files_modified[{path, changes}], tests_written[{path, test_count, coverage_areas?}], implementation_notes[string]',
  validate: 'checks{<name>: {passed: boolean, errors?, warnings?}} (at least one), overall_passed: boolean, blocking_issues?, warnings?',
  parallel: 'results[{task_id, passed: boolean, summary?}] (at least one), aggregation{total, passed, failed, overall_passed}',
};

/** The problems of `findings` as a report of `phase`, one per line ("checks.tests.passed: expected boolean"), or []. */
export function findingsProblems(phase: Phase, findings: Record<string, unknown>): string[] {
  const oneOf = ONE_OF[phase];
  if (oneOf && !oneOf.some((k) => k in findings)) return [`none of ${oneOf.join(', ')} is given`];
  shapes ??= buildShapes();
  const checked = shapes[phase].safeParse(findings);
  if (checked.success) return [];
  return checked.error.issues.slice(0, 5).map((i) => `${i.path.map(String).join('.') || '(findings)'}: ${i.message}`);
}
