// Claude Code 2.1 (the real CLI from npm) against the scripted model: instructions (CLAUDE.md) and the session-start
// briefing reach the model, a tool call renews the lease, the radar warns before a write to another agent's file,
// the stop gate blocks once and lets go, and only claude acts.
// Then, with `agentsync watch` running: `agentsync list --open` from a subfolder (the workspace's handoffs, nothing
// written there), and a claimHandoff request written with the agent's own write tool, its answer read back by the shell.
import * as path from 'node:path';
import { agentBin, agentEnv, runAgent, scene, startWatch } from './agentHarness';
import { ALL_CHECKS, checkDropZone, checkRun, checkSubfolder, wayInSteps } from './agentChecks';
import { startModelServer } from './modelServer';

describe('Claude Code (real CLI)', function () {
  this.timeout(300_000);

  it('gets the instructions and briefing, renews its lease, is warned before editing a claimed file, is stopped once; subfolder; drop zone claim', async () => {
    const s = scene('claude', 'codex');
    const server = await startModelServer([
      { tool: 'Bash', args: { command: 'echo working', description: 'say it works' } },
      // Claude Code writes only a file it has read.
      { tool: 'Read', args: { file_path: path.join(s.ws, s.contested) } },
      { tool: 'Write', args: { file_path: path.join(s.ws, s.contested), content: 'export const shared = 2;\n' } },
      ...wayInSteps(s, 'claude', {
        shell: (command) => ({ tool: 'Bash', args: { command, description: 'run it' } }),
        write: (file, content) => ({ tool: 'Write', args: { file_path: path.join(s.ws, file), content } }),
      }),
      { text: 'Done with the edit.' },
    ]);
    const watch = await startWatch(s.ws);
    try {
      const run = await runAgent(
        agentBin('claude'),
        ['-p', 'Edit src/shared.ts', '--output-format', 'stream-json', '--verbose', '--allowedTools', 'Bash', 'Read', 'Write'],
        { cwd: s.ws, env: agentEnv(s, { ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 'dummy' }) },
      );
      checkRun(s, 'claude', server, run, { what: 'claude -p', ...ALL_CHECKS });
      checkSubfolder(s, server, 'claude -p');
      checkDropZone(s, 'claude', server, 'claude -p', watch.output());
    } finally {
      await watch.stop();
      await server.close();
    }
  });
});
