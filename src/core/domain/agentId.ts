// Agent identities: canonical lowercase ids in data, Title Case for people.
export const AGENT_ID_PATTERN = /^[a-z0-9_-]{1,64}$/;
export const HUMAN_AGENT = 'human';
/** The agent id AgentSync itself acts as: expired leases, timed-out passes. */
export const SYSTEM_AGENT = 'agentsync';

/** `Codex` → `codex`, ` Claude Code ` → `claude-code`. Returns the input unchanged if it cannot be made canonical. */
export function normalizeAgentId(raw: string): string {
  return raw.trim().toLowerCase().replace(/\s+/g, '-');
}

export function displayAgent(id: string): string {
  return id
    .split(/([-_])/)
    .map((part) => (part === '-' || part === '_' ? part : part.charAt(0).toUpperCase() + part.slice(1)))
    .join('');
}

export function isHuman(agent: string, humans: readonly string[]): boolean {
  return agent === HUMAN_AGENT || humans.includes(agent);
}
