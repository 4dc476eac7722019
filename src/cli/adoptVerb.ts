// `agentsync adopt <id> --from <worktree>`: brings one record that only a linked worktree's own copy of the store
// holds into the clone's live record (docs/contract.md §14, upgrading). Nothing is merged silently: the first run of
// this build names such records, and a human brings each over deliberately. The record keeps its uid and history; a
// handoff_id already used in the record is renumbered (the old one kept in previous_ids).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ActionError, isActionError } from '../core/domain/errors';
import type { Handoff } from '../core/domain/handoffSchema';
import { okResponse, refusal } from '../core/domain/responseEnvelope';
import { withPreviousId } from '../core/domain/previousIds';
import { linkedWorktreeCopies, readCopy } from '../core/store/worktreeCopies';
import { UsageError } from './cliContext';
import type { Verb } from './handoffVerbs';
import { oneLine } from './terminalText';

function real(p: string): string {
  try {
    return fs.realpathSync.native(path.resolve(p));
  } catch {
    return path.resolve(p);
  }
}

export const adoptVerb: Verb = {
  usage: '<id> --from <worktree>',
  summary:
    "bring a record only a linked worktree's own copy of handoffs.json holds into the clone's record (after upgrading; see docs/upgrading.md)",
  options: { from: { type: 'string' } },
  run: async (ctx, values, pos) => {
    const ref = pos[0];
    const from = values.from as string | undefined;
    if (!ref || !from) throw new UsageError('expected a handoff id and --from <worktree> (a linked worktree of this clone)');
    const fail = (e: ActionError): number => {
      if (ctx.json) ctx.io.out(JSON.stringify(refusal('adopt', e.reason, e.message, {}, e.details)));
      else ctx.io.err(`agentsync: ${e.reason}: ${oneLine(e.message)}`);
      return 1;
    };
    if (!ctx.layout.placement)
      return fail(
        new ActionError(
          'invalid_request',
          'this workspace is not in a git clone: it has one checkout, so nothing to adopt; nothing was changed.',
        ),
      );
    const copy = linkedWorktreeCopies(ctx.layout).find((c) => real(c.worktree) === real(from));
    if (!copy)
      return fail(
        new ActionError(
          'invalid_request',
          `${from} is not a linked worktree of this clone (\`git worktree list\` names them); nothing was changed.`,
        ),
      );
    const file = readCopy(copy.file);
    const found = file?.handoffs.find((h) => h.handoff_id === ref || h.uid === ref);
    if (!found) return fail(new ActionError('not_found', `${copy.file} holds no handoff ${ref}; nothing was changed.`));
    try {
      const adopted = await ctx.dispatcher.store.transact((tx) => {
        if (found.uid && tx.findAnywhere(found.uid))
          throw new ActionError('invalid_request', `${ref} (uid ${found.uid}) is already in the record; nothing was changed.`);
        let record: Handoff = found;
        if (tx.handoffs.some((h) => h.handoff_id === found.handoff_id)) {
          const id = tx.snapshot.ids.next(new Date());
          record = { ...withPreviousId(found, found.handoff_id), handoff_id: id };
        }
        tx.insert(record);
        tx.audit.push({
          ts: new Date().toISOString(),
          action: 'adoptHandoff',
          agent: null,
          handoff_id: record.handoff_id,
          uid: record.uid ?? null,
          from_status: null,
          to_status: record.status,
          request_id: null,
          surface: 'cli',
          reason: `adopted from ${copy.worktree}`,
        });
        return record;
      });
      if (ctx.json) ctx.io.out(JSON.stringify(okResponse('adopt', { handoff: adopted, from: copy.worktree })));
      else
        ctx.io.out(
          `adopted ${adopted.handoff_id}${adopted.handoff_id === found.handoff_id ? '' : ` (was ${found.handoff_id} in ${copy.worktree})`} ` +
            `from ${copy.worktree}`,
        );
      return 0;
    } catch (e) {
      if (isActionError(e)) return fail(e);
      throw e;
    }
  },
};
