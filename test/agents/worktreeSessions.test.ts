// Holders are sessions, across the worktrees of one clone (docs/contract.md §14 items 3, 4, 4a), with the real CLIs:
// two Claude Code sessions and one Codex session, each in its own linked `git worktree` of one initialized clone, run
// at the same time against their own scripted models, with `agentsync watch` in the main worktree. Each session
//  1. claims its own handoff with a request its write tool puts in its worktree's drop zone, answered in that worktree
//     as coming from that session (the only live one of its agent there);
//  2. prints its vendor's session variable (src/core/hooks/vendors), waits until every session got that far, then
//     claims the one shared handoff (exactly one wins; the others are told already_claimed, naming the holder) and
//     renews its own lease from its shell (held by its session: the variable must name the session its hooks named);
//  3. edits the file the next session's handoff lists, and its pre-tool hook's radar warning reaches its model, also
//     from one Claude session to the other.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { agentEnv, runAgent, startWatch, type AgentRun } from './agentHarness';
import { outputsWith } from './agentChecks';
import { startModelServer, type ModelServer, type Step } from './modelServer';
import { runOf } from './vendorRuns';
import { clone, show, type Clone, type Seat } from './worktreeScene';
import { VENDORS } from '../../src/core/hooks/vendors';
import { holderText } from '../../src/core/domain/agentSession';

const SESSION_MARK = 'agentsync-session-id:';
const DROP_MARK = 'agentsync-drop-zone-answer:';
const RACE_MARK = 'agentsync-race-answer:';
const BEAT_MARK = 'agentsync-heartbeat-answer:';

const dropId = (seat: Seat) => `${seat.name}-own`;
const answerFile = (dir: string, seat: Seat) => path.join(dir, '.agentsync/responses', `${dropId(seat)}.json`);
const line = (seat: Seat, value: number) => `export const part${seat.file.match(/\d+/)![0]} = ${value};`;

function script(c: Clone, seat: Seat, next: Seat): Step[] {
  const v = runOf(seat.agent);
  const variable = VENDORS[seat.agent].sessionEnv[0];
  const claim = { action: 'claimHandoff', request_id: dropId(seat), handoffId: seat.own, agent: seat.agent };
  const beat = JSON.stringify({ action: 'heartbeat', handoffId: seat.own, agent: seat.agent });
  const answer = answerFile(seat.dir, seat);
  const met = `until [ $(ls "$0" | wc -l) -ge ${c.seats.length} ]; do sleep 0.05; done`;
  return [
    v.write(seat.dir, path.join(seat.dir, '.agentsync/requests', `${dropId(seat)}.json`), JSON.stringify(claim) + '\n'),
    v.shell(
      `echo ${SESSION_MARK}"$${variable}"; timeout 60 sh -c 'until [ -f "$0" ]; do sleep 0.1; done' ${answer}; echo ${DROP_MARK}; cat ${answer}`,
    ),
    // The race mark is printed only when every session arrived: the claims below run at the same time.
    v.shell(
      `cd ${seat.dir} && touch ${c.barrier}/${seat.name} && timeout 150 sh -c '${met}' ${c.barrier} && echo ${RACE_MARK} && ` +
        `agentsync claim ${c.race} --agent ${seat.agent} --json; echo; echo ${BEAT_MARK}; echo '${beat}' | agentsync request -`,
    ),
    ...v.edit(seat.dir, path.join(seat.dir, next.file), line(next, 1), line(next, 2)),
    { text: 'Done.' },
  ];
}

/** The one output of the shell command printing `mark`, from what reached this session's model. */
function outputOf(server: ModelServer, mark: string, why: string): string {
  const outputs = outputsWith(server, mark);
  assert.ok(outputs.length > 0, `${mark} reached the model (${why})`);
  return outputs[0].slice(outputs[0].indexOf(mark) + mark.length);
}

describe('two Claude Code sessions and Codex at once, each in its own worktree of one clone (real CLIs)', function () {
  this.timeout(480_000);

  it('one wins the shared claim, the rest are told already_claimed with the holder; the radar warns across sessions; drop zones answer in place', async () => {
    const c = clone([
      { name: 'claude-a', agent: 'claude' },
      { name: 'claude-b', agent: 'claude' },
      { name: 'codex-c', agent: 'codex' },
    ]);
    const next = (i: number) => c.seats[(i + 1) % c.seats.length];
    const servers = await Promise.all(c.seats.map((seat, i) => startModelServer(script(c, seat, next(i)))));
    const watch = await startWatch(c.ws);
    const runs: (AgentRun & { start: number; end: number })[] = [];
    try {
      await Promise.all(
        c.seats.map(async (seat, i) => {
          const launch = runOf(seat.agent).launch({
            home: seat.home,
            serverUrl: servers[i].url,
            folders: [seat.dir, c.ws],
            prompt: `Work on ${seat.own}`,
          });
          const start = Date.now();
          const env = agentEnv({ pathVar: c.pathVar, home: seat.home }, launch.env);
          const run = await runAgent(launch.bin, launch.args, { cwd: seat.dir, env, timeoutMs: 400_000 });
          runs[i] = { ...run, start, end: Date.now() };
        }),
      );
    } finally {
      await watch.stop();
      await Promise.all(servers.map((s) => s.close()));
    }
    const why = (i: number) =>
      `${c.seats[i].name}: exit ${runs[i].code}\nstderr: ${runs[i].stderr.slice(-2000)}\nstdout: ${runs[i].stdout.slice(-2000)}\n` +
      `requests: ${servers[i].requests.map((r) => r.path).join(', ')}\nwatcher: ${watch.output().slice(-1500)}`;
    c.seats.forEach((_, i) => assert.equal(runs[i].code, 0, `the agent ended well (${why(i)})`));
    assert.ok(Math.max(...runs.map((r) => r.start)) < Math.min(...runs.map((r) => r.end)), 'the sessions ran at the same time');

    // Each shell carries its vendor's session variable, and the sessions are told apart (two of them are Claude Code's).
    const ids = c.seats.map((seat, i) => outputOf(servers[i], SESSION_MARK, why(i)).trim().split(/\s/)[0]);
    c.seats.forEach((seat, i) =>
      assert.match(ids[i], /^[\w-]{8,}$/, `${VENDORS[seat.agent].sessionEnv[0]} is set in ${seat.name}'s shell (${why(i)})`),
    );
    assert.equal(new Set(ids).size, ids.length, `one session id per session: ${ids.join(', ')}`);

    // 1. Each drop zone was answered in its own worktree, as the session running there (its hooks' session id).
    c.seats.forEach((seat, i) => {
      const answer = answerFile(seat.dir, seat);
      assert.ok(fs.existsSync(answer), `the watcher answered in ${seat.dir} (${why(i)})`);
      for (const dir of [c.ws, ...c.seats.filter((o) => o !== seat).map((o) => o.dir)])
        assert.equal(fs.existsSync(answerFile(dir, seat)), false, `${seat.name}'s request was not answered in ${dir}`);
      const body = JSON.parse(fs.readFileSync(answer, 'utf8')) as { ok: boolean; message?: string };
      assert.equal(body.ok, true, `the drop zone claim of ${seat.own} is ok: ${body.message} (${why(i)})`);
      const out = outputOf(servers[i], DROP_MARK, why(i));
      assert.ok(out.includes(dropId(seat)) && /"ok":\s*true/.test(out), `the answer reached the model: ${out.slice(0, 1500)}`);
      const own = show(c.ws, seat.own);
      assert.equal(own.status, 'in_progress');
      assert.equal(own.claimed_by, seat.agent);
      assert.deepEqual(
        own.claimed_session,
        { id: ids[i], worktree: seat.name, branch: seat.name },
        `${seat.own} is held by ${seat.name}'s session`,
      );
    });

    // 2. Exactly one session won the shared handoff; every other was told already_claimed with the holder.
    const race = show(c.ws, c.race);
    assert.equal(race.status, 'in_progress');
    const winner = c.seats.findIndex((seat, i) => race.claimed_session?.id === ids[i] && race.claimed_session?.worktree === seat.name);
    assert.ok(winner >= 0, `the shared handoff is held by one of the sessions: ${JSON.stringify(race)}`);
    assert.equal(race.claimed_by, c.seats[winner].agent);
    const holder = holderText(race);
    c.seats.forEach((seat, i) => {
      const out = outputOf(servers[i], RACE_MARK, why(i));
      const answer = out.slice(0, out.indexOf(BEAT_MARK));
      if (i === winner) assert.match(answer, /"ok":\s*true/, `${seat.name} won the claim: ${answer}`);
      else {
        assert.match(answer, /"reason":\s*"already_claimed"/, `${seat.name} was refused already_claimed: ${answer}`);
        assert.ok(answer.includes(`already claimed by ${holder}`), `${seat.name}'s refusal names the holder ${holder}: ${answer}`);
        assert.ok(answer.includes(`session ${ids[winner]}`) && answer.includes(`worktree ${c.seats[winner].name}`), answer);
      }
      // The shell's session variable names the session that holds its own handoff: its heartbeat is the holder's.
      const beat = out.slice(out.indexOf(BEAT_MARK) + BEAT_MARK.length);
      assert.match(beat, /"ok":\s*true/, `${seat.name} renewed its own lease from its shell: ${beat.slice(0, 1500)}`);
    });

    // 3. The radar warned each session before it wrote the file another session's claim lists.
    c.seats.forEach((seat, i) => {
      const held = show(c.ws, next(i).own);
      const seen = servers[i].seen();
      assert.ok(seen.includes('AgentSync conflict radar'), `${seat.name} got the radar warning (${why(i)})`);
      const named = `claimed by ${holderText(held)} in ${held.handoff_id}`;
      assert.ok(seen.includes(named), `${seat.name}'s warning says ${named} (${why(i)})`);
    });
  });
});
