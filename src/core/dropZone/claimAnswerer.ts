// Answering one claimed request: read it safely, give a half-written one a moment, dispatch it (under the claim's
// ULID when it brought no request_id), then write the response atomically and only then remove the claim.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { writeFileAtomic } from '../disk/atomicFile';
import { isStorageFailure } from '../disk/storageErrors';
import { ActionError, type RefusalReason } from '../domain/errors';
import { rejectEntry, type Claim, type DropZonePaths } from './dropZoneClaims';
import { readRequestFile } from './requestIntake';
import type { RequestDispatcher, RequestResponse } from '../requests/requestDispatcher';
import type { RequestCaller } from '../requests/requestSession';

export interface DropZoneLogger {
  info(message: string): void;
  warn(message: string): void;
}

export interface DropZoneAnswer {
  requestFile: string;
  responseFile: string | null;
  response: RequestResponse | null;
  /** Set when the request was moved to requests/rejected/ instead of answered. */
  rejected?: string;
}

export type Outcome = 'answered' | 'refused' | 'rejected';

/** How long a request that does not parse is given to finish being written (a writer that skipped the rename). */
const SETTLE_MS = 400;
const SETTLE_STEP_MS = 25;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class ClaimAnswerer {
  /** Requests with the same request_id are answered one after the other, so the second sees the first's ledger entry. */
  private readonly byRequestId = new Map<string, Promise<unknown>>();

  constructor(
    private readonly paths: DropZonePaths,
    private readonly dispatcher: RequestDispatcher,
    private readonly maxBytes: number,
    private readonly logger: DropZoneLogger,
    private readonly outcome: (outcome: Outcome, answer: DropZoneAnswer) => void,
    /** Where the requests come from: this drop zone's worktree, never the environment of the process answering them. */
    private readonly caller: RequestCaller,
  ) {}

  async answer(claim: Claim): Promise<void> {
    if (claim.tracked) {
      const shown = claim.kind === 's' ? 'request.json' : `requests/${claim.original}`;
      const why =
        `git tracks ${shown}: it came with a commit (a checkout, pull or worktree), not from an agent here, and a branch ` +
        `cannot carry requests. It was not read or acted on and was moved to requests/rejected/; nothing was changed. ` +
        `Remove it from the branch (git rm --cached) and write requests as untracked files.`;
      this.logger.warn(`drop zone: ${why}`);
      this.writeAnswer(claim, this.refusal(claim, 'unsafe_file', why), why);
      return;
    }
    const intake = readRequestFile(claim.file, claim.kind === 's' ? 'request.json' : `requests/${claim.original}`, this.maxBytes);
    if (intake.kind === 'reject') {
      const moved = rejectEntry(this.paths, claim.file, claim.ulid, claim.original, intake.why);
      this.logger.warn(`drop zone: ${claim.original} moved to ${moved}: ${intake.why}`);
      this.outcome('rejected', { requestFile: claim.original, responseFile: null, response: null, rejected: moved });
      return;
    }
    let response: RequestResponse;
    if (intake.kind === 'refuse') {
      response = this.refusal(claim, intake.reason, intake.message);
    } else {
      let text = intake.text;
      let parsed = parseJson(text);
      if (parsed === undefined && Date.now() - intake.mtimeMs < 2_000) {
        // Not JSON yet and just written: a writer may still be writing into it (it skipped the rename contract).
        text = await this.settle(claim.file, text);
        parsed = parseJson(text);
      }
      response = await this.dispatch(claim, text, parsed);
    }
    this.writeAnswer(claim, response);
  }

  /**
   * Re-reads a request every SETTLE_STEP_MS until it parses, for up to SETTLE_MS (docs/agentsync-documentation.md,
   * "the drop zone"): a writer that pauses mid-write (a slow pipe, a busy agent) still gets the whole grace.
   */
  private async settle(file: string, text: string): Promise<string> {
    const deadline = Date.now() + SETTLE_MS;
    let last = text;
    while (Date.now() < deadline) {
      await sleep(SETTLE_STEP_MS);
      const again = readRequestFile(file, '', this.maxBytes);
      if (again.kind !== 'text') return last;
      last = again.text;
      if (parseJson(last) !== undefined) break;
    }
    return last;
  }

  private dispatch(claim: Claim, text: string, parsed: unknown): Promise<RequestResponse> {
    const ctx = { surface: 'dropzone', requestFile: claim.kind === 'q' ? claim.original : undefined, caller: this.caller };
    if (parsed === undefined) return this.dispatcher.dispatchText(text, ctx).then((r) => this.named(r, claim.ulid));
    const obj = parsed as Record<string, unknown>;
    const isObject = obj !== null && typeof obj === 'object' && !Array.isArray(obj);
    if (!isObject || obj.request_id === undefined) {
      // No request_id: the claim's ULID becomes it, so a retry after a crash is recognised as the same request.
      const request = isObject ? { ...obj, request_id: claim.ulid } : obj;
      return this.serialized(claim.ulid, () => this.dispatcher.dispatch(request, ctx)).then((r) => this.named(r, claim.ulid));
    }
    // The dispatcher alone checks the request_id (requestIntake.ts): its answer carries the id only when it accepted
    // it; otherwise the answer is named by the claim's ULID, as for a request without one.
    const given = obj.request_id;
    const key = typeof given === 'string' ? given : claim.ulid;
    return this.serialized(key, () => this.dispatcher.dispatch(obj, ctx)).then((r) =>
      r.request_id === given ? r : this.named(r, claim.ulid),
    );
  }

  private serialized(id: string, run: () => Promise<RequestResponse>): Promise<RequestResponse> {
    const before = this.byRequestId.get(id);
    const next = before ? before.then(run, run) : run();
    this.byRequestId.set(id, next);
    const clear = () => {
      if (this.byRequestId.get(id) === next) this.byRequestId.delete(id);
    };
    next.then(clear, clear);
    return next;
  }

  /** A response whose request had no usable request_id is named (and identified) by the claim's ULID. */
  private named(r: RequestResponse, ulid: string): RequestResponse {
    return r.request_id === ulid ? r : { ...r, request_id: ulid };
  }

  /** A request refused before it could be read (size, symlink, FIFO): the dispatcher's refusal, audited like any other. */
  private refusal(claim: Claim, reason: RefusalReason, message: string): RequestResponse {
    const ctx = { surface: 'dropzone', requestFile: claim.kind === 'q' ? claim.original : undefined };
    return this.dispatcher.refuse(ctx, null, claim.ulid, new ActionError(reason, message));
  }

  /** Writes the response atomically, then removes the claim: in that order, so a crash in between loses nothing. */
  private writeAnswer(claim: Claim, response: RequestResponse, setAside?: string): void {
    let target: string;
    let body: RequestResponse = response;
    if (claim.kind === 's') {
      target = this.paths.layout.resultFile;
      // AgentSync 0.3 clients read `error` on failure.
      if (!response.ok && response.error === undefined) body = { ...response, error: response.message };
    } else {
      target = path.join(this.paths.layout.responsesDir, responseFileName(response, claim.original));
      // The id's answer file holds another request's answer (e.g. a refused first request, which leaves no record
      // for request_id_reused to find): it stays as it is, and this answer goes beside it.
      if (holdsAnotherAnswer(target, response))
        target = path.join(this.paths.layout.responsesDir, reusedIdFileName(response.request_id, claim.original));
    }
    try {
      writeFileAtomic(target, JSON.stringify(body, null, 2) + '\n');
    } catch (e) {
      // A full or read-only disk passes: the claim stays in place and is retried (its ULID replays the answer).
      if (isStorageFailure(e)) throw e;
      // e.g. the response name is taken by a symlink: the request was handled, but its answer has nowhere safe to go.
      const why = `its response could not be written to ${target}: ${(e as Error).message}`;
      const moved = rejectEntry(this.paths, claim.file, claim.ulid, claim.original, why);
      this.logger.warn(`drop zone: ${claim.original} moved to ${moved}: ${why}`);
      this.outcome('rejected', { requestFile: claim.original, responseFile: null, response: body, rejected: moved });
      return;
    }
    if (setAside) rejectEntry(this.paths, claim.file, claim.ulid, claim.original, setAside);
    else fs.rmSync(claim.file, { force: true });
    this.outcome(response.ok ? 'answered' : 'refused', {
      requestFile: claim.kind === 's' ? 'request.json' : claim.original,
      responseFile: target,
      response: body,
    });
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** request_id allows ":" which Windows file names do not. */
function responseName(requestId: string): string {
  return process.platform === 'win32' ? requestId.replace(/:/g, '_') : requestId;
}

/**
 * `responses/<request_id>.json`, except for a second request under a used id (`request_id_reused`): its refusal goes to
 * `responses/<request_id>@<request file name>`, so the first request's answer stays and the second writer, who knows
 * both names, finds its own (docs/contract.md §8). `@` is not allowed in a request_id, so no answer can have that name.
 */
export function responseFileName(response: RequestResponse, requestFile: string): string {
  return !response.ok && response.reason === 'request_id_reused'
    ? reusedIdFileName(response.request_id, requestFile)
    : `${responseName(response.request_id)}.json`;
}

/** `<request_id>@<request file name>`: the answer of a later request under an id whose answer file is taken. */
export function reusedIdFileName(requestId: string, requestFile: string): string {
  return `${responseName(requestId)}@${requestFile}`;
}

/**
 * Whether `file` already holds an answer other than `response` (ignoring its timestamp). The same answer again (an
 * exact repeat, or a retry after a crash between writing the answer and removing the claim) may replace it.
 */
function holdsAnotherAnswer(file: string, response: RequestResponse): boolean {
  let text: string;
  try {
    if (!fs.lstatSync(file).isFile()) return false; // a symlink or folder: the write refuses it
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return false; // no answer there yet
  }
  const withoutTime = (r: unknown) => JSON.stringify({ ...(r as object), timestamp: undefined });
  const old = parseJson(text);
  return old === undefined || withoutTime(old) !== withoutTime(response);
}
