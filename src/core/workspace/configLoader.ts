// Reads .agentsync.json (docs/contract.md §7; docs/agentsync-documentation.md, "Configuration"): missing → defaults. Each
// top-level section is checked on its own, so one bad key never drops the rest: a broken convenience section falls
// back to its default, a broken restrictive one fails closed (configSchema's RESTRICTIVE_SECTIONS), an unknown key
// is reported with a "did you mean", and one close to a restrictive key fails closed as that key would. Every problem
// goes into one message, which the store reports once.
import * as fs from 'node:fs';
import * as z from 'zod';
import { parseBoundedJson } from '../domain/boundedJson';
import { didYouMean, nearestKey } from '../domain/configKeyHints';
import { PARSE_ONCE } from '../domain/parseOnce';
import {
  configSchema,
  defaultConfig,
  RESTRICTIVE_SECTIONS,
  type AgentSyncConfig,
  type RestrictiveSection,
  type SectionProblem,
} from '../domain/configSchema';
import { passOverProblems } from '../domain/passOverConsistency';

export interface LoadedConfig {
  config: AgentSyncConfig;
  /** Set when the file exists but could not be used in full; says which key, what was expected and what applies. */
  problem: string | null;
}

const MAX_CONFIG_BYTES = 1_000_000;

/** What a broken restrictive section means until it is fixed. */
const FAILS_CLOSED: Record<RestrictiveSection, string> = {
  passOver: 'pass-overs are refused with E030 CONFIG_INVALID until you fix it',

  agentCapabilities: 'requests that name agents are refused with E030 CONFIG_INVALID until you fix it',
  requireHandoffOnEndSession: 'it counts as true until you fix it',
  sync: 'writes are refused with E030 CONFIG_INVALID until you fix it (a clone that guessed would decide claims alone)',
};

const isRestrictive = (key: string): key is RestrictiveSection => (RESTRICTIVE_SECTIONS as readonly string[]).includes(key);

/** A whole file that cannot be read: the defaults, with every restrictive section failing closed. */
function unusable(problem: string): LoadedConfig {
  // `sync` is not failed closed here: an unreadable file says nothing about it, and refusing every write of every
  // workspace whose file broke would be worse than today's one-clone behaviour, which is what an absent `sync` means.
  const failing = RESTRICTIVE_SECTIONS.filter((k) => k !== 'sync');
  const brokenSections = Object.fromEntries(failing.map((k) => [k, { message: problem, path: '(file)', code: 'E030' }]));
  return {
    config: { ...defaultConfig(), requireHandoffOnEndSession: true, brokenSections },
    problem:
      `${problem}; fix it. Until then the defaults are used, except that pass-overs and requests naming agents are refused (E030 CONFIG_INVALID) ` +
      `and requireHandoffOnEndSession counts as true`,
  };
}

/** The keys an object schema allows at `path` below `schema` (through defaults, optionals and records), or []. */
function allowedKeysAt(schema: z.ZodType, path: readonly PropertyKey[]): string[] {
  let cur: z.ZodType | undefined = schema;
  const unwrap = (s: z.ZodType): z.ZodType => {
    let t = s;
    while (t instanceof z.ZodDefault || t instanceof z.ZodOptional || t instanceof z.ZodNullable) t = t.unwrap() as z.ZodType;
    return t;
  };
  for (const seg of path) {
    if (!cur) return [];
    const t = unwrap(cur);
    if (t instanceof z.ZodObject) cur = (t.shape as Record<string, z.ZodType>)[String(seg)];
    else if (t instanceof z.ZodRecord) cur = t.valueType as z.ZodType;
    else return [];
  }
  const t = cur ? unwrap(cur) : undefined;
  return t instanceof z.ZodObject ? Object.keys(t.shape) : [];
}

/**
 * describeIssues' sentences, with a "did you mean" after each unknown key that is close to an allowed one; the path
 * is the first issue's key path, down to an unknown key itself (`passOver.pairs.a->b.enabeld`).
 */
function describeSectionIssues(key: string, schema: z.ZodType, error: z.ZodError): SectionProblem {
  const issues = error.issues.slice(0, 5);
  const first = issues[0];
  const path = [key, ...(first?.path.map(String) ?? []), ...(first?.code === 'unrecognized_keys' ? first.keys.slice(0, 1) : [])].join('.');
  const message = issues
    .map((issue) => {
      const where = [key, ...issue.path.map(String)].join('.');
      if (issue.code !== 'unrecognized_keys') return `${where}: ${issue.message}`;
      const allowed = allowedKeysAt(schema, issue.path);
      return `${where}: unknown field(s) ${issue.keys.map((k) => `${JSON.stringify(k)}${didYouMean(k, allowed)}`).join(', ')}`;
    })
    .join('; ');
  return { message, path, code: 'E030' };
}

export function parseConfigText(text: string): LoadedConfig {
  const parsed = parseBoundedJson(text);
  if (!parsed.ok) return unusable(`.agentsync.json ${parsed.problem}`);
  const raw = parsed.value;
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    return unusable(
      `.agentsync.json: (root): expected an object such as {"staleAfterHours": 24}, found ` +
        `${Array.isArray(raw) ? 'an array' : raw === null ? 'null' : typeof raw}`,
    );
  }
  const input = raw as Record<string, unknown>;
  const shape = configSchema.shape as Record<string, z.ZodType>;
  const problems: string[] = [];
  const out: Record<string, unknown> = {};
  const brokenSections: Partial<Record<RestrictiveSection, SectionProblem>> = {};
  const nearMisses: [string, RestrictiveSection][] = [];
  for (const key of Object.keys(input)) {
    if (Object.prototype.hasOwnProperty.call(shape, key)) continue;
    const meant = nearestKey(key, Object.keys(shape));
    // A misspelled restrictive key is that restriction, on: a typo never makes anything allowed (docs/contract.md §7).
    if (meant !== null && isRestrictive(meant)) nearMisses.push([key, meant]);
    else problems.push(`unknown key "${key}"${didYouMean(key, Object.keys(shape))}, ignored`);
  }
  for (const [key, schema] of Object.entries(shape)) {
    const parsed = schema.safeParse(input[key], PARSE_ONCE);
    if (parsed.success) {
      if (parsed.data !== undefined) out[key] = parsed.data;
      continue;
    }
    const issue = describeSectionIssues(key, schema, parsed.error);
    if (isRestrictive(key)) {
      brokenSections[key] = issue;
      problems.push(`${issue.message} (${FAILS_CLOSED[key]})`);
    } else {
      problems.push(`${issue.message} (the default is used until you fix it)`);
    }
    const fallback = (defaultConfig() as Record<string, unknown>)[key];
    if (fallback !== undefined) out[key] = fallback;
  }
  for (const [key, meant] of nearMisses) {
    const message = `unknown key "${key}" (did you mean "${meant}"?) is taken as a misspelled "${meant}"`;
    brokenSections[meant] ??= { message, path: key, code: 'E030' };
    problems.push(`${message}: ${FAILS_CLOSED[meant]} (rename the key to "${meant}")`);
  }
  if (brokenSections.requireHandoffOnEndSession !== undefined) out.requireHandoffOnEndSession = true;
  // What the schema cannot see: pairs naming unknown agents (E030), contradictory keys (E031). Checked only when
  // both sections parsed; a broken agent list already refuses every pass.
  if (!brokenSections.passOver && !brokenSections.agentCapabilities) {
    const found = passOverProblems(out as AgentSyncConfig);
    if (found.length) {
      const message = found
        .slice(0, 5)
        .map((p) => p.message)
        .join('; ');
      brokenSections.passOver = { ...found[0], message };
      problems.push(
        `${message} (pass-overs are refused with ${found[0].code} ${found[0].code === 'E031' ? 'PREFERENCE_CONFLICT' : 'CONFIG_INVALID'} until you fix it)`,
      );
    }
  }
  const config = { ...(out as AgentSyncConfig), ...(Object.keys(brokenSections).length ? { brokenSections } : {}) };
  return { config, problem: problems.length ? `.agentsync.json: ${problems.join('; ')}` : null };
}

export function loadConfig(configPath: string): LoadedConfig {
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(configPath);
  } catch {
    return { config: defaultConfig(), problem: null };
  }
  if (!stat.isFile()) return unusable('.agentsync.json is not a regular file (a symlink or folder); replace it with a file');
  if (stat.size > MAX_CONFIG_BYTES) return unusable(`.agentsync.json is ${stat.size} bytes, over the ${MAX_CONFIG_BYTES}-byte limit`);
  return parseConfigText(fs.readFileSync(configPath, 'utf8'));
}
