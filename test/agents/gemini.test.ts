// Gemini CLI 0.61 (the real CLI from npm) against the scripted model, in a trusted folder: GEMINI.md and the
// session-start briefing reach the model, AfterTool renews the lease, the radar's warning for write_file comes with the
// tool's result (BeforeTool reads no context), AfterAgent blocks once, and only gemini acts.
// Then, with `agentsync watch` running: `agentsync list --open` from a subfolder (the workspace's handoffs, nothing
// written there), and a claimHandoff request written with the agent's own write tool, its answer read back by the shell.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { agentBin, agentEnv, runAgent, scene, startWatch } from './agentHarness';
import { ALL_CHECKS, checkDropZone, checkRun, checkSubfolder, wayInSteps } from './agentChecks';
import { startModelServer } from './modelServer';

describe('Gemini CLI (real CLI)', function () {
  this.timeout(300_000);

  it('GEMINI.md and .gemini/settings.json: instructions, briefing, lease, radar warning, stop gate once; subfolder; drop zone claim', async () => {
    const s = scene('gemini', 'claude');
    const server = await startModelServer([
      { tool: 'run_shell_command', args: { command: 'echo working', description: 'say it works' } },
      { tool: 'write_file', args: { file_path: path.join(s.ws, s.contested), content: 'export const shared = 2;\n' } },
      ...wayInSteps(s, 'gemini', {
        shell: (command) => ({ tool: 'run_shell_command', args: { command, description: 'run it' } }),
        write: (file, content) => ({ tool: 'write_file', args: { file_path: path.join(s.ws, file), content } }),
      }),
      { text: 'Done with the edit.' },
    ]);
    const settings = path.join(s.home, '.gemini');
    fs.mkdirSync(settings, { recursive: true });
    fs.writeFileSync(path.join(settings, 'settings.json'), JSON.stringify({ security: { auth: { selectedType: 'gemini-api-key' } } }));
    const watch = await startWatch(s.ws);
    try {
      const run = await runAgent(
        agentBin('gemini'),
        ['-p', 'Edit src/shared.ts', '--yolo', '--output-format', 'stream-json', '-m', 'gemini-2.5-flash'],
        {
          cwd: s.ws,
          env: agentEnv(s, { GOOGLE_GEMINI_BASE_URL: server.url, GEMINI_API_KEY: 'dummy', GEMINI_CLI_TRUST_WORKSPACE: 'true' }),
        },
      );
      checkRun(s, 'gemini', server, run, { what: 'gemini -p', ...ALL_CHECKS });
      checkSubfolder(s, server, 'gemini -p');
      checkDropZone(s, 'gemini', server, 'gemini -p', watch.output());
    } finally {
      await watch.stop();
      await server.close();
    }
  });
});
