// `agentsync init --hooks` (docs/agentsync-documentation.md, "Hook packs"): the hook files each agent runs, in its
// vendor's published format (src/core/hooks/vendors/), merged into what the user already has. Our entries are
// recognised by their command (`agentsync hook <event>`); every other entry, key and value of the user's file is kept.
// A second run changes nothing. A vendor with plugins instead of command hooks (opencode) gets a file of its own.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { assertRegularOrMissing, writeFileAtomic } from '../disk/atomicFile';
import { parseBoundedJson } from '../domain/boundedJson';
import { assertSafeDirectory, ensureSafeDirectory } from '../disk/safeDirectory';
import { ActionError } from '../domain/errors';
import { VENDOR_IDS, VENDORS } from './vendors';
import type { FilePack, HookEvent, Json, JsonObject, JsonPack } from './vendors/vendor';

export { hookCommand } from './vendors/vendor';

export const HOOK_PACKS: readonly (JsonPack | FilePack)[] = VENDOR_IDS.map((v) => VENDORS[v].pack);

/** The first line of a file pack AgentSync wrote: a file without it is the user's and is never overwritten. */
export const FILE_PACK_MARK = '// agentsync:';

/**
 * True when an entry (at any depth) runs `agentsync hook <event>`, bare (as older packs wrote it) or inside the
 * missing-command guard (src/core/hooks/missingCommand.ts): that entry is ours to replace.
 */
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
export function mergePack(current: Json | undefined, pack: JsonPack): JsonObject {
  if (current !== undefined && !isObject(current)) refuse(pack.file, 'is JSON but not an object');
  const doc = structuredClone<JsonObject>(current ?? {});
  for (const [k, v] of Object.entries(pack.base)) if (!(k in doc)) doc[k] = v;
  if ('version' in pack.base && doc.version !== pack.base.version) {
    refuse(pack.file, `has "version": ${JSON.stringify(doc.version)} (this hook format is version ${JSON.stringify(pack.base.version)})`);
  }
  if (doc.hooks === undefined) doc.hooks = {};
  if (!isObject(doc.hooks)) refuse(pack.file, 'has a "hooks" value that is not an object');
  const hooks = doc.hooks;
  for (const { name, event, entry } of pack.entries) {
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
  /** What each vendor needs trusted or enabled before it runs a project's hooks, one sentence per vendor. */
  beforeHooksRun: string[];
}

/** A file pack's next text, or a refusal when the file there is the user's own. */
function filePackText(pack: FilePack, current: string | null, template: (name: FilePack['template']) => string): string {
  if (current !== null && !current.startsWith(FILE_PACK_MARK)) {
    throw new ActionError(
      'hooks_file_invalid',
      `${pack.file} exists and was not written by AgentSync (its first line is not "${FILE_PACK_MARK} ..."); AgentSync will not ` +
        'overwrite it. Move it aside, then run agentsync init --hooks again. Nothing was changed.',
      { path: pack.file },
    );
  }
  return template(pack.template);
}

/**
 * Merges every pack; with `dryRun`, only checks that each file can be merged (throws as a real run would).
 * `template` reads a file pack's text (templates/ at the package root).
 */
export function writeHookPacks(
  root: string,
  template: (name: FilePack['template']) => string,
  options: { dryRun?: boolean } = {},
): HookPackReport {
  const report: HookPackReport = { written: [], unchanged: [], beforeHooksRun: VENDOR_IDS.map((v) => VENDORS[v].beforeHooksRun) };
  for (const pack of HOOK_PACKS) {
    const file = path.join(root, pack.file);
    // `.claude` committed as a link to ~/.claude would make us edit the user's own settings: refused, nothing written.
    assertSafeDirectory(root, path.dirname(file));
    assertRegularOrMissing(file);
    if (pack.kind === 'file') {
      const current = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : null;
      const next = filePackText(pack, current, template);
      if (current === next) report.unchanged.push(pack.file);
      else if (!options.dryRun) {
        fs.mkdirSync(path.dirname(file), { recursive: true });
        writeFileAtomic(file, next);
        report.written.push(pack.file);
      }
      continue;
    }
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
