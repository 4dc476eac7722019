// Seeds a folder with a store of `count` OPEN handoffs for the tree's scale figures (test/integration/treeScale.test.ts):
// for agent "claude", most are assigned, some shared, some someone else's; every 20th is passed on from the one before.
// Written directly and with no validated-store stamp, like a teammate's `git pull`: the editor must schema-check it.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generatedHandoff } from './generatedHandoff.mjs';

/** A valid ULID (Crockford base32) made from a number. */
const uid = (n) => `01JXK${String(n).padStart(21, '0')}`;

function record(i, now) {
  const at = new Date(now - 3_600_000 + i).toISOString();
  const kind = i % 10;
  const to = kind <= 5 ? ['claude'] : kind <= 7 ? ['claude', 'codex'] : ['copilot'];
  return generatedHandoff(i, at, {
    handoff_id: `HO-20250101-${String(i + 1).padStart(5, '0')}`,
    to_agents: to,
    owner_mode: to.length === 2 ? 'shared' : 'single',
    summary: `Scale handoff ${i}: refactor module ${i % 50} and add tests`,
    state_history: [{ status: 'queued', agent: 'codex', timestamp: at, reason: 'created' }],
    uid: uid(i),
    ...(i % 20 === 1 ? { parent_uid: uid(i - 1) } : {}),
  });
}

/** Writes `.agentsync.json` and `.agentsync/handoffs.json` (in the layout AgentSync writes) under `dir`. */
export function seedScaleStore(dir, count = 10_000, now = Date.now()) {
  mkdirSync(join(dir, '.agentsync'), { recursive: true });
  writeFileSync(join(dir, '.agentsync.json'), JSON.stringify({ staleAfterHours: 24, humans: [] }, null, 2) + '\n');
  const handoffs = Array.from({ length: count }, (_, i) => record(i, now));
  writeFileSync(join(dir, '.agentsync/handoffs.json'), JSON.stringify({ version: 1, handoffs }, null, 2) + '\n');
}
