// The editor's move commands (src/vscode/commands/moveCommands.ts): a move without a handler of its own is the generic
// one, which sends the catalog's request for the handoff against the revision the user saw (expected_rev), as the CLI
// verbs and the dashboard do. Run with a stand-in for `vscode` (no prompt is asked by these moves).
import * as assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { MOVES } from '../../../../src/core/requests/catalog';
import { handoffIn } from '../../helpers/handoffFixtures';
import { installFakeVscode } from '../../helpers/fakeVscode';

type MoveCommands = typeof import('../../../../src/vscode/commands/moveCommands');

/** Runs a move's command on a handoff at rev 5 and answers the request it sent. */
async function sent(move: string, status: Parameters<typeof handoffIn>[0]): Promise<Record<string, unknown>> {
  const uninstall = installFakeVscode();
  try {
    const { moveCommandHandlers } = createRequire(__filename)('../../../../src/vscode/commands/moveCommands') as MoveCommands;
    const h = handoffIn(status, { rev: 5 });
    const requests: Record<string, unknown>[] = [];
    const service = {
      find: (id: string) => (id === h.handoff_id ? h : undefined),
      dispatch: (r: Record<string, unknown>) => {
        requests.push(r);
        return Promise.resolve({ ok: true, action: r.action, request_id: 'r1', data: { handoff: h } });
      },
    };
    const log = { info: () => undefined, warn: () => undefined, error: () => undefined, show: () => undefined };
    const deps = { services: { all: () => [service], get: () => service }, log, me: () => 'human' };
    const id = MOVES.find((m) => m.name === move)!.command!.id;
    const [, handler] = moveCommandHandlers(deps as never).find(([c]) => c === id)!;
    await handler(h.handoff_id);
    assert.equal(requests.length, 1, `${move} sent one request`);
    return requests[0];
  } finally {
    uninstall();
  }
}

describe('editor move commands (the generic move)', () => {
  it('Claim sends claimHandoff as the window agent with the revision shown (expected_rev), like every generic move', async () => {
    const r = await sent('claim', 'queued');
    assert.deepEqual(
      { action: r.action, agent: r.agent, expected_rev: r.expected_rev },
      { action: 'claimHandoff', agent: 'human', expected_rev: 5 },
    );
  });

  it("Approve sends the catalog's transition to approved with expected_rev", async () => {
    const r = await sent('approve', 'ready_for_review');
    assert.deepEqual(
      { action: r.action, to: r.to, expected_rev: r.expected_rev },
      { action: 'transitionHandoff', to: 'approved', expected_rev: 5 },
    );
  });
});
