// Writes what is generated from the code (`npm run build` runs it first, and `npm run schemas`): the JSON Schemas of
// handoffs.json and .agentsync.json from the zod schemas (docs/contract.md §7), so the editor checks hand edits with
// the same rules as the core (contributes.jsonValidation); the generated parts of package.json's contributes
// (scripts/manifest/contributes.ts), after checking them (src/vscode/manifest/manifestCheck.ts); and the command ids
// as a type (src/vscode/manifest/commandIds.ts). test/unit/vscode/manifest/manifest.test.ts and test/unit/core/domain/jsonSchemas.test.ts fail on drift.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import { configSchema } from '../src/core/domain/configSchema';
import { handoffsFileSchema } from '../src/core/domain/handoffSchema';
import { manifestProblems, type Contributes } from '../src/vscode/manifest/manifestCheck';
import { commandIdsSource, generatedContributes } from './manifest/contributes';

/** The repository: given by the build (scripts/build/generate.mjs), else two up from out/scripts/. */
const root = process.argv[2] ?? path.resolve(__dirname, '..', '..');

/** Writes the file only when its bytes change, so a build does not touch what it did not change. */
function writeIfChanged(file: string, text: string): void {
  if (fs.existsSync(file) && fs.readFileSync(file, 'utf8') === text) return;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
}

function writeSchema(name: string, schema: z.ZodType, title: string): void {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  const doc = { $id: `https://agentsync.invalid/schemas/${name}`, title, ...json };
  writeIfChanged(path.join(root, 'schemas', name), JSON.stringify(doc, null, 2) + '\n');
}

/**
 * The entries of sections that were hand-edited in package.json before they were generated (views, welcome content,
 * walkthrough steps, settings) that package.json has and their source lacks: writing would lose them silently.
 */
function handEdits(old: Record<string, unknown>, generated: Record<string, unknown>): string[] {
  const keys: Record<string, [string, (section: unknown) => string[]]> = {
    views: ['viewContributions.ts', (v) => Object.values(v as Record<string, { id: string }[]>).flatMap((vs) => vs.map((x) => x.id))],
    viewsWelcome: [
      'viewContributions.ts',
      (v) => (v as { view: string; when?: string }[]).map((w) => `${w.view} when ${w.when ?? '(always)'}`),
    ],
    walkthroughs: [
      'walkthroughContributions.ts',
      (v) => (v as { id: string; steps: { id: string }[] }[]).flatMap((w) => w.steps.map((st) => `${w.id}.${st.id}`)),
    ],
    configuration: ['settingContributions.ts', (v) => Object.keys((v as { properties: Record<string, unknown> }).properties)],
  };
  return Object.entries(keys).flatMap(([section, [source, keysOf]]) => {
    if (old[section] === undefined) return [];
    const kept = new Set(keysOf(generated[section]));
    return keysOf(old[section])
      .filter((k) => !kept.has(k))
      .map(
        (k) =>
          `contributes.${section}: "${k}" is in package.json but not in src/vscode/manifest/${source}, which generates it ` +
          'now: move it there (or delete it from package.json)',
      );
  });
}

/** Replaces the generated parts of package.json's contributes, keeping every other byte of its 2-space layout. */
function writeManifest(): void {
  const file = path.join(root, 'package.json');
  const pkg = JSON.parse(fs.readFileSync(file, 'utf8')) as { contributes: Record<string, unknown> };
  const generated = generatedContributes();
  const problems = [...handEdits(pkg.contributes, generated)];
  Object.assign(pkg.contributes, generated);
  problems.push(...manifestProblems(pkg.contributes as unknown as Contributes));
  if (problems.length > 0) {
    console.error(`package.json would be unsound; nothing written. Fix:\n  ${problems.join('\n  ')}`);
    process.exit(1);
  }
  writeIfChanged(file, JSON.stringify(pkg, null, 2) + '\n');
  writeIfChanged(path.join(root, 'src', 'vscode', 'manifest', 'commandIds.ts'), commandIdsSource());
}

writeSchema('handoffs.schema.json', handoffsFileSchema, 'AgentSync handoffs store (.agentsync/handoffs.json)');
writeSchema('agentsync-config.schema.json', configSchema, 'AgentSync configuration (.agentsync.json)');
writeManifest();
