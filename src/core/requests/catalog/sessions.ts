// The session actions (docs/contract.md §8, §10): startSession, endSession, status, health.
import { endSession as end, healthResult, prepareEndSession, prepareHealth, startSession as start } from '../sessions/sessionActions';
import { sessionStatus } from '../sessions/sessionStatus';
import { paramSchemas } from '../requestParams';
import { defineAction, type ActionEnv } from './actionDefinition';

const envOnly = (env: ActionEnv): Promise<ActionEnv> => Promise.resolve(env);

export const startSession = defineAction({
  params: paramSchemas.startSession,
  readOnly: false,
  tellsRevoked: 'markTold',
  description:
    'Start a working session for `agent` with an optional goal, optionally on a handoff it has claimed (handoffId); AgentTracker.md ' +
    'shows it under In Progress. Answers { agent, goal, session }.',
  prepare: envOnly,
  run: (tx, ctx, p, env) => start(tx, ctx, p, env),
  moves: [
    {
      // A session on a handoff in progress; the core checks that the agent holds it.
      name: 'start',
      available: (h) => h.status === 'in_progress',
      command: {
        id: 'agentsync.startSessionOnHandoff',
        title: 'Start Session on Handoff',
        label: 'Start',
        icon: 'play',
        group: '3_session@1',
        on: 'palette',
      },
      dashboard: {
        order: 2,
        hint: 'start a session from it',
        forViewer: (h, v) => h.claimed_by === v.me && v.sessionHandoff !== h.handoff_id,
      },
    },
  ],
});

export const endSession = defineAction({
  params: paramSchemas.endSession,
  readOnly: false,
  description:
    'End the session of `agent` with a summary and nextWork, and either leave a handoff (`handoff`, as in createHandoff; from_agent ' +
    'defaults to the agent) or say why not (no_handoff_reason). Runs the configured commands (build, test and deploy of ' +
    '.agentsync.json) only if the local user approved them with `agentsync trust`; otherwise they are Skipped and the answer carries ' +
    'commandsUntrusted. Answers the session record and any handoff created.',
  prepare: prepareEndSession,
  run: (tx, ctx, p, prep) => end(tx, ctx, p, prep),
});

export const status = defineAction({
  params: paramSchemas.status,
  readOnly: true,
  tellsRevoked: 'show',
  description:
    'Use at the start of work in this repository, and whenever you need the big picture: active sessions, last session, open and ' +
    'stale handoffs, health, hot files and warnings; with `agent`, also the open handoffs assigned to it. Read-only.',
  prepare: envOnly,
  run: (tx, ctx, _p, env) => sessionStatus(tx, ctx, env),
  tool: {
    displayName: 'AgentSync: Status',
    userDescription: 'The AgentSync state of this workspace at a glance.',
    icon: '$(pulse)',
    actsAsAgent: true,
  },
});

export const health = defineAction({
  params: paramSchemas.health,
  readOnly: true,
  description:
    'Run the build and test commands configured in .agentsync.json (never deploy) and answer their results; writes nothing. Refused ' +
    'with reason commands_untrusted until the local user approves the commands with `agentsync trust`. Runs one at a time per workspace.',
  prepare: prepareHealth,
  run: (_tx, _ctx, _p, report) => healthResult(report),
});
