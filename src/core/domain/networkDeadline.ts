// When a process's network gits must be over (docs/agentsync-documentation.md, "Hook packs"): a hook process puts its
// deadline in its environment, which both of its bundles (dist/hook.js, dist/cli.js) read; no variable, no bound.

/** The environment variable that holds the deadline (Date.now() milliseconds). */
export const NETWORK_DEADLINE_ENV = 'AGENTSYNC_HOOK_DEADLINE_MS';

/** The deadline `env` sets, or null. */
export function networkDeadline(env: NodeJS.ProcessEnv): number | null {
  const at = Number(env[NETWORK_DEADLINE_ENV]);
  return Number.isFinite(at) && at > 0 ? at : null;
}
