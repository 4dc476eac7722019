// The shapes of the Handoffs tree's nodes (each with a `kind`) and what a level is built with; treeNodes.ts builds
// them and treeNotices.ts adds the info lines, both from here, so neither imports the other.
import type { FolderService } from '../folders/folderService';
import type { AttentionGroup } from '../../core/domain/handoffAttention';
import type { AttentionGroupIndex } from '../../core/domain/attentionTree';
import type { AgentSyncConfig } from '../../core/domain/configSchema';
import type { Handoff, Todo } from '../../core/domain/handoffSchema';
import type { FileModification } from '../../core/domain/fileModification';

export type HandoffConflict = NonNullable<Handoff['conflicts']>[number];

interface NodeBase {
  id: string;
  service: FolderService;
  parent?: TreeNode;
}
export interface FolderNode extends NodeBase {
  kind: 'folder';
}
export interface GroupNode extends NodeBase {
  kind: 'group';
  group: AttentionGroup;
  handoffs: Handoff[];
  /** The group's rows and chains, indexed once per render of the folder. */
  index: AttentionGroupIndex;
  /** Every handoff of the folder: a fan-out's children may sit in different groups, and each is numbered among all. */
  all: readonly Handoff[];
  config: AgentSyncConfig;
}
export interface HandoffNode extends NodeBase {
  kind: 'handoff';
  handoff: Handoff;
  /** Why it is stale, or null. */
  stale: string | null;
  /** Open handoffs passed on or returned from this one (parent_uid), in any group, shown beneath it. */
  chained: readonly Handoff[];
  index: AttentionGroupIndex;
  all: readonly Handoff[];
  config: AgentSyncConfig;
}
export interface FileNode extends NodeBase {
  kind: 'file';
  path: string;
  handoff: Handoff;
}
export interface TodoNode extends NodeBase {
  kind: 'todo';
  todo: Todo;
  handoff: Handoff;
}
/** A file the report of returned work lists (per-file review, docs/contract.md §6): click opens its diff. */
export interface ReviewFileNode extends NodeBase {
  kind: 'reviewFile';
  file: FileModification;
  handoff: Handoff;
}
/** What a git merge of the store could not decide on its own (docs/contract.md §3 `conflicts`), until a human clears it. */
export interface ConflictNode extends NodeBase {
  kind: 'conflict';
  conflict: HandoffConflict;
  handoff: Handoff;
}
export interface InfoNode extends NodeBase {
  kind: 'info';
  message: string;
  detail?: string;
  tone: 'info' | 'warning' | 'error';
  command?: { command: string; title: string; arguments?: unknown[] };
}
export type TreeNode = FolderNode | GroupNode | HandoffNode | FileNode | ReviewFileNode | TodoNode | ConflictNode | InfoNode;

export interface TreeContext {
  me: string;
  identityProblem: string | null;
  trusted: boolean;
  now: Date;
}
