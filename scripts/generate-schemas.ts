// Writes the JSON Schemas of handoffs.json and .agentsync.json from the zod schemas (docs/contract.md §7),
// so the editor checks hand edits with the same rules as the core (contributes.jsonValidation), and the input
// schemas of the VS Code language-model tools into package.json (contributes.languageModelTools).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import { configSchema } from '../src/core/domain/configSchema';
import { handoffsFileSchema } from '../src/core/domain/handoffSchema';
import { languageModelToolContributions } from '../src/vscode/agents/languageModelToolCatalog';

const outDir = path.resolve(__dirname, '..', '..', 'schemas');

function write(name: string, schema: z.ZodType, title: string): void {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  const doc = { $id: `https://agentsync.invalid/schemas/${name}`, title, ...json };
  fs.mkdirSync(outDir, { recursive: true });
  fs.writeFileSync(path.join(outDir, name), JSON.stringify(doc, null, 2) + '\n');
}

write('handoffs.schema.json', handoffsFileSchema, 'AgentSync handoffs store (.agentsync/handoffs.json)');
write('agentsync-config.schema.json', configSchema, 'AgentSync configuration (.agentsync.json)');

/** Replaces contributes.languageModelTools in package.json, keeping every other byte of its 2-space layout. */
function writeLanguageModelTools(): void {
  const file = path.resolve(__dirname, '..', '..', 'package.json');
  const pkg = JSON.parse(fs.readFileSync(file, 'utf8')) as { contributes: Record<string, unknown> };
  pkg.contributes.languageModelTools = languageModelToolContributions();
  fs.writeFileSync(file, JSON.stringify(pkg, null, 2) + '\n');
}

writeLanguageModelTools();
