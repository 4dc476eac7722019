// A hook's time with the network (docs/agentsync-documentation.md, "Hook packs"): its agent kills it at the pack's
// time limit (HOOK_TIMEOUT_S), and a git killed with it would live on, reparented (a push in its own session). So the
// hook gives its fetches and pushes the pack's limit minus a margin, counted from the process's start: what is not
// done by then stays for the next hook or `agentsync sync` (no background process), and the hook ends every git
// child it started, as a process group, before it exits or when it is told to stop.
import { HOOK_TIMEOUT_S, type HookEvent } from './vendors/vendor';

/** What the hook keeps for itself after its network step: writing its answer, exiting. */
export const HOOK_MARGIN_MS = 2_000;

/** When the network step of a hook for `event` must be over (Date.now() time), from the process's start. */
export function hookNetworkDeadline(event: HookEvent, startedAtMs: number): number {
  return startedAtMs + HOOK_TIMEOUT_S[event] * 1000 - HOOK_MARGIN_MS;
}
