// A handoff note that carries a tag (docs/contract.md §6: `[pass_over: audit]` … `Reason: code_review`, or `[return_to: alice]`)
// is acted on like the same tag in a passOver / returnHandoff `message` (docs/agentsync-documentation.md, "Tags in a
// handoff note"). An accepted tag makes the note that action's record; a refused one leaves the note stored as written
// and the answer's `tag` says what was refused and why.
import { delegationError } from '../../domain/delegationErrors';
import { ActionError, isActionError } from '../../domain/errors';
import { parsePassOverTag, parseReturnTag, withoutTags } from '../../domain/handoffTags';
import type { ActionContext } from '../../store/handoffMutation';
import type { Handoff } from '../../domain/handoffSchema';
import type { ParamsOf } from '../requestParams';
import type { StoreTransaction } from '../../store/storeTransaction';
import { passOver } from './passOver';
import { returnHandoff } from './returnHandoff';

type NewHandoff = ParamsOf<'createHandoff'>['handoff'];

export interface TagOutcome {
  tag: 'pass_over' | 'return_to';
  /** The agent the tag names. */
  agent: string;
  action: 'passOver' | 'returnHandoff';
  ok: boolean;
  reason?: string;
  code?: string;
  message?: string;
}

export interface TaggedNote {
  outcome: TagOutcome;
  /** Set when the tag was accepted: the record the note became, and for a return the work it completed. */
  handoff?: Handoff;
  completed?: Handoff;
}

/** Acts on the note's tag, if it has one; the caller stores the note as written unless the tag was accepted. */
export function actOnNoteTag(tx: StoreTransaction, ctx: ActionContext, note: NewHandoff, owners: readonly string[]): TaggedNote | null {
  const text = `${note.summary}\n\n${note.notes ?? ''}`;
  const pass = parsePassOverTag(text);
  const back = pass ? null : parseReturnTag(text);
  if (!pass && !back) return null;
  const outcome: TagOutcome = pass
    ? { tag: 'pass_over', agent: pass.to, action: 'passOver', ok: false }
    : { tag: 'return_to', agent: back!.returnTo, action: 'returnHandoff', ok: false };
  // The tag acts for the note's author, whoever sends the request.
  const author = { ...ctx, agent: note.from_agent };
  const step = tx.begin();
  try {
    if (note.no_handoff_reason?.trim())
      throw new ActionError('invalid_request', 'A skipped note (no_handoff_reason) is handed to nobody, so its tag cannot act.', {
        field: 'handoff.no_handoff_reason',
      });
    if (owners.length !== 1 || owners[0] !== outcome.agent) {
      throw new ActionError(
        'invalid_request',
        `The note's [${outcome.tag}: ${outcome.agent}] hands it to ${outcome.agent}, but handoff.to_agents is ${owners.join(', ') || 'empty'}. ` +
          `Address the note to ${outcome.agent} alone (owner_mode "single"), or remove the tag.`,
        { field: 'handoff.to_agents' },
      );
    }
    if (pass) {
      const out = passOver(tx, author, {
        to: pass.to,
        summary: withoutTags(note.summary) || pass.summary,
        reason: pass.reason ?? '',
        notes: note.notes,
        files: note.files,
        phase: note.phase,
        request: note.request,
        noteFields: { task_id: note.task_id ?? null, branch: note.branch ?? null, commit: note.commit ?? null, priority: note.priority },
      });
      return { outcome: { ...outcome, ok: true }, handoff: out.handoff };
    }
    const held = heldWorkReturningTo(tx, note.from_agent, back!.returnTo);
    // The whole note, tag first, so its summary and notes both become the returned handoff's text.
    const message = `[return_to: ${back!.returnTo}]\n${withoutTags(note.summary)}\n\n${withoutTags(note.notes ?? '')}`;
    const out = returnHandoff(tx, author, { ref: held.handoff_id, message });
    return { outcome: { ...outcome, ok: true }, handoff: out.returned ?? out.handoff, completed: out.handoff };
  } catch (e) {
    if (!isActionError(e)) throw e;
    step.rollback();
    const code = typeof e.details.code === 'string' ? { code: e.details.code } : {};
    return { outcome: { ...outcome, reason: e.reason, ...code, message: e.message } };
  }
}

/** The one in-progress handoff `author` holds that was passed over by `origin` (the work a [return_to] note returns). */
function heldWorkReturningTo(tx: StoreTransaction, author: string, origin: string): Handoff {
  const held = tx.handoffs.filter((h) => h.status === 'in_progress' && h.return_to === origin && h.to_agents.includes(author));
  const mine = held.filter((h) => h.claimed_by === author);
  const candidates = mine.length ? mine : held;
  if (candidates.length === 1) return candidates[0];
  if (candidates.length === 0) {
    throw delegationError(
      'RETURN_CONTEXT_LOST',
      `${author} holds no in-progress work passed over by ${origin}, so there is nothing for [return_to: ${origin}] to return. ` +
        'Claim the passed work first, or send returnHandoff with its handoffId.',
    );
  }
  throw new ActionError(
    'ambiguous_return',
    `${author} holds ${candidates.length} in-progress handoffs passed over by ${origin} (${candidates.map((h) => h.handoff_id).join(', ')}); ` +
      'a note cannot say which one it returns. Send returnHandoff with the handoffId instead.',
    { handoff_ids: candidates.map((h) => h.handoff_id) },
  );
}
