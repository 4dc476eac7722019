// Generated handoff records, shaped like those agents write, for the stores that the benches and the editor suite's
// scale figures write straight to disk (bench/*.mjs, seedScaleStore.mjs). One shape for all, so that the figures of
// one bench can be set beside another's.

/**
 * Handoff `i` of a generated series, dated `at`. `fields` gives what the series decides (at least `handoff_id` and
 * `uid`) and overrides the rest; keys it adds (a claim, a parent) come last. Unless given, the history is "created"
 * and, for a status past queued, one entry by the receiver reaching it; `rev` counts the history.
 */
export function generatedHandoff(i, at, fields) {
  const from = fields.from_agent ?? 'codex';
  const to = fields.to_agents ?? ['claude'];
  const status = fields.status ?? 'queued';
  const history = [{ status: 'queued', agent: from, timestamp: at, reason: 'created', request_id: `gen-${i}` }];
  if (status !== 'queued') history.push({ status, agent: to[0], timestamp: at, reason: 'generated', request_id: `gen-${i}-2` });
  const record = {
    handoff_id: fields.handoff_id,
    task_id: `task-${i}`,
    from_agent: from,
    to_agents: to,
    owner_mode: 'single',
    status,
    required_capabilities: [],
    summary: `Generated handoff ${i}: refactor the module and add tests for the edge cases found in review`,
    notes: 'Context: see the linked files. Keep the public API unchanged; run the unit tests before handing back.',
    no_handoff_reason: null,
    files: [`src/module${i % 50}/file${i}.ts`],
    branch: null,
    commit: null,
    prior_attempts: 0,
    created_at: at,
    updated_at: at,
    state_history: history,
    uid: fields.uid,
    rev: 0,
    ...fields,
  };
  if (fields.rev === undefined) record.rev = record.state_history.length;
  return record;
}
