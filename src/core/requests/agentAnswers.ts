// Answers sized for an agent's context (docs/agentsync-documentation.md, "Answers for agents"): the MCP tools and the
// editor's language-model tools list handoffs as compact records, a page at a time, and no answer of theirs is over
// AGENT_ANSWER_MAX_BYTES. The drop zone and the CLI keep the full answer shape; scripts rely on it.
import type { Handoff } from '../domain/handoffSchema';
import type { ResponseEnvelope } from '../domain/responseEnvelope';
import { durationText } from './sessions/durationText';

/** The most an agent tool answers at once, as the client receives it. */
export const AGENT_ANSWER_MAX_BYTES = 64 * 1024;
/** listHandoffs' page size for an agent tool when it names none. */
export const AGENT_LIST_DEFAULT_LIMIT = 50;
const SUMMARY_CHARS = 200;

export interface CompactHandoff {
  handoff_id: string;
  status: Handoff['status'];
  /** Who it is for (to_agents) and, when claimed, who holds it. */
  owners: string[];
  claimed_by: string | null;
  /** Where the claim was taken (docs/contract.md §4); absent when it recorded none. */
  claimed_session?: Handoff['claimed_session'];
  summary: string;
  /** Since it was created, e.g. "3 h 20 min". */
  age: string;
}

export function compactHandoff(h: Handoff, now: Date): CompactHandoff {
  return {
    handoff_id: h.handoff_id,
    status: h.status,
    owners: h.to_agents,
    claimed_by: h.claimed_by ?? null,
    ...(h.claimed_session ? { claimed_session: h.claimed_session } : {}),
    summary: h.summary.length > SUMMARY_CHARS ? `${h.summary.slice(0, SUMMARY_CHARS - 1)}…` : h.summary,
    age: durationText(now.getTime() - Date.parse(h.created_at)),
  };
}

/**
 * The listHandoffs parameters an agent tool sends: its own `full` flag taken out (the action does not know it), and
 * a page of AGENT_LIST_DEFAULT_LIMIT unless the caller asked for one handoff or named a limit.
 */
export function agentListParams(args: Record<string, unknown>): { params: Record<string, unknown>; full: boolean } {
  const { full, ...params } = args;
  const one = params.handoffId !== undefined || params.handoff_id !== undefined;
  if (!one && params.limit === undefined) params.limit = AGENT_LIST_DEFAULT_LIMIT;
  return { params, full: full === true };
}

/** listHandoffs' input schema for an agent tool: the action's, plus the tools' own `full` flag. */
export function withFullFlag<S extends { properties?: Record<string, unknown> }>(schema: S): S {
  const full = { type: 'boolean', description: 'true: the handoffs as stored (every field); default: compact records' };
  return { ...schema, properties: { ...schema.properties, full } };
}

export interface SizeOptions {
  /** listHandoffs records as stored (true) or compact (false). */
  full: boolean;
  now: Date;
  /** The bytes the answer costs as the client receives it (default: its JSON). */
  measure?: (r: ResponseEnvelope) => number;
  maxBytes?: number;
}

const jsonBytes = (r: ResponseEnvelope) => Buffer.byteLength(JSON.stringify(r));

/**
 * A response made fit for an agent: listHandoffs records compact unless `full`; a page over the limit cut to what
 * fits (its next_cursor then starts after the last record kept, so paging still reaches every record once); any
 * other answer over the limit keeps its envelope and says how to read the whole.
 */
export function agentSized(response: ResponseEnvelope, options: SizeOptions): ResponseEnvelope {
  const measure = options.measure ?? jsonBytes;
  const max = options.maxBytes ?? AGENT_ANSWER_MAX_BYTES;
  let shaped = response;
  const data = response.data;
  const list =
    response.ok && response.action === 'listHandoffs' && data && Array.isArray(data.handoffs) ? (data.handoffs as Handoff[]) : null;
  if (list) {
    const records = options.full ? list : list.map((h) => compactHandoff(h, options.now));
    const withRecords = (n: number): ResponseEnvelope => {
      const cut = n < list.length;
      const next = cut ? list[n - 1].uid : (data!.next_cursor as string | undefined);
      const { next_cursor: _drop, ...rest } = data!;
      return {
        ...response,
        data: {
          ...rest,
          count: n,
          handoffs: records.slice(0, n),
          ...(next !== undefined ? { next_cursor: next } : {}),
          ...(cut
            ? { cut_to_fit: `this page held ${list.length}; ${n} fit in ${max} bytes. Call again with the cursor for the rest.` }
            : {}),
        },
      };
    };
    shaped = withRecords(list.length);
    if (measure(shaped) > max && list.length > 1) {
      // The most records that fit (at least one, so paging always moves on), found by halving.
      let lo = 1;
      let hi = list.length - 1;
      while (lo < hi) {
        const mid = Math.ceil((lo + hi) / 2);
        if (measure(withRecords(mid)) <= max) lo = mid;
        else hi = mid - 1;
      }
      shaped = withRecords(lo);
    }
  }
  if (measure(shaped) <= max) return shaped;
  return tooLarge(shaped, measure(shaped), max);
}

/** An answer still over the limit: its envelope, what it concerned, and how to read the whole. */
function tooLarge(r: ResponseEnvelope, bytes: number, max: number): ResponseEnvelope {
  const handoff = r.data?.handoff as Handoff | undefined;
  const id = handoff?.handoff_id;
  const how = id
    ? `read it in parts: \`agentsync show ${id}\` in a shell, or listHandoffs with handoffId "${id}" (compact by default)`
    : 'ask for less: listHandoffs with a smaller limit and its next_cursor, or `agentsync` in a shell for the whole answer';
  const note = {
    truncated: true,
    bytes,
    limit: max,
    how_to_get_the_rest: `The answer was ${bytes} bytes, over the ${max}-byte limit for an agent tool; ${how}.`,
  };
  const { data: _data, ...head } = r;
  const message = typeof r.message === 'string' && r.message.length > 4000 ? `${r.message.slice(0, 3999)}…` : r.message;
  if (!r.ok) return { ...head, message, ...note };
  return { ...head, data: { ...(id ? { handoff_id: id, status: handoff?.status } : {}), ...note } };
}
