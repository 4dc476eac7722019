// Copilot CLI 1.0 (the real CLI from npm) against the scripted model. Copilot CLI runs .claude/settings.json as well as
// its own .github/hooks/agentsync.json, so this also shows that every event acts once, as copilot: one session, the
// stop gate blocks once, no hook acts as claude.
// Then, with `agentsync watch` running: `agentsync list --open` from a subfolder (the workspace's handoffs, nothing
// written there), and a claimHandoff request written with the agent's own write tool, its answer read back by the shell.
import * as path from 'node:path';
import { agentBin, agentEnv, runAgent, scene, startWatch } from './agentHarness';
import { ALL_CHECKS, checkDropZone, checkRun, checkSubfolder, wayInSteps } from './agentChecks';
import { startModelServer } from './modelServer';

describe('Copilot CLI (real CLI)', function () {
  this.timeout(300_000);

  for (const named of [false, true]) {
    const title = `both packs present${named ? ', AGENTSYNC_AGENT=copilot' : ''}`;
    it(`${title}: acts once as copilot; instructions, briefing, lease, radar warning, stop gate once; subfolder; drop zone claim`, async () => {
      const s = scene('copilot', 'claude');
      const server = await startModelServer([
        { tool: 'bash', args: { command: 'echo working', description: 'say it works' } },
        { tool: 'edit', args: { path: path.join(s.ws, s.contested), old_str: 'shared = 1', new_str: 'shared = 2' } },
        ...wayInSteps(s, 'copilot', {
          shell: (command) => ({ tool: 'bash', args: { command, description: 'run it' } }),
          write: (file, content) => ({ tool: 'create', args: { path: path.join(s.ws, file), file_text: content } }),
        }),
        { text: 'Done with the edit.' },
      ]);
      const watch = await startWatch(s.ws);
      try {
        const run = await runAgent(
          agentBin('copilot'),
          ['-p', 'Edit src/shared.ts', '--allow-all-tools', '--output-format', 'json', '--trust-folder'],
          {
            cwd: s.ws,
            env: agentEnv(s, {
              COPILOT_HOME: path.join(s.home, '.copilot'),
              COPILOT_PROVIDER_BASE_URL: `${server.url}/v1`,
              COPILOT_PROVIDER_API_KEY: 'dummy',
              COPILOT_MODEL: 'gpt-4.1',
              // Both packs then name the same agent: the Claude pack must still step aside, or the session restarts and
              // the stop gate's marker is spent by the second run.
              ...(named ? { AGENTSYNC_AGENT: 'copilot' } : {}),
            }),
          },
        );
        checkRun(s, 'copilot', server, run, { what: 'copilot -p', ...ALL_CHECKS });
        checkSubfolder(s, server, 'copilot -p');
        checkDropZone(s, 'copilot', server, 'copilot -p', watch.output());
      } finally {
        await watch.stop();
        await server.close();
      }
    });
  }
});
