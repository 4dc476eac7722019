// agentsync: opencode plugin written by `agentsync init --hooks`; the next run replaces this file (edit a copy under
// another name instead). It runs `agentsync hook <event> --agent opencode --format opencode` for each of opencode's
// events: the session-start briefing goes into the system prompt, a radar warning into the edit's result (or the
// edit is refused), leases are renewed after each tool call, and a model answer while holding claimed work is
// followed, once, by what to do. A failing hook never stops opencode: its message goes to stderr.
import { spawn } from 'node:child_process';

// The same words as the other packs' hook commands (src/core/hooks/missingCommand.ts).
const MISSING_COMMAND_MESSAGE =
  'AgentSync: the agentsync command is not on this shell\'s PATH, so this hook did nothing. Install it: in VS Code run ' +
  '"AgentSync: Install \'agentsync\' Command in PATH", or `npm install -g <agentsync package>`; see "Installing the agentsync ' +
  'command" in docs/agentsync-documentation.md.';

function spawnFailed(event, e) {
  if (e?.code === 'ENOENT') process.stderr.write(`${MISSING_COMMAND_MESSAGE}\n`);
  else process.stderr.write(`agentsync hook ${event}: ${e?.message ?? e}\n`);
}

function hook(event, input, directory) {
  return new Promise((resolve) => {
    let out = '';
    let child;
    try {
      child = spawn('agentsync', ['hook', event, '--agent', 'opencode', '--format', 'opencode'], {
        cwd: directory,
        stdio: ['pipe', 'pipe', 'inherit'],
      });
    } catch (e) {
      spawnFailed(event, e);
      return resolve({});
    }
    child.stdout.on('data', (d) => (out += d));
    child.on('error', (e) => {
      spawnFailed(event, e);
      resolve({});
    });
    // With no process there, writing its input fails too (EPIPE): that is the error above, not a second one.
    child.stdin.on('error', () => {});
    child.on('close', () => {
      try {
        resolve(out.trim() ? JSON.parse(out) : {});
      } catch {
        resolve({});
      }
    });
    child.stdin.end(JSON.stringify(input));
  });
}

export const AgentSync = async ({ client, directory }) => {
  const briefings = new Map();
  const warnings = new Map();
  return {
    'experimental.chat.system.transform': async (input, output) => {
      const id = input.sessionID;
      if (!id) return;
      if (!briefings.has(id)) {
        briefings.set(id, '');
        const r = await hook('session-start', { session_id: id, cwd: directory }, directory);
        briefings.set(id, typeof r.context === 'string' ? r.context : '');
      }
      const text = briefings.get(id);
      if (text) output.system.push(text);
    },
    'tool.execute.before': async (input, output) => {
      const r = await hook('pre-tool-use', { session_id: input.sessionID, cwd: directory, tool: input.tool, args: output.args }, directory);
      if (typeof r.deny === 'string') throw new Error(r.deny);
      if (typeof r.warn === 'string') warnings.set(input.callID, r.warn);
    },
    'tool.execute.after': async (input, output) => {
      const warning = warnings.get(input.callID);
      if (warning) {
        warnings.delete(input.callID);
        output.output = `${warning}\n\n${output.output ?? ''}`;
      }
      await hook('post-tool-use', { session_id: input.sessionID, cwd: directory, tool: input.tool, args: input.args }, directory);
    },
    // opencode has no stop hook, and `opencode run` exits on session.idle without waiting for plugins' event
    // handlers. The end of a model text is the last point opencode waits for a plugin before the turn may end: a block
    // queues the reason as the next prompt, so the loop goes on with it.
    'experimental.text.complete': async (input) => {
      const id = input.sessionID;
      if (!id) return;
      const r = await hook('stop', { session_id: id, cwd: directory }, directory);
      if (typeof r.block === 'string') {
        await client.session.promptAsync({ path: { id }, body: { parts: [{ type: 'text', text: r.block }] } }).catch((e) => {
          process.stderr.write(`agentsync hook stop: could not send the reminder: ${e?.message ?? e}\n`);
        });
      }
    },
  };
};
