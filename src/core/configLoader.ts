// Reads .agentsync.json: missing → defaults; broken → one clear problem and the defaults serve.
import * as fs from 'node:fs';
import { configSchema, DEFAULT_CONFIG, type AgentSyncConfig } from './configSchema';
import { describeIssues } from './handoffSchema';

export interface LoadedConfig {
  config: AgentSyncConfig;
  /** Set when the file exists but could not be used; says which key and what was expected. */
  problem: string | null;
}

const MAX_CONFIG_BYTES = 1_000_000;

export function parseConfigText(text: string): LoadedConfig {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    return { config: DEFAULT_CONFIG, problem: `.agentsync.json is not valid JSON (${(e as Error).message}); fix it, the defaults are used until then` };
  }
  const parsed = configSchema.safeParse(raw);
  if (!parsed.success) {
    return { config: DEFAULT_CONFIG, problem: `.agentsync.json: ${describeIssues(parsed.error)}; fix it, the defaults are used until then` };
  }
  return { config: parsed.data, problem: null };
}

export function loadConfig(configPath: string): LoadedConfig {
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(configPath);
  } catch {
    return { config: DEFAULT_CONFIG, problem: null };
  }
  if (!stat.isFile()) return { config: DEFAULT_CONFIG, problem: '.agentsync.json is not a regular file (a symlink or folder); replace it with a file, the defaults are used until then' };
  if (stat.size > MAX_CONFIG_BYTES) return { config: DEFAULT_CONFIG, problem: `.agentsync.json is ${stat.size} bytes, over the ${MAX_CONFIG_BYTES}-byte limit; the defaults are used` };
  return parseConfigText(fs.readFileSync(configPath, 'utf8'));
}
