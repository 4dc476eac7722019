// The join of a fan-out (docs/contract.md §6, "Fan-out and join"): once every child of a group has ended (returned,
// timed out, escalated, withdrawn), the origin gets ONE handoff carrying every child's report. Called by each move
// that can end a child (complete/return, the timeout sweep, escalate, withdraw); a child blocked by STOP/CLARIFY
// holds the join until a human acts on it. Idempotent: a group is joined once.
import { childEnded } from '../../domain/passGroup';
import { joinedResult, joinedSummary } from '../../domain/joinedReport';
import { resolvePassOverPolicy } from '../../domain/passOverPolicy';
import type { Handoff } from '../../domain/handoffSchema';
import type { PassGroup } from '../../domain/passGroup';
import { auditEntry, boundedReason, type ActionContext } from '../../store/handoffMutation';
import type { StoreTransaction } from '../../store/storeTransaction';
import { newHandoffRecord } from './newHandoffRecord';
import { shouldNotify } from './returnPolicy';
import { renewWaitingHolder } from './returnToOriginator';

/** The group's joined return, made now if `child` was the last of its group to end; null otherwise. */
export function joinGroupIfDone(tx: StoreTransaction, ctx: ActionContext, child: Handoff): Handoff | null {
  const group = child.group;
  if (!group || group.join) return null;
  const members = groupMembers(tx, group);
  if (members.some((h) => h.group?.join)) return null;
  if (!members.every((h) => childEnded(h.status))) return null;
  // Joined already, and that return since archived (a child still here can end again later): the archive is read
  // only at this point, when a join would otherwise be made.
  if (tx.archive?.records((h) => h.group?.id === group.id && h.group.join === true).length) return null;
  const first = members[0];
  const to = first.return_to;
  if (!to) return null; // passed without a return: nothing comes back
  const policy = first.policy ?? resolvePassOverPolicy(tx.config, to, first.to_agents[0] ?? '');
  const result = joinedResult(members);
  const status = policy.auto_return ? ('ready_for_review' as const) : ('queued' as const);
  const id = tx.snapshot.ids.next(tx.now());
  const ids = members.map((m) => m.handoff_id).join(', ');
  const record = newHandoffRecord(
    tx,
    ctx,
    { status, agent: ctx.agent, reason: boundedReason(`joined return of ${ids}`) },
    {
      handoff_id: id,
      task_id: first.task_id,
      from_agent: ctx.agent,
      to_agents: [to],
      owner_mode: 'single',
      summary: joinedSummary(members, group.size),
      files: [...new Set(members.flatMap((m) => m.files))].slice(0, 500),
      branch: first.branch,
      commit: first.commit,
      return_to: null,
      parent_uid: first.parent_uid ?? first.uid ?? null,
      // The chain before the fan-out: the origin may pass the work out again without it counting as a ping-pong.
      ...(first.chain ? { chain: first.chain.slice(0, -1) } : {}),
      reason: 'return',
      result,
      previous_findings: result.context_summary,
      policy,
      group: { ...group, join: true },
      ...(shouldNotify(policy, result) ? { notify: { agent: to, handoff: id } } : {}),
      ...(status === 'ready_for_review' ? { claimed_by: to } : {}),
    },
  );
  tx.insert(record);
  tx.audit.push(auditEntry(ctx, record, null, status, `joined return of ${ids} to ${to}`, record.created_at));
  renewWaitingHolder(tx, ctx, first);
  return record;
}

/**
 * The group's records in creation order. A child that ended early (withdrawn, timed out) can reach the archive before
 * its siblings end; it is read back from there, else the join would leave it out and miscount the group.
 */
function groupMembers(tx: StoreTransaction, group: PassGroup): Handoff[] {
  const live = tx.handoffs.filter((h) => h.group?.id === group.id);
  if (live.filter((h) => !h.group?.join).length >= group.size || !tx.archive) return live;
  const here = new Set(live.map((h) => h.uid));
  const archived = tx.archive.records((h) => h.group?.id === group.id && !here.has(h.uid));
  // uids are monotonic ULIDs: their order is the order the children were made in.
  return [...live, ...archived].sort((a, b) => ((a.uid ?? '') < (b.uid ?? '') ? -1 : (a.uid ?? '') > (b.uid ?? '') ? 1 : 0));
}
