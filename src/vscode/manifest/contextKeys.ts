// The context keys this extension sets (setContext), each listed once: package.json's `when` clauses may read only
// these `agentsync.*` keys (scripts/generate-schemas.ts refuses any other, so a typo cannot hide a menu forever).

/** True while a folder of the window is an AgentSync workspace: menus, the welcome view and the walkthrough use it. */
export const INITIALIZED_CONTEXT_KEY = 'agentsync.initialized';

/** Every key the extension sets. */
export const CONTEXT_KEYS: readonly string[] = [INITIALIZED_CONTEXT_KEY];
