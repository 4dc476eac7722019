// Editing the passOver section of .agentsync.json for `agentsync policy` (docs/agentsync-documentation.md,
// "agentsync policy"): the result is checked exactly as the loader checks the file (same zod schema, same agent and
// conflict checks) and written atomically only when its passOver section is usable; every other key stays as it was.
import * as fs from 'node:fs';
import { parseBoundedJson } from '../domain/boundedJson';
import { normalizeAgentId } from '../domain/agentId';
import { assertRegularOrMissing, writeFileAtomic } from '../disk/atomicFile';
import { parseConfigText } from './configLoader';
import { ActionError } from '../domain/errors';
import { POLICY_KEYS, type PolicyKey } from '../domain/passOverPolicy';

/** Which layer of passOver an edit is about; `all` (reset only) is the whole section. */
export type PolicyTarget =
  { kind: 'defaults' } | { kind: 'pair'; from: string; to: string } | { kind: 'subagent'; agent: string } | { kind: 'all' };

export interface PolicyEdit {
  /** The key path edited, e.g. `passOver.pairs.alice->audit`. */
  path: string;
  /** False when the file already said so (a reset of something not set): nothing was written. */
  changed: boolean;
  /** Problems of other sections of the new file (reported, not the edit's business), or null. */
  otherProblems: string | null;
}

const MAX_CONFIG_BYTES = 1_000_000;

/** A value as typed on a command line, read as JSON would read it ("true", "60000"); the schema then judges it. */
export function policyValue(raw: string): unknown {
  if (raw === 'true' || raw === 'false') return raw === 'true';
  if (/^-?\d+(\.\d+)?$/.test(raw)) return Number(raw);
  return raw;
}

export function isPolicyKey(key: string): key is PolicyKey {
  return (POLICY_KEYS as string[]).includes(key);
}

function pathOf(target: PolicyTarget): { path: string; container?: 'defaults' | 'pairs' | 'subagents'; name?: string } {
  switch (target.kind) {
    case 'all':
      return { path: 'passOver' };
    case 'defaults':
      return { path: 'passOver.defaults', container: 'defaults' };
    case 'pair': {
      const name = `${normalizeAgentId(target.from)}->${normalizeAgentId(target.to)}`;
      return { path: `passOver.pairs.${name}`, container: 'pairs', name };
    }
    case 'subagent': {
      const name = normalizeAgentId(target.agent);
      return { path: `passOver.subagents.${name}`, container: 'subagents', name };
    }
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

function refuse(message: string, path: string): never {
  throw new ActionError('CONFIG_INVALID', `${message}. Nothing was written.`, { code: 'E030', key: 'passOver', path });
}

/** The object at `key` of `parent`, created when missing; refused when something else is there (fix it, or reset). */
function objectAt(parent: Record<string, unknown>, key: string, path: string): Record<string, unknown> {
  const v = parent[key];
  if (v === undefined) return (parent[key] = {});
  if (!isObject(v))
    refuse(
      `${path} is ${Array.isArray(v) ? 'an array' : JSON.stringify(v)}, expected an object; fix it by hand or run agentsync policy reset`,
      path,
    );
  return v;
}

export function readRaw(configPath: string): { text: string | null; raw: Record<string, unknown>; indent: string | number } {
  assertRegularOrMissing(configPath);
  if (!fs.existsSync(configPath)) return { text: null, raw: {}, indent: 2 };
  if (fs.statSync(configPath).size > MAX_CONFIG_BYTES) refuse(`.agentsync.json is over ${MAX_CONFIG_BYTES} bytes`, '(file)');
  const text = fs.readFileSync(configPath, 'utf8');
  const parsed = parseBoundedJson(text);
  if (!parsed.ok) refuse(`.agentsync.json ${parsed.problem}; fix it by hand first`, '(file)');
  const raw = parsed.value;
  if (!isObject(raw)) refuse('.agentsync.json: (root) is not an object; fix it by hand first', '(file)');
  // Keep the file's indentation (tabs or n spaces; 2 when it cannot be told).
  const lead = /^\{\r?\n([ \t]+)"/.exec(text)?.[1];
  return { text, raw, indent: lead === undefined ? 2 : lead.startsWith('\t') ? '\t' : lead.length };
}

/**
 * Checks the edited file as the loader would and writes it atomically, unless the file changed meanwhile. Refused when
 * a restrictive section (the pass-over policies, the agent list: `agentsync agents`) would no longer be usable.
 */
export function commit(
  configPath: string,
  before: string | null,
  raw: Record<string, unknown>,
  indent: string | number,
  path: string,
): string | null {
  const text = JSON.stringify(raw, null, indent) + '\n';
  const loaded = parseConfigText(text);
  for (const key of ['agentCapabilities', 'passOver'] as const) {
    const broken = loaded.config.brokenSections?.[key];
    if (!broken) continue;
    const reason = broken.code === 'E031' ? 'PREFERENCE_CONFLICT' : 'CONFIG_INVALID';
    throw new ActionError(reason, `.agentsync.json would be refused: ${broken.message}. Nothing was written; the file is unchanged.`, {
      code: broken.code,
      key,
      path: broken.path,
    });
  }
  writeFileAtomic(configPath, text, {
    beforeRename: () => {
      const now = fs.existsSync(configPath) ? fs.readFileSync(configPath, 'utf8') : null;
      if (now !== before)
        throw new ActionError(
          'store_busy',
          '.agentsync.json changed while it was being edited; nothing was written, run the command again.',
          { path },
        );
    },
  });
  return loaded.problem;
}

/** Sets policy keys on one layer (defaults, a pair, a subagent); keys not named keep their values. */
export function setPolicyKeys(
  configPath: string,
  target: Exclude<PolicyTarget, { kind: 'all' }>,
  values: Partial<Record<PolicyKey, unknown>>,
): PolicyEdit {
  const { path, container, name } = pathOf(target);
  const { text, raw, indent } = readRaw(configPath);
  const passOver = objectAt(raw, 'passOver', 'passOver');
  const layer =
    name === undefined
      ? objectAt(passOver, container!, path)
      : objectAt(objectAt(passOver, container!, `passOver.${container}`), name, path);
  Object.assign(layer, values);
  return { path, changed: true, otherProblems: commit(configPath, text, raw, indent, path) };
}

/** Removes one layer, or (`all`) the whole passOver section, so the built-ins apply again. */
export function resetPolicy(configPath: string, target: PolicyTarget): PolicyEdit {
  const { path, container, name } = pathOf(target);
  const { text, raw, indent } = readRaw(configPath);
  const passOver = raw.passOver;
  let changed = false;
  if (target.kind === 'all') {
    changed = passOver !== undefined;
    delete raw.passOver;
  } else if (isObject(passOver) && passOver[container!] !== undefined) {
    if (name === undefined) {
      delete passOver[container!];
      changed = true;
    } else {
      const layers = objectAt(passOver, container!, `passOver.${container}`);
      changed = name in layers;
      delete layers[name];
      if (Object.keys(layers).length === 0) delete passOver[container!];
    }
  }
  if (!changed) return { path, changed: false, otherProblems: null };
  return { path, changed: true, otherProblems: commit(configPath, text, raw, indent, path) };
}
