// Text ordered by UTF-16 code unit: for the machine strings AgentSync sorts (ISO timestamps, menu group keys) the
// same order as `localeCompare`, without it: the first `localeCompare` in a process builds ICU's collator, about
// 8 ms, a fifth of `node -e 0`, paid by every CLI call and tool hook that loads the catalog (docs/contract.md §14).

/** A sort comparator by code unit: `a < b` as JavaScript compares strings. */
export function byCodeUnit(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
