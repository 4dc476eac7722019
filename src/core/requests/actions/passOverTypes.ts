// The shapes of a pass-over request and its answer (docs/contract.md §6), apart from passOver.ts so fanOut.ts, which
// passOver.ts calls, can name them without an import circle.
import type { PassOverPolicy } from '../../domain/configSchema';
import type { CompletionResult, Handoff } from '../../domain/handoffSchema';
import type { PassGroup } from '../../domain/passGroup';
import type { Phase, WorkRequest } from '../../domain/workRequest';
import type { NotifyMarker } from './returnPolicy';
import type { WorkContext } from '../../domain/workContext';
import type { WorkspaceLayout } from '../../workspace/workspaceLayout';

export interface PassOverInput {
  /** One receiver, or 2-5 for a fan-out (fanOut.ts). */
  to?: string | string[];
  reason?: string;
  summary?: string;
  message?: string;
  handoffId?: string;
  files?: string[];
  notes?: string;
  return_required?: boolean;
  override?: PassOverPolicy;
  /** The completion report, used when the pass goes back to the work's return_to (that pass is the return). */
  result?: CompletionResult;
  expected_rev?: number;
  /** The request side (docs/contract.md §6): the phase and what the receiver is asked to do. */
  phase?: Phase | null;
  request?: WorkRequest;
  /** Fields of a handoff note that carries the pass as a tag (noteTags.ts): the note's task, branch, commit, priority. */
  noteFields?: Pick<Handoff, 'task_id' | 'branch' | 'commit' | 'priority'>;
  /** The work the passer had (files, messages, tool results), stored beside the record (passContext.ts). */
  context?: WorkContext;
  /** Where the context is stored: the workspace's layout, given by the catalog entry's prepare. */
  layout?: WorkspaceLayout;
  /** Set by fanOut.ts on each child of a fan-out (never a request parameter). */
  group?: PassGroup;
}

export interface PassOverOutput {
  handoff: Handoff;
  /** Set when the pass went back to the work's return_to: the completed work and the handoff carrying it back. */
  returned?: Handoff | null;
  completed?: Handoff;
  /** Set with `returned`: the notify_on_return marker for the agent the work came back to, or null. */
  notify?: NotifyMarker | null;
  /** A fan-out's children, in the order of `to` (fanOut.ts); `handoff` is the first. */
  handoffs?: Handoff[];
  /** The store's format changed with this pass (storeVersion.ts). */
  notice?: string;
}
