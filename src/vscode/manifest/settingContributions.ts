// The settings of AgentSync (package.json contributes.configuration, written by scripts/generate-schemas.ts). One
// property per setting: add yours at the end.

export const CONFIGURATION = {
  title: 'AgentSync',
  properties: {
    'agentsync.agentId': {
      type: 'string',
      default: 'human',
      pattern: '^\\s*[A-Za-z0-9_ -]{1,64}\\s*$',
      patternErrorMessage: 'An agent id: letters, digits, "-" or "_" (stored in lowercase).',
      markdownDescription:
        'Who this window acts as: the agent id used for **Assigned to me**, the stale badge and every action (claim, ' +
        'complete, approve, ...). `human` (the default) or any id in `humans` of `.agentsync.json` may act on any ' +
        'handoff.',
    },
    'agentsync.dropZone.enabled': {
      type: 'boolean',
      default: true,
      markdownDescription:
        'Answer requests that agents drop into `.agentsync/request.json` and `.agentsync/requests/` (only in a trusted ' +
        'workspace). Two windows on one folder never answer the same request twice.',
      scope: 'resource',
    },
    'agentsync.sessionReminderHours': {
      type: 'number',
      default: 2,
      minimum: 0,
      markdownDescription:
        "Remind this window's agent every this many hours that its AgentSync session is still open (`session open for " +
        'N h`, with **End** and **Snooze**). `0` turns reminders off; fractions are allowed (`0.5` = 30 minutes).',
    },
    'agentsync.automation.endSessionZeroTouch': {
      type: 'boolean',
      default: false,
      markdownDescription:
        'Zero-touch sessions: **End Session** asks nothing. It writes a summary from git and the session, routes the ' +
        'handoff by `#agentsync.automation.handoffTo#` / `#agentsync.automation.handoffCapabilities#` (else back to ' +
        'whoever handed you the work, else `human`), and copies a one-line pick-up prompt for the next agent to the ' +
        'clipboard. **Start Session** claims the best handoff waiting for you. Commands of `.agentsync.json` run only ' +
        'if already approved on this machine.',
    },
    'agentsync.automation.handoffTo': {
      type: 'array',
      default: [],
      maxItems: 2,
      items: {
        type: 'string',
      },
      markdownDescription:
        'Zero-touch End Session: who receives the handoff. One agent id (`single`) or two (`shared`), e.g. ' +
        '`["claude"]`. Takes precedence over `#agentsync.automation.handoffCapabilities#`.',
    },
    'agentsync.automation.handoffCapabilities': {
      type: 'array',
      default: [],
      items: {
        type: 'string',
      },
      markdownDescription:
        'Zero-touch End Session: route the handoff by these capabilities (`owner_mode: auto`, matched against ' +
        '`agentCapabilities` of `.agentsync.json`), e.g. `["pr_review"]`. Used when `#agentsync.automation.handoffTo#` ' +
        'is empty.',
    },
    'agentsync.notifications.newWork': {
      type: 'boolean',
      default: true,
      markdownDescription:
        "Announce work that arrives for this window's agent (`#agentsync.agentId#`) while the window is open: a handoff " +
        'another agent creates for you or returns to you, from any surface (drop zone, CLI, MCP, a pull). One ' +
        'notification names the agent and the handoff, with **Show**; a burst within 10 seconds is one notification.',
    },
  },
};
