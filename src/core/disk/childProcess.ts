// node:child_process, required on first use. Only git and the health checks start programs, and a CLI command that
// starts none (`list`, `claim`, ...) should not pay to load it: child_process brings net, dgram and their stream
// machinery with it, about as long to load as the rest of a small command's own work (README.md, "Development").
import type * as ChildProcessModule from 'node:child_process';

let loaded: typeof ChildProcessModule | undefined;

export function childProcess(): typeof ChildProcessModule {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- required on first use, the point of this module
  return (loaded ??= require('node:child_process') as typeof ChildProcessModule);
}
