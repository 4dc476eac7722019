// .agentsync.json (docs/contract.md §7): AgentSync 0.3's keys plus routing and pass-over policy.
import * as z from 'zod';
import { PARSE_ONCE } from './parseOnce';
import { ActionError } from './errors';
import { agentIdSchema, capabilitySchema, passOverPolicySchema } from './handoffSchema';

const commandSchema = z.union([z.string().min(1).max(1_000), z.array(z.string().max(1_000)).min(1).max(50)]);

/** How long a merged or escalated handoff stays in handoffs.json before it is archived (days). */
export const ARCHIVE_AFTER_DAYS = 14;

// The policy keys live with the handoff record, which stores the resolved policy (docs/contract.md §6).
export { passOverPolicySchema };

/** A remote's name in the clone's git config: never a URL, so a committed file cannot choose where this machine pushes. */
const remoteNameSchema = z
  .string()
  .regex(/^[A-Za-z0-9_][A-Za-z0-9._-]{0,99}$/, 'remote is the name of a git remote of this clone, e.g. "origin" (not a URL)');

/** A full ref name git accepts: refs/..., no "..", no control or special characters. */
const refNameSchema = z
  .string()
  .max(200)
  .regex(/^refs\/[A-Za-z0-9_][A-Za-z0-9._/-]*$/, 'ref is a full ref such as "refs/agentsync/state" or "refs/heads/agentsync-state"')
  .refine((r) => !r.includes('..') && !r.includes('//') && !r.endsWith('/') && !r.endsWith('.lock') && !r.endsWith('.'), {
    message: 'ref is not a valid git ref name',
  })
  // AgentSync's own namespace only: a tag or a branch starts pipelines, a note or a remote-tracking ref is someone else's.
  .refine((r) => r.startsWith('refs/agentsync/') || /^refs\/heads\/agentsync-[^/]/.test(r), {
    message:
      'ref must be one of AgentSync\'s own: under refs/agentsync/ (e.g. "refs/agentsync/state"), or a branch named ' +
      'refs/heads/agentsync-… for a host that refuses custom refs; never a tag, a note, a remote-tracking ref or another branch',
  });

export const syncConfigSchema = z.strictObject({
  remote: remoteNameSchema.default('origin'),
  ref: refNameSchema.default('refs/agentsync/state'),
  offline: z.enum(['refuse', 'local']).default('refuse'),
  interval_s: z.number().int().min(5).max(86_400).default(30),
});
export type SyncConfig = z.infer<typeof syncConfigSchema>;

export const configSchema = z.object({
  $schema: z.string().optional(),
  staleAfterHours: z.number().nonnegative().default(24),
  autoStaleSessionMinutes: z.number().nonnegative().default(0),
  requireHandoffOnEndSession: z.boolean().default(false),
  commands: z
    .strictObject({ build: commandSchema.optional(), test: commandSchema.optional(), deploy: commandSchema.optional() })
    .default({}),
  agentCapabilities: z.record(agentIdSchema, z.array(capabilitySchema).max(100)).default({}),
  humans: z.array(agentIdSchema).max(100).default([]),
  maxAttempts: z.number().int().min(1).max(100).default(3),
  leaseMinutes: z
    .number()
    .positive()
    .max(7 * 24 * 60)
    .default(30),
  /**
   * The conflict radar (docs/contract.md §10a): before an agent's tool writes a file another agent's live claim lists,
   * its pre-tool hook warns it ("warn"), refuses the write ("deny"), or says nothing ("off").
   */
  radar: z.enum(['warn', 'deny', 'off']).default('warn'),
  /** An in-progress handoff whose lease expired goes back to queued (expireLeases); false leaves it, shown as stale. */
  releaseExpiredLeases: z.boolean().default(true),
  passOver: z
    .strictObject({
      defaults: passOverPolicySchema.optional(),
      pairs: z.record(z.string().regex(/^[a-z0-9_-]+->[a-z0-9_-]+$/, 'pair keys look like "from->to"'), passOverPolicySchema).optional(),
      subagents: z.record(agentIdSchema, passOverPolicySchema).optional(),
    })
    .default({}),
  audit: z.strictObject({ retention_days: z.number().int().positive().nullable().optional() }).default({}),
  /**
   * Terminal handoffs older than after_days move to .agentsync/archive/ (docs/agentsync-documentation.md, "The archive");
   * null keeps every handoff in handoffs.json.
   */
  archive: z
    .strictObject({ after_days: z.number().int().nonnegative().max(36_500).nullable().default(ARCHIVE_AFTER_DAYS) })
    .default({ after_days: ARCHIVE_AFTER_DAYS }),
  /** Writes decided through the repository's git remote (docs/contract.md §13); absent: this clone alone decides. */
  sync: syncConfigSchema.optional(),
});

export type ConfigSection = Exclude<keyof z.infer<typeof configSchema>, '$schema'>;

/**
 * Sections that restrict what agents may do fail closed when broken (docs/contract.md §7): a typo must never make AgentSync
 * more permissive. Any other broken section falls back to its default.
 */
export const RESTRICTIVE_SECTIONS = ['passOver', 'agentCapabilities', 'requireHandoffOnEndSession', 'sync'] as const;
export type RestrictiveSection = (typeof RESTRICTIVE_SECTIONS)[number];

/** Why a restrictive section cannot be used: the sentence, the key path it is about, and the delegation code (docs/contract.md §6). */
export interface SectionProblem {
  message: string;
  /** The key path in .agentsync.json, e.g. `passOver.pairs.alice->audit.enabeld`. */
  path: string;
  /** E030 CONFIG_INVALID (a wrong value or key), E031 PREFERENCE_CONFLICT (keys that contradict each other). */
  code: 'E030' | 'E031';
}

export type AgentSyncConfig = z.infer<typeof configSchema> & {
  /** Restrictive sections that could not be used, with what was wrong; set by the loader, never by the file. */
  readonly brokenSections?: Readonly<Partial<Record<RestrictiveSection, SectionProblem>>>;
};
export type PassOverPolicy = z.infer<typeof passOverPolicySchema>;

let defaults: AgentSyncConfig | undefined;
/** The configuration of a workspace without .agentsync.json; parsed on first use, not by every start of the CLI. */
export function defaultConfig(): AgentSyncConfig {
  return (defaults ??= configSchema.parse({}, PARSE_ONCE));
}

const REFUSAL_OF = { E030: 'CONFIG_INVALID', E031: 'PREFERENCE_CONFLICT' } as const;

/**
 * E030 CONFIG_INVALID or E031 PREFERENCE_CONFLICT (docs/contract.md §6): an action governed by a broken restrictive section
 * is refused until it is fixed, naming the key path (docs/agentsync-documentation.md, "Configuration").
 */
export function assertSectionUsable(config: AgentSyncConfig, section: RestrictiveSection): void {
  const problem = config.brokenSections?.[section];
  if (problem === undefined) return;
  throw new ActionError(
    REFUSAL_OF[problem.code],
    `.agentsync.json: ${problem.message}. The ${section} section is ${problem.code === 'E031' ? 'contradictory' : 'broken'}, ` +
      'so AgentSync refuses what it governs rather than guess; fix it in .agentsync.json and retry. Nothing was changed.',
    { code: problem.code, key: section, path: problem.path },
  );
}

/**
 * Agents the config knows of, or null when no list is configured (then any id is accepted). A broken list refuses
 * (E030) instead of answering null: no agent becomes allowed by a typo.
 */
export function knownAgents(config: AgentSyncConfig): Set<string> | null {
  assertSectionUsable(config, 'agentCapabilities');
  const ids = Object.keys(config.agentCapabilities);
  if (ids.length === 0) return null;
  return new Set([...ids, ...config.humans, 'human']);
}

/** Every agent named must be a configured one when a list is configured (docs/contract.md §5): else `unknown_agent`, naming them. */
export function assertKnownAgents(config: AgentSyncConfig, ids: readonly string[]): void {
  const known = knownAgents(config);
  const unknown = known ? [...new Set(ids)].filter((a) => !known.has(a)) : [];
  if (unknown.length === 0) return;
  throw new ActionError(
    'unknown_agent',
    `Unknown agent(s) ${unknown.join(', ')}: the configured agents are ${[...known!].join(', ')}. Use one of them or add it to ` +
      `agentCapabilities in .agentsync.json.`,
    { unknown },
  );
}
