// Every vendor the product defines (src/core/hooks/vendors/index.ts) that the tier can run (vendorRuns.ts), as one
// table: its real CLI from npm against the scripted model, in a workspace where it holds one handoff (lease past half)
// and another agent holds one listing src/shared.ts. The instructions and the session-start briefing reach the model, a
// tool call renews the lease, the radar warns about the edit of src/shared.ts, the stop gate blocks once and lets go,
// and only this agent acts. Then, with `agentsync watch` running: `agentsync list --open` from a subfolder (the
// workspace's handoffs, nothing written there), and a claimHandoff request written with the agent's own write tool,
// its answer read back by the shell.
import * as path from 'node:path';
import { agentEnv, runAgent, scene, startWatch } from './agentHarness';
import { ALL_CHECKS, checkDropZone, checkRun, checkSubfolder, wayInSteps } from './agentChecks';
import { startModelServer } from './modelServer';
import { VENDOR_RUNS } from './vendorRuns';
import { VENDOR_IDS, VENDORS } from '../../src/core/hooks/vendors';

for (const id of VENDOR_IDS) {
  const v = VENDOR_RUNS[id];
  if ('none' in v) continue; // its reason is in vendorRuns.ts
  // The other agent holding src/shared.ts: Claude Code, or Codex for Claude Code's own test.
  const other = id === 'claude' ? 'codex' : 'claude';

  describe(`${VENDORS[id].name} (real CLI)`, function () {
    this.timeout(300_000);

    for (const variant of [{ title: '', env: {} }, ...(v.variants ?? [])]) {
      const title = `${v.title}${variant.title ? `, ${variant.title}` : ''}`;
      it(`${title}: instructions, briefing, lease, radar warning, stop gate once; subfolder; drop zone claim`, async () => {
        const s = scene(id, other);
        const server = await startModelServer([
          v.shell('echo working'),
          ...v.edit(s.ws, path.join(s.ws, s.contested), 'export const shared = 1;', 'export const shared = 2;'),
          ...wayInSteps(s, id, {
            shell: (command) => v.shell(command),
            write: (file, content) => v.write(s.ws, path.join(s.ws, file), content),
          }),
          { text: 'Done with the edit.' },
        ]);
        const launch = v.launch({ home: s.home, serverUrl: server.url, folders: [s.ws], prompt: 'Edit src/shared.ts' });
        const watch = await startWatch(s.ws);
        try {
          const run = await runAgent(launch.bin, launch.args, { cwd: s.ws, env: agentEnv(s, { ...launch.env, ...variant.env }) });
          checkRun(s, id, server, run, { what: v.command, ...ALL_CHECKS });
          checkSubfolder(s, server, v.command);
          checkDropZone(s, id, server, v.command, watch.output());
        } finally {
          await watch.stop();
          await server.close();
        }
      });
    }
  });
}
