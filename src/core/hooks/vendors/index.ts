// Every vendor AgentSync writes a pack for (docs/agentsync-documentation.md, "Hook packs"). The lists other modules
// need (hook formats, pack files, instruction files) are derived from this one record.
import { claude } from './claude';
import { codex } from './codex';
import { copilot } from './copilot';
import { cursor } from './cursor';
import { gemini } from './gemini';
import { opencode } from './opencode';
import type { Vendor } from './vendor';

export const VENDORS = { claude, codex, cursor, copilot, gemini, opencode } as const satisfies Record<string, Vendor>;
export type VendorId = keyof typeof VENDORS;
export const VENDOR_IDS = Object.keys(VENDORS) as VendorId[];

export function vendorOf(id: string): Vendor | null {
  return Object.prototype.hasOwnProperty.call(VENDORS, id) ? VENDORS[id as VendorId] : null;
}

/** Instruction files, each once, in the order the vendors name them. */
export const INSTRUCTION_FILES: readonly string[] = [...new Set(['AGENTS.md', ...VENDOR_IDS.flatMap((v) => VENDORS[v].instructionFiles)])];
