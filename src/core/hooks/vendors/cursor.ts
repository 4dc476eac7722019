// Cursor: AGENTS.md, `.cursor/hooks.json` { version: 1, hooks: { sessionStart|postToolUse|stop|sessionEnd: [{ command }] } }
// (docs/agentsync-documentation.md, "Hook packs"). No pre-tool hook is installed for it, so it is refused a pass that
// limits what its receiver may do (E013 at claim).
import { packCommand, str, type HookEvent, type HookInput, type PackEntry, type Vendor } from './vendor';

const entry = (name: string, event: HookEvent): PackEntry => ({ name, event, entry: { command: packCommand(event, 'cursor') } });

export const cursor: Vendor = {
  id: 'cursor',
  name: 'Cursor',
  instructionFiles: ['AGENTS.md'],
  startCommand: 'cursor-agent',
  pack: {
    kind: 'json',
    file: '.cursor/hooks.json',
    base: { version: 1 },
    entries: [
      entry('sessionStart', 'session-start'),
      entry('postToolUse', 'post-tool-use'),
      entry('stop', 'stop'),
      entry('sessionEnd', 'session-end'),
    ],
  },
  sessionEnv: [],
  beforeHooksRun:
    "Cursor: runs the opened project's .cursor/hooks.json (not checked here against a running Cursor: see its hooks documentation).",
  folder: (input: HookInput) => {
    const roots = input.workspace_roots;
    return Array.isArray(roots) && typeof roots[0] === 'string' ? roots[0] : str(input, 'cwd') || null;
  },
  sessionId: (input: HookInput) => str(input, 'conversation_id') || str(input, 'session_id'),
  loopActive: (input: HookInput) => typeof input.loop_count === 'number' && input.loop_count > 0,
  context: (text: string) => ({ additional_context: text }),
  preTool: null,
  denyBeforeTool: {
    no: 'AgentSync installs no pre-tool hook for Cursor (its tool hooks are not checked here against a running Cursor)',
  },
  // sessionEnd (Cursor's hooks documentation): { conversation_id, workspace_roots, reason }; stop ends a turn.
  sessionEnd: { yes: 'sessionEnd' },
  blockStop: (reason: string) => ({ followup_message: reason }),
  allowStop: () => ({}),
  runByAnother: () => false,
};
