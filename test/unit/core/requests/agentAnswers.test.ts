// Answers sized for an agent (src/core/requests/agentAnswers.ts), as the editor's language-model tools and the MCP
// server send them: listHandoffs a page of compact records unless full, and no answer over 64 KB.
import * as assert from 'node:assert/strict';
import { AGENT_ANSWER_MAX_BYTES, agentListParams, agentSized } from '../../../../src/core/requests/agentAnswers';
import type { ResponseEnvelope } from '../../../../src/core/domain/responseEnvelope';
import { makeHandoff } from '../../helpers/handoffFixtures';
import { removeTempDirs, TestWorkspace } from '../../helpers/testWorkspace';

const bytes = (r: ResponseEnvelope) => Buffer.byteLength(JSON.stringify(r));

describe('answers sized for an agent', () => {
  afterEach(removeTempDirs);

  it('listHandoffs through the tools: 50 compact records by default, with total and next_cursor; full: true gives the stored records', async () => {
    const ws = new TestWorkspace();
    for (let i = 0; i < 60; i++)
      await ws.dispatcher.dispatch({
        action: 'createHandoff',
        handoff: {
          from_agent: 'codex',
          to_agents: ['claude'],
          owner_mode: 'single',
          summary: `Task ${i} ${'x'.repeat(400)}`,
          files: ['a.ts'],
        },
      });
    const compact = agentListParams({ open: true });
    assert.deepEqual(compact, { params: { open: true, limit: 50 }, full: false });
    const answer = agentSized(await ws.dispatcher.dispatch({ action: 'listHandoffs', ...compact.params }), {
      full: compact.full,
      now: new Date(),
    });
    const data = answer.data as { count: number; total: number; next_cursor?: string; handoffs: Record<string, unknown>[] };
    assert.equal(data.count, 50);
    assert.equal(data.total, 60);
    assert.ok(data.next_cursor);
    assert.deepEqual(Object.keys(data.handoffs[0]).sort(), ['age', 'claimed_by', 'handoff_id', 'owners', 'status', 'summary']);
    assert.equal((data.handoffs[0].summary as string).length, 200);
    const full = agentListParams({ full: true, handoffId: 'HO-20260221-001' });
    assert.deepEqual(full, { params: { handoffId: 'HO-20260221-001' }, full: true });
  });

  it('a page over 64 KB is cut to fit and its cursor goes on from the last record kept', () => {
    const list = Array.from({ length: 200 }, (_, i) =>
      makeHandoff({ handoff_id: `HO-20260221-${String(i + 1).padStart(3, '0')}`, notes: 'n'.repeat(2000) }),
    );
    const response: ResponseEnvelope = {
      ok: true,
      action: 'listHandoffs',
      timestamp: 't',
      data: { count: 200, total: 500, handoffs: list, next_cursor: list[199].uid },
    };
    const sized = agentSized(response, { full: true, now: new Date() });
    const data = sized.data as { count: number; handoffs: { uid: string }[]; next_cursor: string; cut_to_fit: string };
    assert.ok(bytes(sized) <= AGENT_ANSWER_MAX_BYTES, `${bytes(sized)}`);
    assert.ok(data.count > 10 && data.count < 200, `${data.count}`);
    assert.equal(data.next_cursor, data.handoffs[data.count - 1].uid);
    assert.match(data.cut_to_fit, /Call again with the cursor/);
  });

  it('any other answer over 64 KB keeps its envelope and says how to read the whole', () => {
    const h = makeHandoff({ handoff_id: 'HO-20260221-007' });
    const response: ResponseEnvelope = {
      ok: true,
      action: 'claimHandoff',
      request_id: 'r1',
      timestamp: 't',
      data: { handoff: h, blob: 'b'.repeat(70_000) },
    };
    const sized = agentSized(response, { full: true, now: new Date() });
    assert.ok(bytes(sized) <= AGENT_ANSWER_MAX_BYTES);
    assert.equal(sized.ok, true);
    assert.equal(sized.request_id, 'r1');
    const data = sized.data as { handoff_id: string; truncated: boolean; how_to_get_the_rest: string };
    assert.equal(data.handoff_id, 'HO-20260221-007');
    assert.equal(data.truncated, true);
    assert.match(data.how_to_get_the_rest, /agentsync show HO-20260221-007/);
  });
});
