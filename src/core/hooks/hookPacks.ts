// `agentsync init --hooks` (docs/agentsync-documentation.md, "Hook packs"): the hook files each agent runs, in its
// vendor's published format, merged into what the user already has. Our entries are recognised by their command
// (`agentsync hook <event>`); every other entry, key and value of the user's file is kept. A second run changes nothing.
// Formats (recorded inputs in test/fixtures/hooks/<vendor>/):
// - Claude Code `.claude/settings.json`: hooks.<Event>[] = { matcher?, hooks: [{ type: "command", command, timeout }] }
// - Codex `.codex/hooks.json`: the same shape as Claude Code's (SessionStart, PostToolUse, Stop)
// - Cursor `.cursor/hooks.json`: { version: 1, hooks: { sessionStart|postToolUse|stop: [{ command }] } }
// - Copilot CLI / cloud agent `.github/hooks/*.json`:
//   { version: 1, hooks: { sessionStart|postToolUse|agentStop: [{ type: "command", bash, powershell, timeoutSec }] } }
import * as fs from 'node:fs';
import * as path from 'node:path';
import { assertRegularOrMissing, writeFileAtomic } from '../disk/atomicFile';
import { parseBoundedJson } from '../domain/boundedJson';
import { assertSafeDirectory, ensureSafeDirectory } from '../disk/safeDirectory';
import { ActionError } from '../domain/errors';
import type { HookEvent, HookFormat } from './hookInput';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

export function hookCommand(event: HookEvent, vendor: HookFormat): string {
  return `agentsync hook ${event} --agent ${vendor} --format ${vendor}`;
}

interface Pack {
  vendor: HookFormat;
  file: string;
  /** Top-level keys the format requires (Cursor and Copilot: version 1). */
  base: JsonObject;
  /** Vendor event name → the entry AgentSync adds under hooks.<name>. */
  entries: [string, HookEvent, JsonObject][];
}

const claudeStyle = (vendor: HookFormat): [string, HookEvent, JsonObject][] => [
  ['SessionStart', 'session-start', { hooks: [{ type: 'command', command: hookCommand('session-start', vendor), timeout: 30 }] }],
  ['PostToolUse', 'post-tool-use', { hooks: [{ type: 'command', command: hookCommand('post-tool-use', vendor), timeout: 10 }] }],
  ['Stop', 'stop', { hooks: [{ type: 'command', command: hookCommand('stop', vendor), timeout: 30 }] }],
];

const copilotEntry = (event: HookEvent, timeoutSec: number): JsonObject => ({
  type: 'command',
  bash: hookCommand(event, 'copilot'),
  powershell: hookCommand(event, 'copilot'),
  timeoutSec,
});

export const HOOK_PACKS: readonly Pack[] = [
  { vendor: 'claude', file: '.claude/settings.json', base: {}, entries: claudeStyle('claude') },
  { vendor: 'codex', file: '.codex/hooks.json', base: {}, entries: claudeStyle('codex') },
  {
    vendor: 'cursor',
    file: '.cursor/hooks.json',
    base: { version: 1 },
    entries: [
      ['sessionStart', 'session-start', { command: hookCommand('session-start', 'cursor') }],
      ['postToolUse', 'post-tool-use', { command: hookCommand('post-tool-use', 'cursor') }],
      ['stop', 'stop', { command: hookCommand('stop', 'cursor') }],
    ],
  },
  {
    vendor: 'copilot',
    file: '.github/hooks/agentsync.json',
    base: { version: 1 },
    entries: [
      ['sessionStart', 'session-start', copilotEntry('session-start', 30)],
      ['postToolUse', 'post-tool-use', copilotEntry('post-tool-use', 10)],
      ['agentStop', 'stop', copilotEntry('stop', 30)],
    ],
  },
];

/** True when an entry (at any depth) runs `agentsync hook <event>`: that entry is ours to replace. */
function isOurs(entry: Json, event: HookEvent): boolean {
  const text = JSON.stringify(entry);
  return new RegExp(`agentsync hook ${event}(?![a-z-])`).test(text);
}

function isObject(v: Json | undefined): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function refuse(file: string, why: string): never {
  const what =
    'AgentSync will not overwrite it. Fix the file (or move it aside), then run agentsync init --hooks again. Nothing was changed.';
  throw new ActionError('hooks_file_invalid', `${file} ${why}; ${what}`, { path: file });
}

/** The user's document with AgentSync's entries added or brought up to date; the input is not modified. */
export function mergePack(current: Json | undefined, pack: Pack): JsonObject {
  if (current !== undefined && !isObject(current)) refuse(pack.file, 'is JSON but not an object');
  const doc = structuredClone<JsonObject>(current ?? {});
  for (const [k, v] of Object.entries(pack.base)) if (!(k in doc)) doc[k] = v;
  if ('version' in pack.base && doc.version !== pack.base.version) {
    refuse(pack.file, `has "version": ${JSON.stringify(doc.version)} (this hook format is version ${JSON.stringify(pack.base.version)})`);
  }
  if (doc.hooks === undefined) doc.hooks = {};
  if (!isObject(doc.hooks)) refuse(pack.file, 'has a "hooks" value that is not an object');
  const hooks = doc.hooks;
  for (const [name, event, entry] of pack.entries) {
    const list = hooks[name] ?? [];
    if (!Array.isArray(list)) refuse(pack.file, `has hooks.${name} that is not an array`);
    const at = list.findIndex((e) => isOurs(e, event));
    if (at >= 0) list[at] = entry;
    else list.push(entry);
    hooks[name] = list;
  }
  return doc;
}

export interface HookPackReport {
  /** Workspace-relative files written (created or updated). */
  written: string[];
  unchanged: string[];
}

/** Merges every pack; with `dryRun`, only checks that each file can be merged (throws as a real run would). */
export function writeHookPacks(root: string, options: { dryRun?: boolean } = {}): HookPackReport {
  const report: HookPackReport = { written: [], unchanged: [] };
  for (const pack of HOOK_PACKS) {
    const file = path.join(root, pack.file);
    // `.claude` committed as a link to ~/.claude would make us edit the user's own settings: refused, nothing written.
    assertSafeDirectory(root, path.dirname(file));
    assertRegularOrMissing(file);
    let text: string | null = null;
    let current: Json | undefined;
    if (fs.existsSync(file)) {
      text = fs.readFileSync(file, 'utf8');
      const parsed = parseBoundedJson(text);
      if (!parsed.ok) refuse(pack.file, parsed.problem);
      current = parsed.value as Json;
    }
    const merged = mergePack(current, pack);
    // Unchanged content is not rewritten, so the user's formatting survives every run after the first.
    if (current !== undefined && JSON.stringify(merged) === JSON.stringify(current)) {
      report.unchanged.push(pack.file);
      continue;
    }
    if (options.dryRun) continue;
    const eol = text?.includes('\r\n') ? '\r\n' : '\n';
    ensureSafeDirectory(root, path.dirname(file));
    writeFileAtomic(file, JSON.stringify(merged, null, 2).replace(/\n/g, eol) + eol);
    report.written.push(pack.file);
  }
  return report;
}
