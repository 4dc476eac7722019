// The editor's commands (docs/architecture.md, "The action catalog"): the moves of the action catalog
// (core/requests/catalog/), each with its command, and the commands that are no action, each listed once here.
// No `vscode` import: `npm run schemas` writes contributes.commands and contributes.menus of package.json from it,
// a unit test fails when package.json drifts, and the tree's contextValue flags come from the same moves.
import { MOVES, type CatalogMove } from '../../core/requests/catalog';
import { isTerminal, STATUSES, type Handoff } from '../../core/domain/handoffSchema';
import { INITIALIZED_CONTEXT_KEY } from './contextKeys';
import { ITEM_CONTEXT } from './treeItemContext';
import { HANDOFFS_VIEW_ID } from './viewContributions';

/** A command that is no action of the catalog (it opens, shows or sets up something). */
export interface PlainCommand {
  id: string;
  title: string;
  icon: string;
  /** Shown in the Command Palette only in an initialized folder, or `always`. */
  palette: 'initialized' | 'always';
  /** view/title of the Handoffs view: the group, and whether it needs an initialized folder. */
  viewTitle?: { group: string; initialized: boolean };
  /** view/item/context on every handoff item, or (`unfinished`) on those whose status is not terminal. */
  onHandoff?: { group: string; unfinished?: boolean };
}

export const PLAIN_COMMANDS: readonly PlainCommand[] = [
  {
    id: 'agentsync.init',
    title: 'Initialize Workspace',
    icon: 'rocket',
    palette: 'always',
    viewTitle: { group: '2_files@2', initialized: false },
  },
  {
    id: 'agentsync.startSession',
    title: 'Start Session',
    icon: 'play',
    palette: 'initialized',
    viewTitle: { group: '1_session@1', initialized: true },
  },
  {
    id: 'agentsync.endSession',
    title: 'End Session',
    icon: 'debug-stop',
    palette: 'initialized',
    viewTitle: { group: '1_session@2', initialized: true },
  },
  {
    id: 'agentsync.addHandoffNote',
    title: 'Add Handoff Note',
    icon: 'note',
    palette: 'initialized',
    viewTitle: { group: 'navigation@1', initialized: true },
  },
  {
    id: 'agentsync.listHandoffs',
    title: 'List Handoffs',
    icon: 'list-unordered',
    palette: 'initialized',
    viewTitle: { group: 'navigation@2', initialized: true },
  },
  {
    id: 'agentsync.openRecord',
    title: 'Open Handoff Record',
    icon: 'go-to-file',
    palette: 'initialized',
    onHandoff: { group: '3_open@1' },
  },
  { id: 'agentsync.showHistory', title: 'Show History', icon: 'history', palette: 'initialized', onHandoff: { group: '3_open@2' } },
  {
    id: 'agentsync.openInNewWorktree',
    title: 'Open in New Worktree',
    icon: 'repo-forked',
    palette: 'initialized',
    onHandoff: { group: '3_open@3', unfinished: true },
  },
  {
    id: 'agentsync.openTracker',
    title: 'Open Tracker',
    icon: 'book',
    palette: 'initialized',
    viewTitle: { group: '2_files@1', initialized: true },
  },
  {
    id: 'agentsync.refresh',
    title: 'Refresh',
    icon: 'refresh',
    palette: 'always',
    viewTitle: { group: 'navigation@3', initialized: false },
  },
  // A report's file opens its diff (per-file review, docs/contract.md §6): a tree item's click, or a pick of the files.
  { id: 'agentsync.openFileDiff', title: 'Open File Diff', icon: 'diff', palette: 'initialized' },
  { id: 'agentsync.showStaleHandoffs', title: 'Show Stale Handoffs Assigned to Me', icon: 'warning', palette: 'initialized' },
  { id: 'agentsync.installCommandInPath', title: "Install 'agentsync' Command in PATH", icon: 'terminal', palette: 'always' },
];

export const OPEN_FILE_DIFF = 'agentsync.openFileDiff';

/** The moves that are editor commands, in menu order. */
export const COMMAND_MOVES = MOVES.filter((m): m is CatalogMove & { command: NonNullable<CatalogMove['command']> } => !!m.command);

/** The moves a handoff item offers, as its tree flag: `can-claim`, `can-return`, … */
export function moveFlag(move: { name: string }): string {
  return `can-${move.name}`;
}

/** The flags 0.4 documented for a move, still set beside its can- flag for menus and keybindings that match them. */
const OLD_FLAGS: Readonly<Record<string, string>> = { assign: 'unassigned', return: 'returnable' };

/**
 * A handoff item's contextValue: `handoff.<status>`, then `.can-<move>` for each move of the catalog the handoff offers
 * now (its `available`, read from the lifecycle), then the older `.unassigned` / `.returnable`. The menus match
 * `viewItem =~ /\.can-<move>(\.|$)/`.
 */
export function handoffContextValue(h: Handoff): string {
  const offered = COMMAND_MOVES.filter((m) => (m.command.on ?? 'handoff') === 'handoff' && m.available(h));
  const flags = offered.map((m) => `.${moveFlag(m)}`);
  const old = offered.flatMap((m) => (OLD_FLAGS[m.name] ? [`.${OLD_FLAGS[m.name]}`] : []));
  return `handoff.${h.status}${flags.join('')}${old.join('')}`;
}

/** A handoff item's contextValue in each status, with no flag and with every flag: what a `viewItem` clause is checked against. */
export function handoffContextSamples(): string[] {
  const flags = [...COMMAND_MOVES.map((m) => `.${moveFlag(m)}`), ...Object.values(OLD_FLAGS).map((f) => `.${f}`)].join('');
  return STATUSES.flatMap((s) => [`handoff.${s}`, `handoff.${s}${flags}`]);
}

const VIEW = `view == ${HANDOFFS_VIEW_ID}`;
const UNFINISHED = STATUSES.filter((s) => !isTerminal(s)).join('|');
const INITIALIZED = INITIALIZED_CONTEXT_KEY;

/** package.json contributes.commands. */
export function commandContributions(): Record<string, unknown>[] {
  const entry = (id: string, title: string, icon: string) => ({ command: id, title, category: 'AgentSync', icon: `$(${icon})` });
  return [
    ...PLAIN_COMMANDS.map((c) => entry(c.id, c.title, c.icon)),
    ...COMMAND_MOVES.map((m) => entry(m.command.id, m.command.title, m.command.icon)),
  ];
}

function itemWhen(move: (typeof COMMAND_MOVES)[number]): string {
  if (move.command.on === 'conflict') return `${VIEW} && viewItem == conflict`;
  if (move.command.on === 'file') return `${VIEW} && viewItem == ${ITEM_CONTEXT.reviewFile('pending')}`;
  return `${VIEW} && viewItem =~ /\\.${moveFlag(move)}(\\.|$)/`;
}

/** package.json contributes.menus. */
export function menuContributions(): Record<string, Record<string, unknown>[]> {
  const palette = [
    ...PLAIN_COMMANDS.filter((c) => c.palette === 'initialized').map((c) => ({ command: c.id, when: INITIALIZED })),
    ...COMMAND_MOVES.map((m) => ({ command: m.command.id, when: INITIALIZED })),
  ];
  const viewTitle = PLAIN_COMMANDS.filter((c) => c.viewTitle).map((c) => ({
    command: c.id,
    when: c.viewTitle!.initialized ? `${VIEW} && ${INITIALIZED}` : VIEW,
    group: c.viewTitle!.group,
  }));
  const onTree = COMMAND_MOVES.filter((m) => m.command.on !== 'palette');
  const inline = onTree
    .filter((m) => m.command.inline)
    .map((m) => ({
      command: m.command.id,
      when: itemWhen(m),
      group: 'inline@1',
    }));
  const context = onTree.map((m) => ({ command: m.command.id, when: itemWhen(m), group: m.command.group }));
  const open = PLAIN_COMMANDS.filter((c) => c.onHandoff).map((c) => ({
    command: c.id,
    when: c.onHandoff!.unfinished ? `${VIEW} && viewItem =~ /^handoff\\.(${UNFINISHED})(\\.|$)/` : `${VIEW} && viewItem =~ /^handoff\\./`,
    group: c.onHandoff!.group,
  }));
  return { commandPalette: palette, 'view/title': viewTitle, 'view/item/context': [...inline, ...context, ...open] };
}
