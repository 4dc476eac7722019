// A hook command line that says what to do when `agentsync` is not on the agent's PATH, instead of the shell's bare
// "agentsync: command not found" (docs/agentsync-documentation.md, "Installing the agentsync command"). For the
// hook packs: each vendor's pack wraps its `agentsync hook …` command with this. The guard exits 1 after its
// message: a non-blocking hook error for the agents (exit 2 would block the agent's tool call or stop).

export const MISSING_COMMAND_MESSAGE =
  "AgentSync: the agentsync command is not on this shell's PATH, so this hook did nothing. Install it: in VS Code run " +
  '"AgentSync: Install \'agentsync\' Command in PATH", or `npm install -g <agentsync package>`; see "Installing the agentsync ' +
  'command" in docs/agentsync-documentation.md.';

const shQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
const psQuote = (s: string) => `'${s.replace(/'/g, "''")}'`;

/**
 * `command` (which starts with `agentsync `) guarded by a check that the program exists: for a POSIX shell (`sh`,
 * `bash -lc`) or PowerShell (Copilot's and Cursor's Windows entries).
 */
export function guardedHookCommand(command: string, shell: 'posix' | 'powershell' = 'posix'): string {
  if (!command.startsWith('agentsync ')) throw new Error(`a hook command starts with "agentsync " (got ${JSON.stringify(command)})`);
  if (shell === 'powershell')
    return (
      `if (Get-Command agentsync -ErrorAction SilentlyContinue) { ${command} } else { ` +
      `[Console]::Error.WriteLine(${psQuote(MISSING_COMMAND_MESSAGE)}); exit 1 }`
    );
  return `if command -v agentsync >/dev/null 2>&1; then ${command}; else echo ${shQuote(MISSING_COMMAND_MESSAGE)} >&2; exit 1; fi`;
}
