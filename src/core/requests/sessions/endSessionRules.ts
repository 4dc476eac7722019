// What End Session asks for before it may end (docs/contract.md §7, requireHandoffOnEndSession): with files changed, a
// handoff with a note for the next agent, or a reason for none; and which changed files a handoff can record.
import { ActionError } from '../../domain/errors';
import type { AgentSyncConfig } from '../../domain/configSchema';
import { LIMITS } from '../../domain/handoffSchema';
import { checkWorkspaceRelative } from '../../domain/workspacePath';
import type { ParamsOf } from '../requestParams';

/** Hot files that may go into a handoff's files[] (git can report names the record schema refuses, e.g. with newlines). */
export function recordableFiles(files: readonly string[]): string[] {
  return files.filter((f) => checkWorkspaceRelative(f) === null).slice(0, LIMITS.files);
}

function handoffRequired(hot: readonly string[], config: AgentSyncConfig): ActionError {
  const shown = hot.slice(0, 5).join(', ') + (hot.length > 5 ? `, … (${hot.length} in all)` : '');
  // On because .agentsync.json could not be used as written (a misspelled key, a wrong value): the answer says which.
  const broken = config.brokenSections?.requireHandoffOnEndSession;
  return new ActionError(
    'handoff_required',
    `${hot.length} file(s) changed (${shown}) and requireHandoffOnEndSession is on` +
      (broken ? ` (.agentsync.json: ${broken.message}; it counts as true until you fix it)` : '') +
      `: end the session with a "handoff" (summary, notes, owner_mode, to_agents or required_capabilities) or a "no_handoff_reason". ` +
      'Nothing was changed.',
    { hotFiles: hot.slice(0, 100), hotFileCount: hot.length, ...(broken ? { configProblem: broken.message } : {}) },
  );
}

/** requireHandoffOnEndSession: with hot files, a handoff with a note, or a skip reason, is required. */
export function enforcementProblem(config: AgentSyncConfig, hot: readonly string[], p: ParamsOf<'endSession'>): ActionError | null {
  if (!config.requireHandoffOnEndSession || hot.length === 0) return null;
  const skip = p.no_handoff_reason ?? (p.handoff?.no_handoff_reason?.trim() || null);
  const given = p.handoff ?? null;
  if (!given && !skip) return handoffRequired(hot, config);
  if (given && !given.no_handoff_reason && !given.notes?.trim()) {
    return new ActionError(
      'invalid_request',
      'handoff.notes: requireHandoffOnEndSession asks for a note for the next agent (what to check, what is left). Nothing was changed.',
      { field: 'handoff.notes' },
    );
  }
  return null;
}
