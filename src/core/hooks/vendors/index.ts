// Every vendor AgentSync writes a pack for (docs/agentsync-documentation.md, "Hook packs"). The lists other modules
// need (hook formats, pack files, instruction files) are derived from this one record.
import { claude } from './claude';
import { codex } from './codex';
import { copilot } from './copilot';
import { cursor } from './cursor';
import { gemini } from './gemini';
import { opencode } from './opencode';
import type { Vendor } from './vendor';
import { usableSessionId } from '../../domain/agentSession';

export const VENDORS = { claude, codex, cursor, copilot, gemini, opencode } as const satisfies Record<string, Vendor>;
export type VendorId = keyof typeof VENDORS;
export const VENDOR_IDS = Object.keys(VENDORS) as VendorId[];

export function vendorOf(id: string): Vendor | null {
  return Object.prototype.hasOwnProperty.call(VENDORS, id) ? VENDORS[id as VendorId] : null;
}

/** Instruction files, each once, in the order the vendors name them. */
export const INSTRUCTION_FILES: readonly string[] = [...new Set(['AGENTS.md', ...VENDOR_IDS.flatMap((v) => VENDORS[v].instructionFiles)])];

/**
 * The agent's session id its vendor put into `env` (docs/contract.md §4): the agent's own vendor's variables first
 * (Copilot CLI may run inside a shell Claude Code started), then every other vendor's; null when none is set.
 */
export function sessionIdFromEnv(env: NodeJS.ProcessEnv, agent: string | null): string | null {
  const own = agent ? vendorOf(agent) : null;
  for (const v of [own, ...VENDOR_IDS.map((id) => VENDORS[id])]) {
    for (const name of v?.sessionEnv ?? []) {
      const id = usableSessionId(env[name]);
      if (id) return id;
    }
  }
  return null;
}
