// docs/contract.md §4's transition table, written out independently of src/core/domain/lifecycle.ts so the tests check the
// code against the contract rather than against itself.
import type { HandoffStatus } from '../../../src/core/domain/handoffSchema';

export const ALL_STATUSES: HandoffStatus[] = [
  'queued',
  'in_progress',
  'blocked',
  'ready_for_review',
  'approved',
  'merged',
  'escalated',
  'withdrawn',
];

export const LEGAL: Record<HandoffStatus, HandoffStatus[]> = {
  queued: ['in_progress', 'blocked', 'escalated'],
  in_progress: ['ready_for_review', 'blocked', 'queued', 'escalated'],
  blocked: ['in_progress', 'queued', 'escalated'],
  ready_for_review: ['approved', 'in_progress', 'escalated'],
  approved: ['merged', 'escalated'],
  merged: [],
  escalated: [],
  // Only passed work is withdrawn, and only by withdrawPass (docs/contract.md §4): no transition of these records reaches it.
  withdrawn: [],
};

export type Authority = 'owner' | 'originator' | 'involved';

/**
 * Who may make each move: claim/complete/block/release belong to the owners, review actions
 * (approve, return for revision, merge) to the originator, escalate and the unblock/park moves to anyone involved.
 */
export function authorityOf(from: HandoffStatus, to: HandoffStatus): Authority {
  if (to === 'escalated') return 'involved';
  if (from === 'queued' && to === 'blocked') return 'involved';
  if (from === 'blocked') return 'involved';
  if (from === 'ready_for_review' || from === 'approved') return 'originator';
  return 'owner';
}

export function legalPairs(): [HandoffStatus, HandoffStatus][] {
  return ALL_STATUSES.flatMap((from) => LEGAL[from].map((to) => [from, to] as [HandoffStatus, HandoffStatus]));
}

export function illegalPairs(): [HandoffStatus, HandoffStatus][] {
  return ALL_STATUSES.flatMap((from) =>
    ALL_STATUSES.filter((to) => !LEGAL[from].includes(to)).map((to) => [from, to] as [HandoffStatus, HandoffStatus]),
  );
}
