// What the Handoffs view says before and around its rows (package.json contributes.viewsWelcome reads these keys).
// No context key is set before the extension's first store read; a welcome whose `when` were `!agentsync.initialized`
// alone would tell an initialized folder "not an AgentSync workspace yet … Initialize" for the seconds VS Code takes
// to start the extension. So that welcome also needs STORE_READ, set only once the first read is done
// (test/unit/viewsWelcome.test.ts checks package.json).

/** True while a folder of the window is an AgentSync workspace: menus and the walkthrough's Initialize step use it. */
export const INITIALIZED_CONTEXT_KEY = 'agentsync.initialized';
/** Set (true) once the extension has read whether the window's folders are AgentSync workspaces. */
export const STORE_READ_CONTEXT_KEY = 'agentsync.storeRead';

/**
 * The line at the top of the Handoffs view of an initialized workspace: what AgentSync is and what to try first. Two
 * lines at the side bar's default width at most: every line it takes is a handoff row fewer on screen.
 */
export const INTRO_MESSAGE = 'AgentSync: handoffs between agents and you. Try: right-click one → Claim.';
