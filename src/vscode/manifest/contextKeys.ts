// The context keys this extension sets (setContext), each listed once: package.json's `when` clauses may read only
// these `agentsync.*` keys (scripts/generate-schemas.ts refuses any other, so a typo cannot hide a menu forever).

/** True while a folder of the window is an AgentSync workspace: menus, the welcome view and the walkthrough use it. */
export const INITIALIZED_CONTEXT_KEY = 'agentsync.initialized';

/**
 * Set (true) once the extension has read whether the window's folders are AgentSync workspaces. The "not an AgentSync
 * workspace yet" welcome needs it too, or an initialized folder is told so for the seconds VS Code takes to start the
 * extension (test/unit/vscode/manifest/viewsWelcome.test.ts).
 */
export const STORE_READ_CONTEXT_KEY = 'agentsync.storeRead';

/** Every key the extension sets. */
export const CONTEXT_KEYS: readonly string[] = [INITIALIZED_CONTEXT_KEY, STORE_READ_CONTEXT_KEY];
