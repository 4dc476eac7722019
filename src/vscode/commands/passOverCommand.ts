// Pass Over (docs/contract.md §6/§10): hand the work of an open handoff to another agent, with return to me.
// Prompts only; the loop rules and policies are the core's passOver action.
import { displayAgent } from '../../core/domain/agentId';
import type { RequestResponse } from '../../core/requests/requestDispatcher';
import { reportResponse } from './commandRunner';
import type { CommandDeps } from './commandDeps';
import { resolveHandoff } from './handoffTarget';
import { askText, pickOne, type Choice } from './prompts';

const REASONS = ['code_review', 'verify_implementation', 'fix_issues', 'research', 'write_tests'];
const OTHER = '\u0000other';

export async function passOverCommand(deps: CommandDeps, arg?: unknown): Promise<RequestResponse | undefined> {
  const t = await resolveHandoff(deps.services, arg, 'pass over', () => true, deps.me());
  if (!t) return undefined;
  const title = `Pass ${t.handoff.handoff_id} over`;
  const agents = Object.keys(t.service.store.config().config.agentCapabilities).filter((a) => a !== deps.me());
  const agentChoices: Choice<string>[] = [
    ...agents.map((a) => ({
      label: displayAgent(a),
      description: (t.service.store.config().config.agentCapabilities[a] ?? []).join(', '),
      value: a,
    })),
    { label: '$(edit) Another agent…', value: OTHER },
  ];
  let to = await pickOne(agentChoices, { title, placeHolder: 'Pass the work to which agent? It returns to you when done.' });
  if (to === OTHER)
    to = await askText({
      title,
      prompt: 'Agent id (lowercase letters, digits, "-" or "_")',
      requiredMessage: 'Name the agent.',
      maxLength: 64,
    });
  let reason = await pickOne<string>(
    [...REASONS.map((r) => ({ label: r, value: r })), { label: '$(edit) Another reason…', value: OTHER }],
    { title, placeHolder: 'Why?' },
  );
  if (reason === OTHER) reason = await askText({ title, prompt: 'Reason', requiredMessage: 'Give a reason.', maxLength: 2_000 });
  const summary = await askText({
    title,
    prompt: `What should ${displayAgent(to)} do?`,
    value: t.handoff.summary,
    requiredMessage: 'Say what to do.',
    maxLength: 2_000,
  });
  const response = await t.service.dispatch({
    action: 'passOver',
    agent: deps.me(),
    to,
    reason,
    summary,
    handoffId: t.handoff.handoff_id,
    files: t.handoff.files,
  });
  const created = response.data?.handoff;
  return reportResponse(
    response,
    `passed to ${displayAgent(to)} as ${created?.handoff_id ?? 'a new handoff'}; it returns to you when done.`,
    deps.log,
  );
}
