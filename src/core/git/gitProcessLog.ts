// AGENTSYNC_TEST_GIT_LOG (tests and benches only, not API): when set to a file, every git process AgentSync starts
// appends one line to it, "<pid> <subcommand>", so a test or a bench counts what a write costs in git processes
// (docs/contract.md §13: at most 3 for an uncontended write in sync mode). Unset, it costs one environment lookup.
import * as fs from 'node:fs';

/** git's subcommand in `args` (the arguments after the global options and `-C <root>`), skipping `-c key=value`. */
export function gitSubcommand(args: readonly string[]): string {
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '-c' || args[i] === '-C') i++;
    else if (!args[i].startsWith('-')) return args[i];
  }
  return '?';
}

/** Notes one git process about to start. */
export function noteGitProcess(args: readonly string[]): void {
  const file = process.env.AGENTSYNC_TEST_GIT_LOG;
  if (!file) return;
  try {
    fs.appendFileSync(file, `${process.pid} ${gitSubcommand(args)}\n`);
  } catch {
    // a log for counting only: never a reason to fail the git it counts
  }
}
