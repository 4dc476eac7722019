// Copilot agent mode's way in (docs/contract.md §10a; docs/agentsync-documentation.md "Tools for agents"): each tool of the
// catalog registered with vscode.lm.registerTool. A call goes through the folder's one dispatcher (surface
// "lm-tool"), so it gets the same validation, lock, rules and audit as every surface, and answers the response
// envelope as JSON text. Tools that change the store ask the user first (prepareInvocation).
import * as vscode from 'vscode';
import { displayAgent } from '../../core/domain/agentId';
import type { RequestResponse } from '../../core/requests/requestDispatcher';
import { agentListParams, agentSized } from '../../core/requests/agentAnswers';
import type { FolderService } from '../folders/folderService';
import type { FolderServices } from '../folders/folderServices';
import { LANGUAGE_MODEL_TOOLS, requestFor, type LanguageModelToolSpec } from './languageModelToolCatalog';
import { refusal as refusalResponse } from '../../core/domain/responseEnvelope';
import { actionOf } from '../../core/requests/catalog';
import type { RefusalReason } from '../../core/domain/errors';

type ToolInput = Record<string, unknown>;

export interface LanguageModelToolDeps {
  services: FolderServices;
  /** The window's agent identity (agentsync.agentId). */
  me: () => string;
  log: vscode.LogOutputChannel;
}

/** A tool input value as text: strings as they are, anything else (the model may send any JSON) as JSON. */
function shown(value: unknown, fallback: string): string {
  if (value === undefined || value === null) return fallback;
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? fallback);
}

function handoffRef(input: ToolInput): string | undefined {
  const ref = input.handoffId ?? input.handoff_id;
  return typeof ref === 'string' ? ref : undefined;
}

/** The folder a call acts on: the one whose store holds the named handoff, else the first initialized folder. */
function folderFor(services: FolderServices, input: ToolInput): FolderService | undefined {
  const ready = services.all().filter((s) => s.isInitialized());
  const ref = handoffRef(input);
  return (ref ? ready.find((s) => s.find(ref)) : undefined) ?? ready[0];
}

function refusal(spec: LanguageModelToolSpec, reason: RefusalReason, message: string): RequestResponse {
  return { ...refusalResponse(spec.action, reason, message, { requestId: '' }), request_id: '' };
}

export async function invokeTool(deps: LanguageModelToolDeps, spec: LanguageModelToolSpec, input: ToolInput): Promise<RequestResponse> {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    return refusal(spec, 'invalid_request', `${spec.name} takes one JSON object as input. Nothing was changed.`);
  }
  if (input.action !== undefined && input.action !== spec.action) {
    const given = JSON.stringify(input.action);
    return refusal(
      spec,
      'invalid_request',
      `The tool ${spec.name} runs the action ${spec.action}; leave out "action" (it was ${given}). Nothing was changed.`,
    );
  }
  const service = folderFor(deps.services, input);
  if (!service) {
    const what = 'No workspace folder here is an AgentSync workspace. Run "AgentSync: Initialize Workspace" (or `agentsync init`) first.';
    return refusal(spec, 'not_initialized', `${what} Nothing was changed.`);
  }
  // listHandoffs answers a page of compact records (full: true for the stored ones); every answer is bounded
  // (core/requests/agentAnswers.ts).
  const { params, full } = spec.action === 'listHandoffs' ? agentListParams(input) : { params: input, full: true };
  const response = await service.dispatcher.dispatch(requestFor(spec, params, deps.me()), { surface: 'lm-tool' });
  if (response.ok) deps.log.info(`${spec.name} ok (${response.request_id})`);
  else deps.log.warn(`${spec.name} refused (${response.reason}): ${response.message}`);
  return { ...agentSized(response, { full, now: new Date() }), request_id: response.request_id };
}

function describeHandoff(deps: LanguageModelToolDeps, input: ToolInput): string {
  const ref = handoffRef(input);
  if (!ref) return 'a handoff (none named)';
  const h = folderFor(deps.services, input)?.find(ref);
  return h ? `${h.handoff_id} ("${h.summary.split('\n')[0].slice(0, 120)}")` : ref;
}

/** The confirmation shown before a tool changes the store: the catalog entry's text (what changes, and as whom). */
export function confirmationFor(
  deps: LanguageModelToolDeps,
  spec: LanguageModelToolSpec,
  input: ToolInput,
): vscode.LanguageModelToolConfirmationMessages {
  const request = requestFor(spec, input, deps.me());
  const as = displayAgent(shown(request.agent, deps.me()));
  const confirm = actionOf(spec.action).tool?.confirm;
  if (confirm) return confirm({ request, as, target: describeHandoff(deps, input), ref: handoffRef(input) });
  return { title: `${spec.displayName}?`, message: `${as} runs ${spec.action}, which changes .agentsync/handoffs.json.` };
}

export function registerLanguageModelTools(deps: LanguageModelToolDeps): vscode.Disposable[] {
  // An editor without the language-model API (older than 1.105, or without chat) simply gets no tools.
  if (typeof vscode.lm?.registerTool !== 'function') return [];
  return LANGUAGE_MODEL_TOOLS.map((spec) =>
    vscode.lm.registerTool<ToolInput>(spec.name, {
      prepareInvocation: (options) => ({
        invocationMessage: `${spec.displayName}${handoffRef(options.input) ? ` ${handoffRef(options.input)}` : ''}`,
        ...(spec.changesStore ? { confirmationMessages: confirmationFor(deps, spec, options.input) } : {}),
      }),
      invoke: async (options) => {
        const response = await invokeTool(deps, spec, options.input);
        return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(JSON.stringify(response))]);
      },
    }),
  );
}
