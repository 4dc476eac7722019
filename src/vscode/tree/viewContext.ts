// What the Handoffs view says above its rows (the context keys the welcome reads are in vscode/manifest/contextKeys.ts).

/**
 * The line at the top of the Handoffs view of an initialized workspace: what AgentSync is and what to try first. Two
 * lines at the side bar's default width at most: every line it takes is a handoff row fewer on screen.
 */
export const INTRO_MESSAGE = 'AgentSync: handoffs between agents and you. Try: right-click one → Claim.';
