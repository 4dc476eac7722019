// A read-only receiver with the real Claude Code CLI (docs/contract.md §6, "What a receiver may do", "A receiver that
// died"): alice passes an audit to claude with can_modify_files: false; Claude Code claims it from its shell (so the
// claim records its session), reads the file (the Read passes), tries an Edit, and its pre-tool hook refuses it with
// E013 PERMISSION_DENIED, which reaches the model as the Edit's result; the file is unchanged. Its session then ends
// (`claude -p` ends after the prompt) without a report, and its SessionEnd hook hands the pass back to alice with E011.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { agentEnv, agentsync, agentWorkspace, request, runAgent, startWatch } from './agentHarness';
import { startModelServer, type ModelServer } from './modelServer';
import { outputsWith } from './agentChecks';
import { runOf } from './vendorRuns';

const ORIGINAL = 'export const shared = 1;\n';
const CLAIM_MARK = 'agentsync-claim-answer:';

/** A workspace (git, `agentsync init --hooks`) where alice passed a read-only audit to claude; its home and PATH. */
function readOnlyScene(agent: 'claude' | 'codex'): { ws: string; home: string; pathVar: string; id: string } {
  const { ws, home, pathVar } = agentWorkspace('readonly', { alice: ['code_patch'], [agent]: ['pr_review'] });
  fs.mkdirSync(path.join(ws, 'src'));
  fs.writeFileSync(path.join(ws, 'src/shared.ts'), ORIGINAL);
  const passed = request(ws, {
    action: 'passOver',
    agent: 'alice',
    to: agent,
    reason: 'audit',
    summary: 'Audit src/shared.ts',
    override: { can_modify_files: false },
  });
  assert.equal(passed.ok, true, JSON.stringify(passed));
  spawnSync('git', ['add', '-A'], { cwd: ws });
  spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'init'], { cwd: ws });
  return { ws, home, pathVar, id: (passed.data.handoff as { handoff_id: string }).handoff_id };
}

/** The text of every tool result the agent sent the model (Anthropic Messages), by the tool call's name. */
function toolResults(server: ModelServer): { tool: string; text: string }[] {
  const names = new Map<string, string>();
  const out = new Map<string, { tool: string; text: string }>();
  for (const r of server.requests) {
    let body: { messages?: { content: unknown }[] };
    try {
      body = JSON.parse(r.body) as typeof body;
    } catch {
      continue;
    }
    for (const m of body.messages ?? []) {
      if (!Array.isArray(m.content)) continue;
      for (const c of m.content as { type: string; id?: string; name?: string; tool_use_id?: string; content?: unknown }[]) {
        if (c.type === 'tool_use' && c.id && c.name) names.set(c.id, c.name);
        if (c.type === 'tool_result' && c.tool_use_id)
          out.set(c.tool_use_id, { tool: names.get(c.tool_use_id) ?? '?', text: JSON.stringify(c.content ?? '') });
      }
    }
  }
  return [...out.values()];
}

interface Shown {
  status: string;
  uid: string;
  claimed_session?: { id: string | null } | null;
  state_history: { reason: string | null }[];
}

function show(ws: string, id: string): Shown {
  return (JSON.parse(agentsync(ws, ['show', id, '--json']).stdout) as { data: { handoff: Shown } }).data.handoff;
}

/** The session's end hook ran when the CLI ended: the pass its session held went back to alice (E011). */
async function checkHandedBack(s: { ws: string; id: string }, agent: string, why: string): Promise<void> {
  let h = show(s.ws, s.id);
  for (const end = Date.now() + 30_000; h.status !== 'escalated' && Date.now() < end; h = show(s.ws, s.id))
    await new Promise((r) => setTimeout(r, 250));
  assert.equal(h.status, 'escalated', `the pass went back after the session ended: ${JSON.stringify(h)} (${why})`);
  assert.match(
    h.state_history[h.state_history.length - 1].reason ?? '',
    new RegExp(`^E011 SUBAGENT_CRASHED: the session .* of ${agent} ended`),
  );
  assert.ok(h.claimed_session?.id, 'the claim recorded the session its end hook named');
  const list = JSON.parse(agentsync(s.ws, ['list', '--json']).stdout) as {
    data: { handoffs: { to_agents: string[]; parent_uid?: string; status: string; summary: string }[] };
  };
  const back = list.data.handoffs.find((x) => x.parent_uid === h.uid);
  assert.ok(back && back.to_agents[0] === 'alice' && back.status === 'queued', JSON.stringify(list.data.handoffs));
  assert.match(back.summary, /^Session ended \(E011 SUBAGENT_CRASHED\)/);
}

describe('a read-only receiver (real Claude Code and Codex CLIs)', function () {
  this.timeout(300_000);

  it('its Edit is denied by the pre-tool hook with E013 while its Read passes; its SessionEnd hands the pass back with E011', async () => {
    const s = readOnlyScene('claude');
    const file = path.join(s.ws, 'src/shared.ts');
    const server = await startModelServer([
      { tool: 'Bash', args: { command: `echo ${CLAIM_MARK}; agentsync claim ${s.id} --agent claude --json`, description: 'claim' } },
      { tool: 'Read', args: { file_path: file } },
      { tool: 'Edit', args: { file_path: file, old_string: 'shared = 1', new_string: 'shared = 2' } },
      { text: 'The audit found nothing to change.' },
    ]);
    const claude = runOf('claude');
    const launch = claude.launch({ home: s.home, serverUrl: server.url, folders: [s.ws], prompt: `Audit ${s.id}` });
    // The Edit is pre-approved too: what refuses it must be AgentSync's hook, not Claude Code's own permission prompt.
    const args = [...launch.args, 'Edit'];
    let run;
    try {
      run = await runAgent(launch.bin, args, { cwd: s.ws, env: agentEnv(s, launch.env) });
    } finally {
      await server.close();
    }
    const results = toolResults(server);
    const why = `exit ${run.code}\nstderr: ${run.stderr.slice(-2000)}\nstdout: ${run.stdout.slice(-3000)}\nresults: ${JSON.stringify(results).slice(0, 3000)}`;
    assert.equal(run.code, 0, why);
    const claimed = results.find((r) => r.tool === 'Bash' && r.text.includes(CLAIM_MARK));
    assert.ok(claimed && /\\"ok\\":\s*true/.test(claimed.text), `the claim from Claude Code's shell succeeded (${why})`);
    const read = results.find((r) => r.tool === 'Read');
    assert.ok(read?.text.includes('export const shared = 1;'), `the Read passed: its result carries the file (${why})`);
    assert.ok(!/E013/.test(read?.text ?? ''), `the Read was not denied (${why})`);
    const edit = results.find((r) => r.tool === 'Edit');
    assert.ok(edit, `the Edit was attempted (${why})`);
    assert.match(edit.text, new RegExp(`E013 PERMISSION_DENIED: ${s.id} was passed to you with can_modify_files: false`), why);
    assert.equal(fs.readFileSync(file, 'utf8'), ORIGINAL, 'the file is unchanged');

    await checkHandedBack(s, 'claude', why);
  });

  it('Codex: its apply_patch is denied with E013 while `cat` passes; its SessionEnd hands the pass back with E011', async () => {
    const s = readOnlyScene('codex');
    const file = path.join(s.ws, 'src/shared.ts');
    const codex = runOf('codex');
    // Codex's sandbox keeps .git (the clone's home) read-only to its shell: it claims through the drop zone, which the
    // watcher answers as the only live session of codex there (the one its SessionStart hook started).
    const answer = path.join(s.ws, '.agentsync/responses/codex-claim.json');
    const claim = { action: 'claimHandoff', request_id: 'codex-claim', handoffId: s.id, agent: 'codex' };
    const server = await startModelServer([
      codex.write(s.ws, path.join(s.ws, '.agentsync/requests/codex-claim.json'), JSON.stringify(claim)),
      codex.shell('cat src/shared.ts'),
      // Two turns later the watcher has long answered; a read-only receiver may run `cat` (one simple command).
      codex.shell(`cat ${answer}`),
      ...codex.edit(s.ws, file, 'export const shared = 1;', 'export const shared = 2;'),
      { text: 'The audit found nothing to change.' },
    ]);
    const launch = codex.launch({ home: s.home, serverUrl: server.url, folders: [s.ws], prompt: `Audit ${s.id}` });
    const watch = await startWatch(s.ws);
    let run;
    try {
      run = await runAgent(launch.bin, launch.args, { cwd: s.ws, env: agentEnv(s, launch.env) });
    } finally {
      await watch.stop();
      await server.close();
    }
    const why = `exit ${run.code}\nstderr: ${run.stderr.slice(-2000)}\nstdout: ${run.stdout.slice(-3000)}\nwatch: ${watch.output().slice(-1500)}`;
    assert.equal(run.code, 0, why);
    assert.ok(
      outputsWith(server, '"request_file"').some((o) => /"ok":\s*true/.test(o)),
      `the claim through the drop zone succeeded, and Codex read its answer (${why})`,
    );
    const read = outputsWith(server, 'export const shared = 1;').filter((o) => !o.includes('*** Begin Patch'));
    assert.ok(read.length > 0 && !read.some((o) => o.includes('E013')), `\`cat\` passed: its output reached the model (${why})`);
    assert.ok(
      server.seen().includes(`E013 PERMISSION_DENIED: ${s.id} was passed to you with can_modify_files: false`),
      `the apply_patch was denied with E013 and the model was told (${why})`,
    );
    assert.equal(fs.readFileSync(file, 'utf8'), ORIGINAL, 'the file is unchanged');
    await checkHandedBack(s, 'codex', why);
  });
});
