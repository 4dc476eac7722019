// Sync mode across hosts (docs/contract.md §13): clones on separate network namespaces against a real git daemon.
// One winner per handoff when 64 agents on 8 hosts claim at once; 1,000 creates from 8 hosts at once get unique ids
// that name the same handoffs on every host afterwards.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { jsonLines, tempWorkspace } from '../processHarness';
import { releaseTogether, SyncTeam, type Answer } from './syncTeam';

const HOSTS = 8;
const RACERS = 8;
const HANDOFFS = 5;

describe('sync mode on the test network: races between hosts', function () {
  this.timeout(300_000);
  let team: SyncTeam | undefined;

  afterEach(() => {
    team?.destroy();
    team = undefined;
  });

  it('8 hosts × 8 racers claim the same 5 handoffs: one winner each, every loser already_claimed naming it, one state on every host after sync', async () => {
    const agent = (c: number, r: number) => `h${c}-r${r}`;
    const agents = Array.from({ length: HOSTS }, (_, c) => Array.from({ length: RACERS }, (_, r) => agent(c, r))).flat();
    team = await SyncTeam.create({ clones: HOSTS, humans: agents });
    const ids: string[] = [];
    for (let k = 0; k < HANDOFFS; k++) {
      const created = await team.ok(0, ['create', '--from', 'codex', '--to', 'claude', '--summary', `race ${k}`]);
      assert.equal(created.data?.sync?.confirmed, true, `a create in sync mode is confirmed by the remote: ${JSON.stringify(created)}`);
      ids.push(created.data.handoff!.handoff_id);
    }
    // The other hosts have not synced: each claim fetches the shared state first.
    const startFile = path.join(tempWorkspace('race-start'), 'go');
    const racers = Array.from({ length: HOSTS }, (_, c) =>
      Array.from({ length: RACERS }, (_, r) => ({ c, r, id: ids[(c + r) % HANDOFFS] })),
    ).flat();
    const children = racers.map(({ c, r, id }) => team!.barrierChild(c, startFile, 1, ['claim', id, '--agent', agent(c, r)]));
    await releaseTogether(children, startFile);
    fs.rmSync(path.dirname(startFile), { recursive: true, force: true });

    const answers = children.map((child, n) => {
      const out = jsonLines(child.lines);
      assert.equal(
        out.length,
        1,
        `racer ${agent(racers[n].c, racers[n].r)} prints one answer; stdout ${child.lines.join('|')} stderr ${child.stderr}`,
      );
      return { ...racers[n], answer: out[0] as Answer, code: child.proc.exitCode };
    });
    const winners = new Map<string, string>();
    for (const id of ids) {
      const mine = answers.filter((a) => a.id === id);
      const won = mine.filter((a) => a.answer.ok === true);
      assert.equal(
        won.length,
        1,
        `${id}: exactly one of ${mine.length} racers from ${new Set(mine.map((m) => m.c)).size} hosts wins, got ${won.length} ` +
          `(answers: ${mine.map((m) => m.answer.reason ?? 'ok').join(', ')}; ` +
          `first refusal: ${JSON.stringify(mine.find((m) => !m.answer.ok)?.answer ?? null).slice(0, 800)})`,
      );
      const w = won[0];
      const winner = agent(w.c, w.r);
      winners.set(id, winner);
      assert.equal(w.code, 0);
      assert.equal(w.answer.data?.sync?.confirmed, true, JSON.stringify(w.answer));
      assert.match(String(w.answer.data?.sync?.commit), /^[0-9a-f]{40}$/);
      for (const l of mine.filter((a) => a !== w)) {
        assert.equal(l.answer.reason, 'already_claimed', `loser ${agent(l.c, l.r)} on host ${l.c}: ${JSON.stringify(l.answer)}`);
        assert.equal(l.answer.claimedBy, winner, `loser ${agent(l.c, l.r)} is told the winner`);
        assert.equal(l.code, 1);
      }
    }

    const final = await team.syncAllAndCompare();
    for (const id of ids) {
      const h = final.find((x) => x.handoff_id === id)!;
      assert.equal(h.status, 'in_progress');
      assert.equal(h.claimed_by, winners.get(id));
      assert.equal(h.state_history.filter((e) => e.status === 'in_progress').length, 1, `${id} was claimed once`);
    }
    assert.equal(final.length, HANDOFFS);
  });

  it('1,000 creates from 8 hosts at once: every id unique, and the same ids name the same handoffs on every host', async () => {
    const PER_HOST = 125;
    const ROUNDS = 5; // each host drops 25 requests, answers them in one batch (agentsync watch --once), five times
    team = await SyncTeam.create({ clones: HOSTS });
    const summary = (c: number, n: number) => `host ${c} create ${n}`;
    const dropAndAnswer = async (c: number) => {
      const dir = path.join(team!.clones[c], '.agentsync');
      fs.mkdirSync(path.join(dir, 'requests'), { recursive: true });
      const perRound = PER_HOST / ROUNDS;
      for (let round = 0; round < ROUNDS; round++) {
        for (let k = 0; k < perRound; k++) {
          const n = round * perRound + k;
          const request = {
            action: 'createHandoff',
            request_id: `h${c}-c${n}`,
            handoff: { from_agent: 'claude', to_agents: ['codex'], owner_mode: 'single', summary: summary(c, n) },
          };
          fs.writeFileSync(path.join(dir, `.h${c}-c${n}.tmp`), JSON.stringify(request));
          fs.renameSync(path.join(dir, `.h${c}-c${n}.tmp`), path.join(dir, 'requests', `h${c}-c${n}.json`));
        }
        const watched = await team!.ok(c, ['watch', '--once']);
        const sample = () => fs.readFileSync(path.join(dir, 'responses', `h${c}-c${round * perRound}.json`), 'utf8');
        assert.equal(
          (watched.data as { answered?: number }).answered,
          perRound,
          `${JSON.stringify(watched)}; the first answer: ${sample()}`,
        );
      }
    };
    await Promise.all(Array.from({ length: HOSTS }, (_, c) => dropAndAnswer(c)));

    const answered = new Map<string, string>(); // handoff_id -> summary the creator was told
    for (let c = 0; c < HOSTS; c++) {
      for (let n = 0; n < PER_HOST; n++) {
        const file = path.join(team.clones[c], '.agentsync/responses', `h${c}-c${n}.json`);
        const a = JSON.parse(fs.readFileSync(file, 'utf8')) as Answer;
        assert.equal(a.ok, true, `h${c}-c${n}: ${JSON.stringify(a)}`);
        assert.equal(a.data?.sync?.confirmed, true, `h${c}-c${n} is confirmed by the remote`);
        const id = a.data.handoff!.handoff_id;
        assert.ok(!answered.has(id), `${id} was answered to two creates: ${answered.get(id)} and ${summary(c, n)}`);
        answered.set(id, summary(c, n));
      }
    }
    assert.equal(answered.size, HOSTS * PER_HOST);

    const final = await team.syncAllAndCompare();
    assert.equal(final.length, HOSTS * PER_HOST);
    assert.equal(new Set(final.map((h) => h.handoff_id)).size, final.length, 'every id unique in the shared state');
    for (const h of final) {
      assert.equal(h.summary, answered.get(h.handoff_id), `${h.handoff_id} names on every host the handoff its creator was told`);
    }
  });
});
