// The one shape every surface answers with (docs/agentsync-documentation.md, "Responses"):
// `{ ok, action, request_id?, timestamp, request_file?, data }` or `{ ok: false, …, reason, message, ...details }`.
// The dispatcher, the CLI verbs, the MCP server and the editor all build it here, so it cannot drift.
import type { RefusalReason } from './errors';

export interface ResponseEnvelope {
  ok: boolean;
  action: string | null;
  request_id?: string;
  timestamp: string;
  request_file?: string;
  data?: Record<string, unknown>;
  reason?: RefusalReason;
  message?: string;
  [detail: string]: unknown;
}

/** Where a response came from, beyond its action: the request's id and the drop-zone file it answers. */
export interface EnvelopeOrigin {
  requestId?: string;
  requestFile?: string;
}

/** The keys of the envelope itself; a refusal's details never overwrite them. */
const RESERVED = new Set(['ok', 'action', 'request_id', 'timestamp', 'request_file', 'data', 'reason', 'message']);

function head(ok: boolean, action: string | null, origin: EnvelopeOrigin): ResponseEnvelope {
  return {
    ok,
    action,
    ...(origin.requestId !== undefined ? { request_id: origin.requestId } : {}),
    timestamp: new Date().toISOString(),
    ...(origin.requestFile ? { request_file: origin.requestFile } : {}),
  };
}

/** A success: the action's answer under `data`. */
export function okResponse(action: string | null, data: Record<string, unknown>, origin: EnvelopeOrigin = {}): ResponseEnvelope {
  return { ...head(true, action, origin), data };
}

/** A refusal: a reason from the closed list, a message saying what to do, and details beside them (undefined ones dropped). */
export function refusal(
  action: string | null,
  reason: RefusalReason,
  message: string,
  origin: EnvelopeOrigin = {},
  details: Record<string, unknown> = {},
): ResponseEnvelope {
  const extra = Object.fromEntries(Object.entries(details).filter(([k, v]) => !RESERVED.has(k) && v !== undefined));
  return { ...head(false, action, origin), reason, message, ...extra };
}
