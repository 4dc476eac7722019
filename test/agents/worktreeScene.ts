// One initialized clone and a linked `git worktree` per agent session (docs/contract.md §14): the seats the
// worktree-sessions test (worktreeSessions.test.ts) runs real agents in at the same time. Each seat holds nothing yet;
// it is given one handoff of its own (listing one file) to claim through its worktree's drop zone, and all seats are
// routed one shared handoff to race for.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { agentsync, CLI, request } from './agentHarness';
import type { VendorId } from '../../src/core/hooks/vendors';

export interface Seat {
  /** The seat's name: its worktree's folder and git's name for it, and its branch. */
  name: string;
  agent: VendorId;
  /** The linked worktree the agent runs in. */
  dir: string;
  /** The agent's private HOME. */
  home: string;
  /** Its own handoff, claimed through the drop zone of its worktree, listing `file`. */
  own: string;
  file: string;
}

export interface Clone {
  root: string;
  /** The main worktree (where `agentsync watch` runs). */
  ws: string;
  pathVar: string;
  seats: Seat[];
  /** The handoff every seat claims at once; exactly one may win. */
  race: string;
  /** A folder outside every worktree where the seats meet before racing (one file per seat that arrived). */
  barrier: string;
}

function git(cwd: string, ...args: string[]): string {
  const r = spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

/** A clone on branch main, initialized with hooks and committed, and one linked worktree per seat on its own branch. */
export function clone(seats: readonly { name: string; agent: VendorId }[]): Clone {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'agentsync-agent-worktrees-')));
  const ws = path.join(root, 'ws');
  const bin = path.join(root, 'bin');
  const barrier = path.join(root, 'barrier');
  for (const d of [ws, bin, barrier]) fs.mkdirSync(d, { recursive: true });
  git(ws, 'init', '-q', '-b', 'main');
  fs.writeFileSync(path.join(bin, 'agentsync'), `#!/bin/sh\nexec "${process.execPath}" "${CLI}" "$@"\n`, { mode: 0o755 });
  const pathVar = [bin, path.dirname(process.execPath), '/usr/local/bin', '/usr/bin', '/bin'].join(':');
  const init = agentsync(ws, ['init', '--hooks']);
  if (init.code !== 0) throw new Error(`init --hooks failed: ${init.stdout}${init.stderr}`);
  const agents = [...new Set(seats.map((s) => s.agent))];
  const cfgFile = path.join(ws, '.agentsync.json');
  const cfg = JSON.parse(fs.readFileSync(cfgFile, 'utf8')) as { agentCapabilities: Record<string, string[]> };
  for (const a of agents) cfg.agentCapabilities[a] ??= ['code_patch'];
  fs.writeFileSync(cfgFile, JSON.stringify({ ...cfg, requireHandoffOnEndSession: false }, null, 2) + '\n');
  fs.mkdirSync(path.join(ws, 'src'));
  seats.forEach((_, i) => fs.writeFileSync(path.join(ws, `src/part${i}.ts`), `export const part${i} = 1;\n`));
  git(ws, 'add', '-A');
  git(ws, 'commit', '-qm', 'init');
  const create = (to: string[], summary: string, files: string[]) => {
    const r = request(ws, {
      action: 'createHandoff',
      handoff: { from_agent: 'human', to_agents: to, owner_mode: to.length === 1 ? 'single' : 'shared', summary, files },
    });
    if (!r.ok) throw new Error(`createHandoff: ${JSON.stringify(r)}`);
    return (r.data.handoff as { handoff_id: string }).handoff_id;
  };
  const race = create(agents, 'The one task every session wants', ['docs/race.md']);
  const placed = seats.map((s, i) => {
    const dir = path.join(root, s.name);
    git(ws, 'worktree', 'add', '-q', '-b', s.name, dir);
    const home = path.join(root, `home-${s.name}`);
    fs.mkdirSync(home);
    // A login shell (Codex runs its shell through bash -lc) rebuilds PATH from /etc/profile, then reads ~/.profile.
    fs.writeFileSync(path.join(home, '.profile'), `export PATH="${pathVar}:$PATH"\n`);
    const file = `src/part${i}.ts`;
    return { ...s, dir, home, file, own: create([s.agent], `Part ${i}, for ${s.name}`, [file]) };
  });
  return { root, ws, pathVar, seats: placed, race, barrier };
}

export interface ClaimSession {
  id: string | null;
  worktree: string;
  branch: string | null;
}

export interface ShownHandoff {
  handoff_id: string;
  status: string;
  claimed_by?: string | null;
  claimed_session?: ClaimSession;
}

/** The record of one handoff as `agentsync show --json` gives it (the clone's live record, from the main worktree). */
export function show(ws: string, id: string): ShownHandoff {
  const r = agentsync(ws, ['show', id, '--json']);
  const out = JSON.parse(r.stdout) as { ok: boolean; data: { handoff: ShownHandoff } };
  if (!out.ok) throw new Error(`agentsync show ${id}: ${r.stdout}${r.stderr}`);
  return out.data.handoff;
}
