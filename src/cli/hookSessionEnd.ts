// `agentsync hook session-end` (docs/contract.md §6, "A receiver that died"): the vendor's session-end hook
// (src/core/hooks/vendors/, `sessionEnd`) says the agent's session is over, so the passes it held without a report go
// back to their origins with E011 SUBAGENT_CRASHED now rather than when their leases lapse (E010). A turn's end (Claude
// Code's Stop, Gemini CLI's AfterAgent) is no session end and never runs this. It answers nothing the vendor reads.
import type { AgentSession } from '../core/domain/agentSession';
import type { HookArgs } from '../core/hooks/hookInput';
import { can, str, type HookInput } from '../core/hooks/vendors/vendor';
import { handBackEndedSession } from '../core/requests/sessionEndSweep';
import type { CliContext } from './cliContext';
import { oneLine } from './terminalText';

export async function sessionEnd(ctx: CliContext, args: HookArgs, input: HookInput, session: AgentSession): Promise<void> {
  ctx.io.out('{}');
  if (!session.id) {
    ctx.io.err(
      'agentsync hook session-end: the hook input names no session, so no pass is handed back here; a pass its session held ' +
        'goes back when its lease lapses (E010).',
    );
    return;
  }
  const event = can(args.vendor.sessionEnd) ? args.vendor.sessionEnd.yes : 'session-end';
  const reason = oneLine(str(input, 'reason')).slice(0, 60);
  const how = `${args.vendor.name}'s ${event} hook${reason ? `, reason ${reason}` : ''}`;
  await handBackEndedSession(ctx.dispatcher.store, ctx.dispatcher.replayer, args.agent, session, how);
}
