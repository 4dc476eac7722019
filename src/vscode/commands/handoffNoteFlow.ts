// The questions that make a handoff (docs/contract.md §10, handoff notes): owner mode, targets or
// capabilities, summary, note. Used by Add Handoff Note and by End Session; nothing is written until the
// caller sends the finished draft as one createHandoff request.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { AGENT_ID_PATTERN, displayAgent, normalizeAgentId } from '../../core/domain/agentId';
import { LIMITS, type OwnerMode } from '../../core/domain/handoffSchema';
import type { RequestResponse } from '../../core/requests/requestDispatcher';
import { reportResponse } from './commandRunner';
import type { FolderService } from '../folders/folderService';
import type { CommandDeps } from './commandDeps';
import { askText, pickMany, pickOne, type Choice } from './prompts';

export type Ownership =
  | { kind: 'assign'; owner_mode: OwnerMode; to_agents?: string[]; required_capabilities?: string[] }
  | { kind: 'skip'; no_handoff_reason: string };

const OTHER = '\u0000other';
const CAPABILITY = /^[A-Za-z0-9_.:-]{1,100}$/;

function knownAgents(service: FolderService, me: string): Choice<string>[] {
  const view = service.view();
  const caps = view.config.agentCapabilities;
  const ids = new Set<string>(Object.keys(caps));
  if (ids.size === 0) for (const h of view.handoffs) for (const a of [h.from_agent, ...h.to_agents]) ids.add(a);
  for (const hu of view.config.humans) ids.add(hu);
  const sorted = [...ids].sort((a, b) => Number(a === me) - Number(b === me));
  return sorted.map((id) => ({
    label: displayAgent(id),
    description: [id === me ? '(you)' : '', (caps[id] ?? []).join(', ')].filter(Boolean).join(' '),
    value: id,
  }));
}

async function askOtherAgent(title: string): Promise<string> {
  const raw = await askText({
    title,
    prompt: 'Agent id (e.g. codex, claude, copilot)',
    requiredMessage: 'Type an agent id.',
    validate: (v) => (AGENT_ID_PATTERN.test(normalizeAgentId(v)) ? undefined : 'Agent ids are letters, digits, "-" or "_".'),
  });
  return normalizeAgentId(raw);
}

/** Whom to hand work to: a known agent (agentCapabilities, humans) or a typed id; one, or two for shared. */
export async function askAgents(service: FolderService, me: string, count: 1 | 2, title: string): Promise<string[]> {
  const choices = [...knownAgents(service, me), { label: '$(edit) Another agent…', value: OTHER }];
  if (count === 1) {
    const one = await pickOne(choices, { title, placeHolder: 'Who takes it over?' });
    return [one === OTHER ? await askOtherAgent(title) : one];
  }
  const picked = await pickMany(choices, { title, placeHolder: 'Pick the two agents who share it', min: 1, max: 2 });
  const agents = picked.filter((a) => a !== OTHER);
  while (agents.length < 2) agents.push(await askOtherAgent(`${title} (${agents.length + 1} of 2)`));
  if (agents[0] === agents[1]) throw new Error('A shared handoff needs two different agents; start again and pick two');
  return agents;
}

async function askCapabilities(service: FolderService, title: string): Promise<string[]> {
  const caps = service.view().config.agentCapabilities;
  const all = [...new Set(Object.values(caps).flat())].sort();
  if (all.length) {
    const owners = (c: string) =>
      Object.keys(caps)
        .filter((a) => caps[a].includes(c))
        .map(displayAgent)
        .join(', ');
    return pickMany(
      all.map((c) => ({ label: c, description: owners(c), value: c })),
      { title, placeHolder: 'Which capabilities does the work need? (routed to who has them)', min: 1 },
    );
  }
  const typed = await askText({
    title,
    prompt: 'Required capabilities, comma-separated (none are configured in .agentsync.json agentCapabilities)',
    requiredMessage: 'Name at least one capability.',
    validate: (v) =>
      v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
        .every((c) => CAPABILITY.test(c))
        ? undefined
        : 'Capabilities are words of letters, digits, "_", ".", ":" or "-".',
  });
  return typed
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/** Owner mode, then targets (single, shared) or capabilities (auto); with allowSkip, a skip with its reason. */
export async function askOwnership(service: FolderService, me: string, title: string, allowSkip: boolean): Promise<Ownership> {
  const modes: Choice<OwnerMode | 'skip'>[] = [
    { label: '$(account) single', description: 'one agent owns it', value: 'single' },
    { label: '$(organization) shared', description: 'two agents own it together', value: 'shared' },
    { label: '$(symbol-event) auto', description: 'route by required capabilities (.agentsync.json)', value: 'auto' },
  ];
  if (allowSkip) modes.push({ label: '$(circle-slash) skip', description: 'no handoff: give a reason (it is recorded)', value: 'skip' });
  const mode = await pickOne(modes, { title, placeHolder: 'Who owns the follow-up?' });
  if (mode === 'skip') {
    const reason = await askText({
      title,
      prompt: 'Why is no handoff needed? (recorded as no_handoff_reason)',
      requiredMessage: 'A skip needs a reason.',
      maxLength: LIMITS.reason,
    });
    return { kind: 'skip', no_handoff_reason: reason };
  }
  if (mode === 'auto') return { kind: 'assign', owner_mode: 'auto', required_capabilities: await askCapabilities(service, title) };
  return { kind: 'assign', owner_mode: mode, to_agents: await askAgents(service, me, mode === 'single' ? 1 : 2, title) };
}

/** The createHandoff `handoff` object for an ownership answer. */
export function handoffParams(
  me: string,
  own: Ownership,
  fields: { summary: string; notes: string; files: string[] },
): Record<string, unknown> {
  const base = { from_agent: me, summary: fields.summary, notes: fields.notes, files: fields.files };
  if (own.kind === 'skip') return { ...base, owner_mode: 'single', no_handoff_reason: own.no_handoff_reason };
  return {
    ...base,
    owner_mode: own.owner_mode,
    ...(own.to_agents ? { to_agents: own.to_agents } : {}),
    ...(own.required_capabilities ? { required_capabilities: own.required_capabilities } : {}),
  };
}

/** Files of this folder open in editor tabs (the active one first), as workspace-relative paths. */
function openFiles(service: FolderService): string[] {
  const root = service.layout.root;
  const tabs = vscode.window.tabGroups.all.flatMap((g) => g.tabs).sort((a, b) => Number(b.isActive) - Number(a.isActive));
  const uris = tabs
    .map((t) => (t.input instanceof vscode.TabInputText ? t.input.uri : undefined))
    .filter((u): u is vscode.Uri => !!u && u.scheme === 'file');
  const rel = uris
    .map((u) => path.relative(root, u.fsPath))
    .filter((p) => p && !p.startsWith('..') && !path.isAbsolute(p) && !p.startsWith('.agentsync'));
  return [...new Set(rel.map((p) => p.split(path.sep).join('/')))];
}

/** Add Handoff Note: summary, note, owner mode, targets or capabilities, files; then one createHandoff. */
export async function addHandoffNote(deps: CommandDeps, arg?: unknown): Promise<RequestResponse | undefined> {
  const service = typeof arg === 'string' ? deps.services.get(arg) : await deps.services.pick('Add a handoff note in which folder?');
  if (!service) return undefined;
  const me = deps.me();
  const title = 'AgentSync: Add Handoff Note';
  const summary = await askText({
    title,
    prompt: 'Summary: what should the next agent do?',
    requiredMessage: 'A handoff needs a summary.',
    maxLength: LIMITS.summary,
  });
  const notes = await askText({ title, prompt: 'Note for the receiver (context, risks; optional)', maxLength: LIMITS.notes });
  const own = await askOwnership(service, me, title, false);
  const candidates = openFiles(service);
  const files = candidates.length
    ? await pickMany(
        candidates.map((p, i) => ({ label: p, picked: i === 0, value: p })),
        { title, placeHolder: 'Files to hand over (optional)' },
      )
    : [];
  const response = await service.dispatch({
    action: 'createHandoff',
    agent: me,
    handoff: handoffParams(me, own, { summary, notes, files }),
  });
  const h = response.data?.handoff;
  return reportResponse(
    response,
    h
      ? `${h.handoff_id} created (${h.status?.replace(/_/g, ' ')}${h.to_agents?.length ? `, for ${h.to_agents.map(displayAgent).join(', ')}` : ''}).`
      : 'handoff created.',
    deps.log,
  );
}
