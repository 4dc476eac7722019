// Where a receiver's ended session hands its passes back (docs/contract.md §6, "A receiver that died"): the vendor's
// session-end hook (`agentsync hook session-end`, src/cli/hookVerb.ts) runs this once, for its session. The rule is
// actions/crashedPasses.ts; like the timeout sweep (timeoutSweep.ts) it is a look first, then a write only when the
// session held a pass.
import { newUid } from '../domain/handoffIds';
import type { AgentSession } from '../domain/agentSession';
import { passesHeldBy, returnCrashedPasses } from './actions/crashedPasses';
import type { TimedOut } from './actions/timeOutPasses';
import type { HandoffStore } from '../store/handoffStore';
import type { Replayer } from '../store/sync/remoteAuthority';

/** Hands back what the ended session held; null when it held nothing. Failures are the caller's to report. */
export async function handBackEndedSession(
  store: HandoffStore,
  replayer: Replayer,
  agent: string,
  session: AgentSession,
  how: string,
): Promise<TimedOut | null> {
  if (passesHeldBy(store.read().handoffs, agent, session).length === 0) return null;
  return store.transact(
    (tx) => returnCrashedPasses(tx, { action: 'sessionEnd', agent, requestId: newUid(), surface: 'hook', session }, agent, session, how),
    { replayer },
  );
}
