// The VS Code language-model tools (docs/contract.md §10a): package.json declares exactly the catalog, with input schemas
// generated from the zod params (npm run schemas), and a tool call builds a request the dispatcher accepts,
// acting as the input's agent or else the window's.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ACTION_NAMES, CATALOG } from '../../../../src/core/requests/catalog';
import { LANGUAGE_MODEL_TOOLS, languageModelToolContributions, requestFor } from '../../../../src/vscode/agents/languageModelToolCatalog';
import { removeTempDirs, TestWorkspace } from '../../helpers/testWorkspace';

const root = path.resolve(__dirname, '../../../../..');
interface ToolContribution {
  name: string;
  inputSchema: { required?: string[]; properties: Record<string, unknown> & { handoff: { required: string[] } } };
}
const pkg = () =>
  JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { contributes: { languageModelTools: ToolContribution[] } };
const spec = (action: string) => LANGUAGE_MODEL_TOOLS.find((t) => t.action === action)!;

describe('language-model tools (docs/contract.md §10a)', () => {
  after(removeTempDirs);

  it('package.json contributes.languageModelTools is what the catalog and the zod params generate (run npm run schemas)', () => {
    assert.deepEqual(pkg().contributes.languageModelTools, JSON.parse(JSON.stringify(languageModelToolContributions())));
  });

  it('offers each catalog action with a tool entry, as agentsync_<action>; store-changing tools are the non-read-only actions', () => {
    const withTool = ACTION_NAMES.filter((a) => CATALOG[a].tool);
    assert.deepEqual(
      LANGUAGE_MODEL_TOOLS.map((t) => t.action),
      withTool,
    );
    // The agent's everyday moves are offered; the bookkeeping actions are not.
    for (const a of ['createHandoff', 'claimHandoff', 'completeHandoff', 'status'] as const) assert.ok(withTool.includes(a), a);
    for (const a of ['heartbeat', 'expireLeases'] as const) assert.ok(!withTool.includes(a), a);
    for (const t of LANGUAGE_MODEL_TOOLS) {
      assert.equal(t.changesStore, !CATALOG[t.action].readOnly, `${t.name}: changesStore`);
      assert.equal(t.name, `agentsync_${t.action}`);
      assert.match(t.modelDescription, /^Use /, `${t.name}: the description says when to use it`);
    }
  });

  it('no tool requires `agent` (the window identity fills it); createHandoff does not require from_agent', () => {
    for (const tool of pkg().contributes.languageModelTools) {
      assert.ok(!(tool.inputSchema.required ?? []).includes('agent'), `${tool.name} requires agent`);
      assert.ok(!('action' in tool.inputSchema.properties), `${tool.name} exposes action`);
    }
    const create = pkg().contributes.languageModelTools.find((t) => t.name === 'agentsync_createHandoff')!;
    assert.deepEqual(create.inputSchema.required, ['handoff']);
    assert.ok(!create.inputSchema.properties.handoff.required.includes('from_agent'));
    assert.ok(create.inputSchema.properties.handoff.required.includes('summary'));
  });

  it('requests act as the input agent, else the window identity; list does not filter by the window identity', () => {
    assert.equal(requestFor(spec('claimHandoff'), { handoffId: 'HO-1' }, 'copilot').agent, 'copilot');
    assert.equal(requestFor(spec('claimHandoff'), { handoffId: 'HO-1', agent: 'claude' }, 'copilot').agent, 'claude');
    assert.equal(requestFor(spec('listHandoffs'), {}, 'copilot').agent, undefined);
    const create = requestFor(spec('createHandoff'), { handoff: { owner_mode: 'single', to_agents: ['claude'], summary: 'x' } }, 'copilot');
    assert.equal((create.handoff as { from_agent: string }).from_agent, 'copilot');
  });

  it('a create and a claim built this way are accepted by the dispatcher', async () => {
    const ws = new TestWorkspace();
    const created = await ws.dispatch(
      requestFor(
        spec('createHandoff'),
        { handoff: { owner_mode: 'single', to_agents: ['copilot'], summary: 'Write the parser tests' } },
        'claude',
      ),
    );
    assert.equal(created.ok, true, JSON.stringify(created));
    const id = (created.data as { handoff: { handoff_id: string } }).handoff.handoff_id;
    const claimed = await ws.dispatch(requestFor(spec('claimHandoff'), { handoffId: id }, 'copilot'));
    assert.equal(claimed.ok, true, JSON.stringify(claimed));
    assert.equal(ws.stored(id).claimed_by, 'copilot');
    assert.equal(ws.stored(id).from_agent, 'claude');
  });
});
