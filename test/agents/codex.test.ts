// Codex 0.169 (the real CLI from npm) against the scripted model, as a user would set it up: the project trusted in
// config.toml and the hooks approved (headless: --dangerously-bypass-hook-trust); the model is known to a catalog of
// one entry, so Codex offers it apply_patch, its file-writing tool.
// Then, with `agentsync watch` running: `agentsync list --open` from a subfolder (the workspace's handoffs, nothing
// written there), and a claimHandoff request written with the agent's own write tool, its answer read back by the shell.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { agentBin, agentEnv, runAgent, scene, startWatch } from './agentHarness';
import { ALL_CHECKS, checkDropZone, checkRun, checkSubfolder, wayInSteps } from './agentChecks';
import { startModelServer } from './modelServer';

/** The fields Codex 0.169 requires of a model catalog entry; apply_patch_tool_type makes it offer apply_patch. */
const MOCK_MODEL = {
  slug: 'mock-model',
  display_name: 'Mock',
  description: 'the scripted test model',
  default_reasoning_level: 'medium',
  supported_reasoning_levels: [{ effort: 'medium', description: 'medium' }],
  shell_type: 'shell_command',
  visibility: 'list',
  supported_in_api: true,
  priority: 1,
  apply_patch_tool_type: 'freeform',
  context_window: 272000,
  truncation_policy: { mode: 'tokens', limit: 10000 },
  input_modalities: ['text'],
  supports_parallel_tool_calls: false,
  base_instructions: 'You are a coding agent.',
  support_verbosity: true,
  experimental_supported_tools: [],
};

describe('Codex (real CLI)', function () {
  this.timeout(300_000);

  it('trusted project, hooks approved: instructions, briefing, lease, radar before apply_patch, stop gate once; subfolder; drop zone claim', async () => {
    const s = scene('codex', 'claude');
    const patch = `*** Begin Patch\n*** Update File: ${s.contested}\n@@\n-export const shared = 1;\n+export const shared = 2;\n*** End Patch\n`;
    const server = await startModelServer([
      { tool: 'exec_command', args: { cmd: 'echo working' } },
      { tool: 'apply_patch', args: { input: patch } },
      ...wayInSteps(s, 'codex', {
        shell: (cmd) => ({ tool: 'exec_command', args: { cmd } }),
        write: (file, content) => ({
          tool: 'apply_patch',
          args: { input: `*** Begin Patch\n*** Add File: ${file}\n+${content.trimEnd()}\n*** End Patch\n` },
        }),
      }),
      { text: 'Done with the edit.' },
    ]);
    const codexHome = path.join(s.home, '.codex');
    fs.mkdirSync(codexHome, { recursive: true });
    fs.writeFileSync(path.join(codexHome, 'catalog.json'), JSON.stringify({ models: [MOCK_MODEL] }));
    fs.writeFileSync(
      path.join(codexHome, 'config.toml'),
      [
        'model = "mock-model"',
        `model_catalog_json = ${JSON.stringify(path.join(codexHome, 'catalog.json'))}`,
        'model_provider = "mock"',
        '[model_providers.mock]',
        'name = "mock"',
        `base_url = "${server.url}/v1"`,
        'env_key = "MOCK_MODEL_KEY"',
        'wire_api = "responses"',
        `[projects.${JSON.stringify(s.ws)}]`,
        'trust_level = "trusted"',
        '',
      ].join('\n'),
    );
    const watch = await startWatch(s.ws);
    try {
      const run = await runAgent(agentBin('codex'), ['exec', '--json', '--dangerously-bypass-hook-trust', 'Edit src/shared.ts'], {
        cwd: s.ws,
        env: agentEnv(s, { CODEX_HOME: codexHome, MOCK_MODEL_KEY: 'dummy' }),
      });
      checkRun(s, 'codex', server, run, { what: 'codex exec', ...ALL_CHECKS });
      checkSubfolder(s, server, 'codex exec');
      checkDropZone(s, 'codex', server, 'codex exec', watch.output());
    } finally {
      await watch.stop();
      await server.close();
    }
  });
});
