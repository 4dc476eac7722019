// What one catalog entry says about a request action (docs/architecture.md, "The action catalog"): everything every
// surface needs, written once. The dispatcher runs it; the MCP tools, the Copilot tools, the CLI verbs, the editor's
// commands, menus, tree flags and List Handoffs moves, and package.json (scripts/generate-schemas.ts) are read from it.
import type * as z from 'zod';
import type { Handoff, HandoffStatus } from '../../domain/handoffSchema';
import type { ActionContext } from '../../store/handoffMutation';
import type { StoreTransaction } from '../../store/storeTransaction';
import type { SessionEnv } from '../sessions/sessionEnv';
import { lazy } from '../requestParams';

/** What prepare may use: the workspace and its configuration. */
export type ActionEnv = SessionEnv;

/** What a Copilot tool call asks the user before it changes the store: the title and the message of the dialog. */
export interface Confirmation {
  title: string;
  message: string;
}

/** What a confirmation may say about the call: the request as sent, who acts, the handoff it names (id and summary). */
export interface ConfirmationInput {
  request: Record<string, unknown>;
  /** The acting agent, as shown to people. */
  as: string;
  /** `HO-… ("summary")`, or the id alone when the handoff is not found, or "a handoff (none named)". */
  target: string;
  /** The handoff id named, if any. */
  ref: string | undefined;
}

/** The action as a VS Code language-model tool (Copilot agent mode). The model reads the action's `description`. */
export interface ToolDefinition {
  displayName: string;
  userDescription: string;
  /** A codicon, `$(name)`. */
  icon: string;
  /** The window's agent identity is filled into `agent` when the input names none. */
  actsAsAgent: boolean;
  /** The dialog shown before a call that changes the store; the catalog's generic one when absent. */
  confirm?: (input: ConfirmationInput) => Confirmation;
}

/** A text the editor asks for before a move (a reason, a time): the parameter it fills and the input box's words. */
export interface MovePrompt {
  param: string;
  title: string;
  prompt: string;
  /** Shown while the box is empty; a prompt without it may be left empty. */
  requiredMessage?: string;
  maxLength: number;
  /** What is sent for the text typed (Skip sends `skipped: <why>`); the text itself when absent. */
  format?: (text: string) => string;
}

/** A CLI verb that sends the move's request: `agentsync <verb> <handoff-id> --agent <id> [--<flag> <text>]…`. */
export interface MoveVerb {
  verb: string;
  /** Older verbs that still work (docs/architecture.md, "Names"). */
  aliases?: readonly string[];
  summary: string;
  /** Text flags, each sent as the parameter of the same name. */
  flags?: readonly string[];
  /** Flags that must be given. */
  required?: readonly string[];
  /** The past tense printed before the handoff line (`claimed HO-…`); the full record when absent. */
  done?: string;
  /** The verb is written by hand in src/cli (it reads a file or prints more); the catalog only names it. */
  handWritten?: true;
}

/** Who looks at a dashboard card: the agent this window acts as, and the handoff its active session is on. */
export interface Viewer {
  me: string;
  sessionHandoff: string | null;
}

/** A move's button on the editor dashboard's cards (its label is the command's). */
export interface DashboardButton {
  /** Where it sits on a card, lowest first; the first a card has is its primary button. */
  order: number;
  /** The tooltip after the label. */
  hint: string;
  /** Whether this viewer gets the button, beyond `available` (Start: the handoff is held by the viewer). */
  forViewer?: (h: Handoff, viewer: Viewer) => boolean;
}

/**
 * A move: one thing a person or an agent does to a handoff, sent as this action's request. Its name is the one name
 * of the move on every surface: the tree's `can-<name>` flag, the dashboard, the List Handoffs pick.
 */
export interface MoveDefinition {
  name: string;
  /** Fixed parameters the move sends (transitionHandoff's `to`). */
  fixed?: Readonly<Record<string, unknown>>;
  /** Whether the handoff offers this move now: read from the lifecycle (domain/lifecycle.ts), never a status list. */
  available: (h: Handoff) => boolean;
  cli?: MoveVerb;
  /** The editor command (package.json contributes.commands, menus); none for a CLI-only move. */
  command?: {
    id: string;
    title: string;
    /** The short label of List Handoffs and the dashboard. */
    label: string;
    /** A codicon name. */
    icon: string;
    /** view/item/context: the menu group (`1_move@2`), and whether it is also an inline button. */
    group: string;
    inline?: boolean;
    /**
     * The tree item the menu entry is on: a handoff (by its can- flag, and a List Handoffs pick) or a merge conflict;
     * `palette`: no tree menu entry, flag or pick (the Command Palette and the dashboard only); `file`: a file of a
     * report waiting for its review (manifest/treeItemContext.ts `reviewFile`).
     */
    on?: 'handoff' | 'conflict' | 'file' | 'palette';
    /** Texts asked before the request is sent (the generic command handler). */
    prompts?: readonly MovePrompt[];
    /** The message after it worked: `${id} …`, or where `{id}` stands; `{me}` is the window's agent. */
    done?: string;
  };
  /** A button on the dashboard's cards where the move is available (it needs a `command`). */
  dashboard?: DashboardButton;
  /** The target status, when the move is a transition. */
  to?: HandoffStatus;
}

export interface ActionDefinition<S extends z.ZodType = z.ZodType, R extends object = object, P = unknown> {
  /** Builds the parameter schema; defineAction makes it build once, on first use. */
  params: () => S;
  readOnly: boolean;
  /** What it does, when to use it, what it answers: the MCP tool's and the Copilot tool's description. */
  description: string;
  /** Sweeps timed-out passes itself and answers with them, so the dispatcher's sweep before it is skipped. */
  sweepsTimeouts?: true;
  /**
   * Its answer tells the agent its writes the remote revoked (applied offline, then lost to another clone; docs/contract.md
   * §13, requests/offlineWrites.ts): `show` tells, `markTold` also marks them told once the batch is written.
   */
  tellsRevoked?: 'show' | 'markTold';
  /** Slow I/O (git, health checks) done BEFORE the store lock is taken; its result is passed to run. */
  prepare?(env: ActionEnv, params: z.output<S>): Promise<P>;
  run(tx: StoreTransaction, ctx: ActionContext, params: z.output<S>, prepared: P): R;
  /** Offered to Copilot agent mode as `agentsync_<name>` when present. */
  tool?: ToolDefinition;
  /** The moves that send this action, in the order menus and pickers show them. */
  moves?: readonly MoveDefinition[];
}

/**
 * An entry, with its parameter and result types inferred from `params` and `run`. Its schema is built on the first
 * `params()` and kept: a process builds only the schemas of the actions it runs.
 */
export function defineAction<S extends z.ZodType, R extends object, P = undefined>(
  d: ActionDefinition<S, R, P>,
): ActionDefinition<S, R, P> {
  return { ...d, params: lazy(d.params) };
}
