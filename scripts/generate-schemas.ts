// Writes the JSON Schemas of handoffs.json and .agentsync.json from the zod schemas (DESIGN §7),
// so the editor checks hand edits with the same rules as the core (contributes.jsonValidation).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import { configSchema } from '../src/core/configSchema';
import { handoffsFileSchema } from '../src/core/handoffSchema';

const outDir = path.resolve(__dirname, '..', '..', 'schemas');

function write(name: string, schema: z.ZodType, title: string): void {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  const doc = { $id: `https://agentsync.invalid/schemas/${name}`, title, ...json };
  fs.mkdirSync(outDir, { recursive: true });
  fs.writeFileSync(path.join(outDir, name), JSON.stringify(doc, null, 2) + '\n');
}

write('handoffs.schema.json', handoffsFileSchema, 'AgentSync handoffs store (.agentsync/handoffs.json)');
write('agentsync-config.schema.json', configSchema, 'AgentSync configuration (.agentsync.json)');
