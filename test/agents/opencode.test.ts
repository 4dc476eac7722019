// opencode 1.18 (the real CLI from npm) against the scripted model: AGENTS.md and the plugin AgentSync writes
// (.opencode/plugins/agentsync.js): the briefing in the system prompt, the lease renewed after a tool call, the
// radar's warning in front of the edit's result, a stop while holding work answered once, and only opencode acts.
// Then, with `agentsync watch` running: `agentsync list --open` from a subfolder (the workspace's handoffs, nothing
// written there), and a claimHandoff request written with the agent's own write tool, its answer read back by the shell.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { agentBin, agentEnv, runAgent, scene, startWatch } from './agentHarness';
import { ALL_CHECKS, checkDropZone, checkRun, checkSubfolder, wayInSteps } from './agentChecks';
import { startModelServer } from './modelServer';

describe('opencode (real CLI)', function () {
  this.timeout(300_000);

  it('the plugin: instructions, briefing, lease, radar warning, stop gate once; subfolder; drop zone claim', async () => {
    const s = scene('opencode', 'claude');
    const server = await startModelServer([
      { tool: 'bash', args: { command: 'echo working', description: 'say it works' } },
      { tool: 'write', args: { filePath: path.join(s.ws, s.contested), content: 'export const shared = 2;\n' } },
      ...wayInSteps(s, 'opencode', {
        shell: (command) => ({ tool: 'bash', args: { command, description: 'run it' } }),
        write: (file, content) => ({ tool: 'write', args: { filePath: path.join(s.ws, file), content } }),
      }),
      { text: 'Done with the edit.' },
    ]);
    const config = path.join(s.home, '.config', 'opencode');
    fs.mkdirSync(config, { recursive: true });
    fs.writeFileSync(
      path.join(config, 'opencode.json'),
      JSON.stringify({
        model: 'mock/mock-model',
        provider: {
          mock: {
            npm: '@ai-sdk/openai-compatible',
            name: 'Mock',
            options: { baseURL: `${server.url}/v1`, apiKey: 'dummy' },
            models: { 'mock-model': { name: 'Mock', tool_call: true } },
          },
        },
        permission: { bash: 'allow', edit: 'allow' },
        autoupdate: false,
        share: 'disabled',
      }),
    );
    const watch = await startWatch(s.ws);
    try {
      const run = await runAgent(agentBin('opencode'), ['run', 'Edit src/shared.ts'], {
        cwd: s.ws,
        env: agentEnv(s, { XDG_CONFIG_HOME: path.join(s.home, '.config'), OPENCODE_DISABLE_MODELS_FETCH: 'true' }),
      });
      checkRun(s, 'opencode', server, run, { what: 'opencode run', ...ALL_CHECKS });
      checkSubfolder(s, server, 'opencode run');
      checkDropZone(s, 'opencode', server, 'opencode run', watch.output());
    } finally {
      await watch.stop();
      await server.close();
    }
  });
});
