// "Me": the agent id this window acts as (setting agentsync.agentId, default `human`), canonicalized the
// way the core does it. A bad setting is reported with where to fix it; the core refuses it anyway.
import * as vscode from 'vscode';
import { AGENT_ID_PATTERN, HUMAN_AGENT, normalizeAgentId } from '../../core/domain/agentId';

export interface AgentIdentity {
  id: string;
  /** Set when the setting cannot be used as an agent id. */
  problem: string | null;
}

export function readAgentIdentity(): AgentIdentity {
  const raw = vscode.workspace.getConfiguration('agentsync').get<string>('agentId') ?? HUMAN_AGENT;
  const id = normalizeAgentId(raw || HUMAN_AGENT);
  if (AGENT_ID_PATTERN.test(id)) return { id, problem: null };
  return {
    id,
    problem:
      `The setting agentsync.agentId is ${JSON.stringify(raw)}, which is not an agent id (lowercase letters, digits, "-" or "_", up to 64). Change ` +
      `it in Settings (AgentSync › Agent Id).`,
  };
}
