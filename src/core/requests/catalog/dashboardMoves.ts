// The editor dashboard's card buttons (docs/architecture.md, "The action catalog"): the moves of the catalog that have
// an editor command and a `dashboard` entry. A card offers the ones its handoff offers now, for the viewer; the page
// is sent their labels and hints, so a move added to the catalog shows on the dashboard without a dashboard edit.
import type { Handoff } from '../../domain/handoffSchema';
import type { DashboardButton, MoveDefinition, Viewer } from './actionDefinition';
import { MOVES, type CatalogMove } from './index';

export type DashboardMove = CatalogMove & {
  command: NonNullable<MoveDefinition['command']>;
  dashboard: DashboardButton;
};

/** A button as the page draws it. */
export interface ButtonText {
  label: string;
  hint: string;
}

/** The moves that are dashboard buttons, in the order a card draws them. */
export const DASHBOARD_MOVES: readonly DashboardMove[] = MOVES.filter((m): m is DashboardMove => !!m.command && !!m.dashboard).sort(
  (a, b) => a.dashboard.order - b.dashboard.order,
);

export function dashboardMoveNamed(name: string): DashboardMove | undefined {
  return DASHBOARD_MOVES.find((m) => m.name === name);
}

/**
 * The buttons of a card, by move name: the moves the handoff offers now (their `available`, as the tree's menus) that
 * this viewer gets. Whether the viewer may make the move is the dispatcher's decision when the button is pressed.
 */
export function dashboardMovesFor(h: Handoff, viewer: Viewer): string[] {
  return DASHBOARD_MOVES.filter((m) => m.available(h) && (m.dashboard.forViewer?.(h, viewer) ?? true)).map((m) => m.name);
}

/** The label (the move's command label) and hint of every button, by move name. */
export function dashboardButtonTexts(): Record<string, ButtonText> {
  return Object.fromEntries(DASHBOARD_MOVES.map((m) => [m.name, { label: m.command.label, hint: m.dashboard.hint }]));
}
