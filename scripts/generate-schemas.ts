// Writes the JSON Schemas of handoffs.json and .agentsync.json from the zod schemas (docs/contract.md §7),
// so the editor checks hand edits with the same rules as the core (contributes.jsonValidation), and the parts of
// package.json the action catalog defines: contributes.commands and contributes.menus (src/vscode/commandCatalog.ts)
// and contributes.languageModelTools (src/vscode/languageModelToolCatalog.ts). test/unit/manifest.test.ts fails on drift.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import { configSchema } from '../src/core/domain/configSchema';
import { handoffsFileSchema } from '../src/core/domain/handoffSchema';
import { languageModelToolContributions } from '../src/vscode/agents/languageModelToolCatalog';
import { commandContributions, menuContributions } from '../src/vscode/manifest/commandCatalog';

const outDir = path.resolve(__dirname, '..', '..', 'schemas');

function write(name: string, schema: z.ZodType, title: string): void {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  const doc = { $id: `https://agentsync.invalid/schemas/${name}`, title, ...json };
  fs.mkdirSync(outDir, { recursive: true });
  fs.writeFileSync(path.join(outDir, name), JSON.stringify(doc, null, 2) + '\n');
}

write('handoffs.schema.json', handoffsFileSchema, 'AgentSync handoffs store (.agentsync/handoffs.json)');
write('agentsync-config.schema.json', configSchema, 'AgentSync configuration (.agentsync.json)');

/** Replaces the generated parts of package.json's contributes, keeping every other byte of its 2-space layout. */
function writeManifest(): void {
  const file = path.resolve(__dirname, '..', '..', 'package.json');
  const pkg = JSON.parse(fs.readFileSync(file, 'utf8')) as { contributes: Record<string, unknown> };
  pkg.contributes.commands = commandContributions();
  pkg.contributes.menus = menuContributions();
  pkg.contributes.languageModelTools = languageModelToolContributions();
  fs.writeFileSync(file, JSON.stringify(pkg, null, 2) + '\n');
}

writeManifest();
