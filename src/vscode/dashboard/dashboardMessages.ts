// The messages between the dashboard webview (media/dashboard.js) and the extension. What the page sends is checked
// before use: it names a button and a handoff, never a request, so the page cannot ask for anything the tree cannot.
import { dashboardMoveNamed } from '../../core/requests/catalog/dashboardMoves';
import type { DashboardModel } from '../../core/requests/dashboardModel';

/** Extension → page: the whole model, numbered; the page answers `rendered` with the same number once drawn. */
export interface ModelMessage {
  type: 'model';
  seq: number;
  model: DashboardModel;
}

export interface CardActionRequest {
  type: 'act';
  /** The move's name (a dashboard move of the action catalog). */
  action: string;
  /** The workspace folder's root path. */
  folder: string;
  handoffId: string;
}

export type PageMessage = { type: 'ready' } | { type: 'rendered'; seq: number } | CardActionRequest;

const MAX_ID = 64;
const MAX_PATH = 4_096;

/** The page's message, or null for anything malformed (logged by the caller, never acted on). */
export function parsePageMessage(raw: unknown): PageMessage | null {
  if (!raw || typeof raw !== 'object') return null;
  const m = raw as Record<string, unknown>;
  switch (m.type) {
    case 'ready':
      return { type: 'ready' };
    case 'rendered':
      return Number.isSafeInteger(m.seq) ? { type: 'rendered', seq: m.seq as number } : null;
    case 'act': {
      const { action, folder, handoffId } = m;
      if (typeof action !== 'string' || !dashboardMoveNamed(action)) return null;
      if (typeof folder !== 'string' || folder.length === 0 || folder.length > MAX_PATH) return null;
      if (typeof handoffId !== 'string' || handoffId.length === 0 || handoffId.length > MAX_ID) return null;
      return { type: 'act', action, folder, handoffId };
    }
    default:
      return null;
  }
}
