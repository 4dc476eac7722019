// A request's intake (docs/contract.md §8): the checks every request passes before its action runs, in this order, each
// answered with a refusal that names what was wrong. Nothing here touches the store.
import { ACTION_NAMES, isActionName, paramsSchemaOf, type ActionName } from './catalog';
import { reportInputRefusal } from '../domain/completionReport';
import { describeIssues } from '../domain/handoffSchema';
import { ActionError } from '../domain/errors';
import { newUid } from '../domain/handoffIds';
import { MAX_JSON_DEPTH } from '../domain/boundedJson';
import { PARSE_ONCE } from '../domain/parseOnce';
import { nestsDeeperThan, requestHash } from '../domain/stableJson';
import { requestIdSchema } from './requestParams';

export const MAX_REQUEST_BYTES = 1024 * 1024;
/** Deeper requests are refused before hashing or storing them (recursion there would overflow the stack). */
export const MAX_REQUEST_DEPTH = MAX_JSON_DEPTH;

/** A request that passed intake: its action, its id (the caller's or a new one), its parsed parameters. */
export interface Accepted {
  ok: true;
  request: Record<string, unknown>;
  action: ActionName;
  requestId: string;
  params: Record<string, unknown>;
  /** Only a caller-supplied request_id can be repeated, so only then is the request hashed (ledger and history). */
  hash: string | null;
}

/** A request refused at intake, with what is known of it (its action and id, when readable). */
export interface Refused {
  ok: false;
  action: string | null;
  requestId: string | null;
  error: ActionError;
}

/** JSON text to a value, size-capped, so a broken file still gets an answer. */
export function parseRequestText(text: string): { value: unknown } | Refused {
  const refused = (error: ActionError): Refused => ({ ok: false, action: null, requestId: null, error });
  if (Buffer.byteLength(text) > MAX_REQUEST_BYTES) {
    return refused(
      new ActionError(
        'too_large',
        `The request is over ${MAX_REQUEST_BYTES} bytes; send less (large text belongs in files the handoff names).`,
      ),
    );
  }
  try {
    return { value: JSON.parse(text) as unknown };
  } catch (e) {
    return refused(
      new ActionError(
        'invalid_json',
        `The request is not valid JSON (${(e as Error).message}). Write one JSON object such as {"action":"listHandoffs"}.`,
      ),
    );
  }
}

export function takeIn(raw: unknown): Accepted | Refused {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    const e = new ActionError('invalid_request', 'A request is one JSON object with an "action" field, e.g. {"action":"listHandoffs"}.');
    return { ok: false, action: null, requestId: null, error: e };
  }
  const req = raw as Record<string, unknown>;
  const action = typeof req.action === 'string' ? req.action.slice(0, 100) : null;
  // The top-level request_id is read first, so every later refusal (nesting too) is answered under the id
  // its writer waits for (the drop zone names the answer file by it).
  const idCheck = req.request_id === undefined ? null : requestIdSchema().safeParse(req.request_id);
  if (idCheck && !idCheck.success) {
    const e = new ActionError('invalid_request', `request_id: ${describeIssues(idCheck.error)}.`, { field: 'request_id' });
    return { ok: false, action, requestId: null, error: e };
  }
  const givenId = idCheck ? idCheck.data : null;
  if (nestsDeeperThan(req, MAX_REQUEST_DEPTH)) {
    const e = new ActionError(
      'invalid_request',
      `The request nests objects or arrays more than ${MAX_REQUEST_DEPTH} levels deep (or refers to itself); flatten it. Nothing was changed.`,
    );
    return { ok: false, action, requestId: givenId, error: e };
  }
  const requestId = givenId ?? newUid();
  const refused = (error: ActionError): Refused => ({ ok: false, action, requestId, error });
  if (action === null) {
    return refused(
      new ActionError('invalid_request', `The request has no "action" (a string). Actions: ${ACTION_NAMES.join(', ')}.`, {
        field: 'action',
      }),
    );
  }
  if (!isActionName(action)) {
    return refused(
      new ActionError('unknown_action', `Unknown action ${JSON.stringify(action)}. Actions: ${ACTION_NAMES.join(', ')}.`, {
        actions: ACTION_NAMES,
      }),
    );
  }
  // Without zod's generated parser (domain/parseOnce.ts): a CLI call parses one request; a request's parameters are small.
  const parsed = paramsSchemaOf(action).safeParse(req, PARSE_ONCE);
  if (!parsed.success) {
    // A completion report that does not parse is answered with the protocol's codes (E012 / E021).
    const report = reportInputRefusal(parsed.error);
    if (report) return refused(report);
    // An unknown key is reported on its parent object; name the key itself so the caller can find it.
    const first = parsed.error.issues[0];
    const where = first ? [...first.path.map(String), ...(first.code === 'unrecognized_keys' ? first.keys.slice(0, 1) : [])] : [];
    const field = where.join('.') || undefined;
    return refused(new ActionError('invalid_request', `${action}: ${describeIssues(parsed.error)}. Nothing was changed.`, { field }));
  }
  const hash = req.request_id !== undefined ? requestHash(req) : null;
  return { ok: true, request: req, action, requestId, params: parsed.data as Record<string, unknown>, hash };
}
