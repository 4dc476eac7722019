// "Did you mean": the nearest allowed name to a misspelled one, for config keys and agent ids in messages
// (docs/agentsync-documentation.md, "Configuration").

/** Levenshtein distance, small inputs only (config key names, agent ids). */
function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cur = row[j];
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, prev + (a[i - 1].toLowerCase() === b[j - 1].toLowerCase() ? 0 : 1));
      prev = cur;
    }
  }
  return row[b.length];
}

/** The allowed name a misspelled one is close enough to (case ignored), or null: the one "near miss" rule. */
export function nearestKey(key: string, allowed: readonly string[]): string | null {
  let best: string | null = null;
  let bestDistance = Infinity;
  for (const k of allowed) {
    const d = distance(key, k);
    if (d < bestDistance) [best, bestDistance] = [k, d];
  }
  return best !== null && bestDistance <= Math.max(2, Math.floor(best.length / 3)) ? best : null;
}

export function didYouMean(key: string, allowed: readonly string[]): string {
  const best = nearestKey(key, allowed);
  return best !== null ? ` (did you mean "${best}"?)` : '';
}
