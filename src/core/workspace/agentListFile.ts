// Editing the agent list of .agentsync.json (`agentCapabilities`) for `agentsync agents` (docs/contract.md §7): the
// edited file is checked as the loader checks it, and written atomically with every other key as the user wrote it
// (passOverPolicyFile.ts's read and commit). Removing an agent that work still depends on is refused.
import { normalizeAgentId, AGENT_ID_PATTERN } from '../domain/agentId';
import { ActionError } from '../domain/errors';
import { capabilitySchema } from '../domain/handoffSchema';
import { commit, readRaw } from './passOverPolicyFile';

export interface AgentEdit {
  agent: string;
  capabilities: string[];
  /** False when the file already said so: nothing was written. */
  changed: boolean;
  /** Problems of other sections of the new file (reported, not the edit's business), or null. */
  otherProblems: string | null;
}

/** What holds an agent in place: its claims, and the open chains it stands in (handoff ids). */
export interface AgentUse {
  claims: string[];
  chains: string[];
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

function agentIdOf(raw: string): string {
  const id = normalizeAgentId(raw);
  if (!AGENT_ID_PATTERN.test(id))
    throw new ActionError('invalid_request', `"${raw}" is not an agent id (lowercase letters, digits, "-" or "_"); nothing was written.`, {
      field: 'agent',
    });
  return id;
}

function capabilitiesOf(raw: readonly string[]): string[] {
  for (const c of raw) {
    const ok = capabilitySchema.safeParse(c);
    if (!ok.success)
      throw new ActionError('invalid_request', `capability ${JSON.stringify(c)}: ${ok.error.issues[0].message}; nothing was written.`, {
        field: 'capabilities',
      });
  }
  return [...new Set(raw)];
}

function section(raw: Record<string, unknown>): Record<string, unknown> {
  const v = raw.agentCapabilities;
  if (v === undefined) return (raw.agentCapabilities = {});
  if (!isObject(v))
    throw new ActionError(
      'CONFIG_INVALID',
      '.agentsync.json: agentCapabilities is not an object; fix it by hand first. Nothing was written.',
      {
        key: 'agentCapabilities',
        path: 'agentCapabilities',
      },
    );
  return v;
}

/** Adds an agent, or adds capabilities to one already listed (those it has stay). */
export function addAgent(configPath: string, rawAgent: string, rawCaps: readonly string[]): AgentEdit {
  const agent = agentIdOf(rawAgent);
  const caps = capabilitiesOf(rawCaps);
  const { text, raw, indent } = readRaw(configPath);
  const agents = section(raw);
  const had = Array.isArray(agents[agent]) ? (agents[agent] as unknown[]).filter((c): c is string => typeof c === 'string') : null;
  const next = [...new Set([...(had ?? []), ...caps])];
  if (had && next.length === had.length) return { agent, capabilities: had, changed: false, otherProblems: null };
  agents[agent] = next;
  return { agent, capabilities: next, changed: true, otherProblems: commit(configPath, text, raw, indent, `agentCapabilities.${agent}`) };
}

/** Removes an agent; refused while it holds claims or stands in an open chain (`use`), naming them. */
export function removeAgent(configPath: string, rawAgent: string, use: AgentUse): AgentEdit {
  const agent = agentIdOf(rawAgent);
  if (use.claims.length || use.chains.length) {
    const held = use.claims.length ? `holds ${use.claims.join(', ')}` : '';
    const chains = use.chains.length ? `stands in the open chain of ${use.chains.join(', ')}` : '';
    throw new ActionError(
      'invalid_request',
      `${agent} ${[held, chains].filter(Boolean).join(' and ')}; finish, release or reassign that work first. Nothing was written.`,
      { field: 'agent', agent, claims: use.claims, chains: use.chains },
    );
  }
  const { text, raw, indent } = readRaw(configPath);
  const agents = section(raw);
  if (!(agent in agents)) return { agent, capabilities: [], changed: false, otherProblems: null };
  // An empty list is no list: every agent id would be allowed (docs/contract.md §5), so the last one stays.
  if (Object.keys(agents).length === 1)
    throw new ActionError(
      'invalid_request',
      `${agent} is the last configured agent, and an empty agent list allows every agent id; add another first. Nothing was written.`,
      { field: 'agent', agent },
    );
  delete agents[agent];
  return { agent, capabilities: [], changed: true, otherProblems: commit(configPath, text, raw, indent, `agentCapabilities.${agent}`) };
}
