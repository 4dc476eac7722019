// The shipped JSON Schemas must be what the zod schemas generate, and must accept what the core accepts.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import { configSchema } from '../../../../src/core/domain/configSchema';
import { handoffsFileSchema } from '../../../../src/core/domain/handoffSchema';

const root = path.resolve(__dirname, '../../../../..');

describe('shipped JSON Schemas', () => {
  for (const [file, schema] of [
    ['handoffs.schema.json', handoffsFileSchema],
    ['agentsync-config.schema.json', configSchema],
  ] as const) {
    it(`schemas/${file} is up to date with the zod schema (run npm run schemas)`, () => {
      const shipped = JSON.parse(fs.readFileSync(path.join(root, 'schemas', file), 'utf8')) as Record<string, unknown>;
      const generated = z.toJSONSchema(schema as z.ZodType, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
      const { $id: _id, title: _title, ...rest } = shipped;
      assert.deepEqual(rest, JSON.parse(JSON.stringify(generated)));
    });
  }

  it('the handoffs schema forbids unknown keys and constrains agent ids, like the core', () => {
    type ObjectSchema = { additionalProperties: boolean; properties: Record<string, { pattern?: string }>; required: string[] };
    const shipped = JSON.parse(fs.readFileSync(path.join(root, 'schemas', 'handoffs.schema.json'), 'utf8')) as {
      properties: { handoffs: { items: ObjectSchema } };
    };
    const item = shipped.properties.handoffs.items;
    assert.equal(item.additionalProperties, false);
    assert.equal(item.properties.from_agent.pattern, '^[a-z0-9_-]{1,64}$');
    assert.deepEqual(item.required.slice().sort(), [
      'created_at',
      'from_agent',
      'handoff_id',
      'owner_mode',
      'status',
      'summary',
      'updated_at',
    ]);
  });
});
