// git replaces files in the working tree while it holds .git/index.lock (a checkout, a merge): the store and its
// derived files are not written meanwhile, so git and AgentSync never interleave their writes of one file.
import { gitBusy, gitIndexLockPath, waitForGitIdle } from '../../git/gitActivity';
import type { StoreLogger } from '../storeLogger';

/** How long a batch waits for git to release .git/index.lock before writing anyway. */
const GIT_WAIT_MS = 10_000;

export class GitIdle {
  private indexLock: string | null | undefined;

  constructor(private readonly root: string) {}

  /** Waits (bounded) while git holds its index lock; then writes anyway, saying so. */
  async wait(logger: StoreLogger): Promise<void> {
    this.indexLock ??= gitIndexLockPath(this.root);
    if (!(await waitForGitIdle(this.indexLock, GIT_WAIT_MS))) {
      logger.warn('git has held .git/index.lock for a while; writing anyway (a stale index.lock? remove it only if no git runs)');
    }
  }

  busy(): boolean {
    return gitBusy(this.indexLock ?? null);
  }

  /** For a derived file about to be renamed into place: skipped while git replaces files, rebuilt on the next write. */
  assertIdle(): void {
    if (this.busy()) throw new Error('git is replacing files (.git/index.lock exists); skipped, rebuilt on the next write');
  }
}
