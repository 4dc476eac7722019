// The contextValue of every kind of Handoffs tree item but a handoff (whose flags are the catalog's moves,
// commandCatalog.ts): the tree sets them (tree/treeItems.ts), and the manifest check (manifestCheck.ts) refuses a
// `viewItem` clause that none of them can match.
import { ATTENTION_GROUPS } from '../../core/domain/handoffAttention';
import { todoSchema } from '../../core/domain/handoffSchema';

export const ITEM_CONTEXT = {
  folder: 'folder',
  file: 'file',
  conflict: 'conflict',
  /** A file of a report (per-file review): `pending` while it may be accepted or rejected, else its decision or `none`. */
  reviewFile: (state: 'pending' | 'accepted' | 'rejected' | 'none') => `reviewFile.${state}`,
  group: (group: string) => `group.${group}`,
  todo: (status: string) => `todo.${status}`,
  info: (tone: 'info' | 'warning' | 'error') => `info.${tone}`,
} as const;

/** One value of each shape the tree sets, but a handoff's: what a `viewItem` clause is checked against. */
export function itemContextSamples(): string[] {
  return [
    ITEM_CONTEXT.folder,
    ITEM_CONTEXT.file,
    ITEM_CONTEXT.conflict,
    ...(['pending', 'accepted', 'rejected', 'none'] as const).map(ITEM_CONTEXT.reviewFile),
    ...ATTENTION_GROUPS.map(ITEM_CONTEXT.group),
    ...todoSchema.shape.status.options.map(ITEM_CONTEXT.todo),
    ...(['info', 'warning', 'error'] as const).map(ITEM_CONTEXT.info),
  ];
}
