// A completion report (`result`, docs/agentsync-documentation.md, "completeHandoff") summarised for a person: the
// decision and status in one line, findings shortened to one line per key, the issues, the artifact findings counted
// by severity. Plain, unescaped text: each surface escapes it its own way (the tooltip as Markdown, the history
// document as tracker text).
import type { CompletionResult } from './handoffSchema';

export interface ReportSummary {
  /** `PROCEED (complete)`, with tokens used when given. */
  headline: string;
  contextSummary: string;
  /** `key: value` per finding (value as JSON, shortened), at most MAX_FINDING_LINES, then `… and N more`. */
  findings: string[];
  issues: string[];
  /** `2 high, 1 low` for artifacts.findings, or null when there are none. */
  artifactCounts: string | null;
  /** `[high] security at src/x.ts:3: message` for the most severe artifact findings, at most MAX_FINDING_LINES. */
  artifactFindings: string[];
}

export const MAX_FINDING_LINES = 8;
const MAX_VALUE_CHARS = 80;
const SEVERITIES = ['critical', 'high', 'medium', 'low', 'info'] as const;

function shortJson(value: unknown): string {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  return text.length > MAX_VALUE_CHARS ? `${text.slice(0, MAX_VALUE_CHARS - 1)}…` : text;
}

function capped(lines: string[], total: number): string[] {
  return total > lines.length ? [...lines, `… and ${total - lines.length} more`] : lines;
}

export function summarizeReport(result: CompletionResult): ReportSummary {
  const keys = Object.keys(result.findings ?? {});
  const findings = capped(
    keys.slice(0, MAX_FINDING_LINES).map((k) => `${k}: ${shortJson(result.findings[k])}`),
    keys.length,
  );
  const artifacts = result.artifacts?.findings ?? [];
  const counts = SEVERITIES.map((s) => [s, artifacts.filter((f) => f.severity === s).length] as const).filter(([, n]) => n > 0);
  const bySeverity = [...artifacts].sort((a, b) => SEVERITIES.indexOf(a.severity) - SEVERITIES.indexOf(b.severity));
  return {
    headline: `${result.decision} (${result.status})${result.tokens_used !== undefined ? ` · ${result.tokens_used} tokens used` : ''}`,
    contextSummary: result.context_summary,
    findings,
    issues: result.issues ?? [],
    artifactCounts: counts.length ? counts.map(([s, n]) => `${n} ${s}`).join(', ') : null,
    artifactFindings: capped(
      bySeverity
        .slice(0, MAX_FINDING_LINES)
        .map((f) => `[${f.severity}] ${f.category}${f.location ? ` at ${f.location}` : ''}: ${f.message}`),
      artifacts.length,
    ),
  };
}
