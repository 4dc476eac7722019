// Stores the benches write straight to disk, shaped as AgentSync writes them: queued handoffs (the open work) and
// finished ones in the archive's month files (.agentsync/archive/YYYY-MM.jsonl, one record a line, as the archive
// pass writes them). One series for all, so the figures of one bench can be set beside another's.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { generatedHandoff } from '../test/integration/generatedHandoff.mjs';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
/** A valid ULID, unique for each n. */
export const uid = (n) => '01J' + Array.from({ length: 23 }, (_, k) => CROCKFORD[Math.floor(n / 32 ** (22 - k)) % 32]).join('');

/** A queued handoff (codex → claude); `i` makes its id and uid unique; `fields` override the rest. */
export function queuedHandoff(i, fields = {}) {
  const at = new Date(Date.UTC(2025, 0, 1) + i * 60_000).toISOString();
  const ymd = at.slice(0, 10).replace(/-/g, '');
  return generatedHandoff(i, at, { handoff_id: `HO-${ymd}-${String(i + 1).padStart(4, '0')}`, uid: uid(i), ...fields });
}

/** Finished handoff `i` of the archive, 400 a day going back from 2024-12-31 (before every open one). */
export function finishedHandoff(i) {
  const day = Date.UTC(2024, 11, 31) - Math.floor(i / 400) * 86_400_000;
  const at = new Date(day + (i % 400) * 1000).toISOString();
  const ymd = at.slice(0, 10).replace(/-/g, '');
  const status = i % 10 === 9 ? 'escalated' : 'merged';
  return generatedHandoff(i, at, { handoff_id: `HO-${ymd}-${String((i % 400) + 1).padStart(4, '0')}`, uid: uid(1_000_000 + i), status });
}

/** `archived` finished handoffs in the archive's month files under `dataDir`; returns the highest id (id_high_water). */
export function writeArchive(dataDir, archived) {
  const months = new Map();
  let highWater;
  for (let i = 0; i < archived; i++) {
    const h = finishedHandoff(i);
    const month = `${h.handoff_id.slice(3, 7)}-${h.handoff_id.slice(7, 9)}`;
    if (!months.has(month)) months.set(month, []);
    months.get(month).push(JSON.stringify(h) + '\n');
    if (!highWater || h.handoff_id > highWater) highWater = h.handoff_id;
  }
  const archiveDir = path.join(dataDir, 'archive');
  fs.mkdirSync(archiveDir, { recursive: true });
  for (const [month, lines] of months) fs.writeFileSync(path.join(archiveDir, `${month}.jsonl`), lines.join(''));
  return highWater;
}

/** Adds `open` queued handoffs (and `archived` finished ones in the archive) to the store `init` wrote in `dataDir`. */
export function fillStore(dataDir, open, archived = 0) {
  const file = path.join(dataDir, 'handoffs.json');
  const store = JSON.parse(fs.readFileSync(file, 'utf8'));
  store.handoffs.push(...Array.from({ length: open }, (_, i) => queuedHandoff(i)));
  if (archived > 0) store.id_high_water = writeArchive(dataDir, archived);
  fs.writeFileSync(file, JSON.stringify(store, null, 2) + '\n');
}
