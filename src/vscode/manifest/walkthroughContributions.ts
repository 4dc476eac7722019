// The Get Started walkthrough (package.json contributes.walkthroughs, written by scripts/generate-schemas.ts). Its
// steps complete on commands, views and context keys that scripts/generate-schemas.ts checks exist.

export const WALKTHROUGHS = [
  {
    id: 'gettingStarted',
    title: 'Get Started with AgentSync',
    description: 'Hand work between AI coding agents and people in this repository: sessions, handoffs, claims.',
    steps: [
      {
        id: 'init',
        title: 'Initialize the workspace',
        description:
          'AgentSync keeps handoffs in `.agentsync/handoffs.json` and a tracker in `AgentTracker.md`. Initialize creates ' +
          'what is missing and never overwrites a file.\n[Initialize Workspace](command:agentsync.init)',
        media: {
          markdown: 'media/walkthrough/init.md',
        },
        completionEvents: ['onCommand:agentsync.init', 'onContext:agentsync.initialized'],
      },
      {
        id: 'startSession',
        title: 'Start a session',
        description:
          'Say what you work on, or start from a handoff you hold. Agents do the same with `startSession`.\n[Start Session](command:agentsync.startSession)',
        media: {
          markdown: 'media/walkthrough/start-session.md',
        },
        completionEvents: ['onCommand:agentsync.startSession'],
      },
      {
        id: 'handOff',
        title: 'Hand off work',
        description:
          'Leave the next step to another agent or a person: a summary, a note, one owner, two, or routing by ' +
          'capabilities.\n[Add Handoff Note](command:agentsync.addHandoffNote)',
        media: {
          markdown: 'media/walkthrough/hand-off.md',
        },
        completionEvents: ['onCommand:agentsync.addHandoffNote'],
      },
      {
        id: 'claim',
        title: 'Claim from the Handoffs view',
        description:
          "Work waiting for you is under **Assigned to me**. Its Claim button (or the dashboard's card) takes it; the " +
          'first claimer wins.\n[Open the Handoffs View](command:agentsync.handoffs.focus)\n[Claim ' +
          'Handoff](command:agentsync.claimHandoff)',
        media: {
          markdown: 'media/walkthrough/claim.md',
        },
        completionEvents: ['onCommand:agentsync.claimHandoff', 'onView:agentsync.handoffs'],
      },
      {
        id: 'endSession',
        title: 'End the session',
        description:
          'End Session reads the changed files from git and asks for a handoff when they need one. Zero-touch mode asks ' +
          'nothing and copies a pick-up prompt for the next agent.\n[End ' +
          'Session](command:agentsync.endSession)\n[Zero-touch ' +
          'Settings](command:workbench.action.openSettings?%5B%22agentsync.automation%22%5D)',
        media: {
          markdown: 'media/walkthrough/end-session.md',
        },
        completionEvents: ['onCommand:agentsync.endSession'],
      },
    ],
  },
];
