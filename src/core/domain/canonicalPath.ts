// The one path rule (no dependency: the tool hooks load it around every tool call).
/**
 * A workspace-relative path in one spelling: `/` separators, no `.` or empty segments (`./src//a.ts`, `src\\a.ts` and
 * `src/a.ts/` → `src/a.ts`). Case is kept: `Src/A.ts` and `src/a.ts` are different files on the disks AgentSync runs on.
 * The one path rule of every surface: paths are stored in it and compared in it (docs/contract.md §3).
 */
export function canonicalRelativePath(p: string): string {
  return p
    .split(/[\\/]+/)
    .filter((seg) => seg !== '' && seg !== '.')
    .join('/');
}
