// The only way a request runs the configured commands (docs/contract.md §7, §8; docs/agentsync-documentation.md, "Health
// checks" and "Trusting a workspace's commands"): never without the local user's consent (commandConsent), never
// more than one run at a time per workspace (checkRunQueue), and `health` never deploys.
import { consentState, untrustedCommandsError } from '../../workspace/commandConsent';
import { stableStringify } from '../../domain/stableJson';
import type { ActionError } from '../../domain/errors';
import { ensureSafeDirectory } from '../../disk/safeDirectory';
import { runOneAtATime } from './checkRunQueue';
import { runHealthChecks, type HealthKey, type HealthOptions, type HealthReport } from './healthChecks';
import type { SessionEnv } from './sessionEnv';

/** `health` is read-only (its MCP description says so): it builds and tests; only endSession runs commands.deploy. */
export const HEALTH_ACTION_CHECKS: readonly HealthKey[] = ['build', 'test'];
export const HEALTH_DOES_NOT_DEPLOY = 'Skipped: the health action never deploys; commands.deploy runs only at endSession';

function runQueued(env: SessionEnv, options: HealthOptions): Promise<HealthReport> {
  const { commands } = env.config;
  // Callers that can cancel or show progress get a run of their own; everyone else may share a waiting one.
  const coalesce = !options.signal && !options.onProgress;
  const key = stableStringify({ commands, checks: options.checks ?? null, omitted: options.omittedReason ?? null });
  try {
    // The queue's lock lives with the runtime files, in the clone's home in git (docs/contract.md §14): made here first.
    ensureSafeDirectory(env.layout.recordBase, env.layout.recordDir);
  } catch (e) {
    return Promise.reject(e);
  }
  return runOneAtATime(env.layout.recordDir, key, coalesce, () => runHealthChecks(env.layout.root, commands, options));
}

/** The `health` action: refused with `commands_untrusted` until `agentsync trust`; build and test only. */
export async function runHealthAction(env: SessionEnv): Promise<HealthReport> {
  const options: HealthOptions = { ...env.healthOptions, checks: HEALTH_ACTION_CHECKS, omittedReason: HEALTH_DOES_NOT_DEPLOY };
  // The editor's Restricted Mode: nothing runs, every configured check is Skipped.
  if (options.skipReason !== undefined) return runHealthChecks(env.layout.root, env.config.commands, options);
  const consent = consentState(env.layout.root, env.config.commands);
  if (!consent.trusted) throw untrustedCommandsError(consent);
  return runQueued(env, options);
}

export interface SessionEndChecks {
  health: HealthReport;
  /** Set when the commands were not run because the local user has not approved them. */
  untrusted: ActionError | null;
}

/**
 * endSession's checks. An untrusted workspace still ends the session (what the agent wrote is kept), with every
 * configured check `Skipped` and the reason; `refusedBecause` (the end will be refused) also runs nothing.
 */
export async function runSessionEndChecks(env: SessionEnv, refusedBecause: string | null): Promise<SessionEndChecks> {
  const base = env.healthOptions ?? {};
  if (refusedBecause !== null) {
    return {
      health: await runHealthChecks(env.layout.root, env.config.commands, {
        ...base,
        skipReason: `not run: the end of the session was refused (${refusedBecause})`,
      }),
      untrusted: null,
    };
  }
  if (base.skipReason !== undefined) return { health: await runHealthChecks(env.layout.root, env.config.commands, base), untrusted: null };
  const consent = consentState(env.layout.root, env.config.commands);
  if (!consent.trusted) {
    const untrusted = untrustedCommandsError(consent);
    const skipReason = 'Skipped: commands_untrusted (not approved on this machine; run `agentsync trust` to allow them)';
    return { health: await runHealthChecks(env.layout.root, env.config.commands, { ...base, skipReason }), untrusted };
  }
  return { health: await runQueued(env, base), untrusted: null };
}
