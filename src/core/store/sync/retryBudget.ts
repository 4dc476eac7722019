// How long a write keeps trying when the shared ref keeps moving under it (docs/contract.md §13): a time budget, not
// a count, so that `remote_busy` means the remote truly kept moving for that long, however slow each attempt was on
// a loaded machine. Between attempts a random pause, growing with each lost race up to a cap, spreads racing clones.
import { ActionError } from '../../domain/errors';
import type { SyncConfig } from '../../domain/configSchema';

/** The whole time a write may keep retrying: past it, the batch is refused `remote_busy`. */
export const RETRY_BUDGET_MS = 60_000;
/** The longest pause between two attempts. */
export const RETRY_PAUSE_CAP_MS = 500;
/** The bound of the first pause; each lost race doubles it, up to the cap. */
const FIRST_PAUSE_MS = 20;

export interface RetryClock {
  /** Milliseconds, only ever compared with each other. */
  now(): number;
  /** A number in [0, 1). */
  random(): number;
}

const SYSTEM_CLOCK: RetryClock = { now: () => Date.now(), random: () => Math.random() };

export class RetryBudget {
  private startedAt = 0;
  private lost = 0;

  constructor(
    private readonly clock: RetryClock = SYSTEM_CLOCK,
    readonly budgetMs = RETRY_BUDGET_MS,
    readonly capMs = RETRY_PAUSE_CAP_MS,
  ) {}

  /** A new write: the budget starts now. */
  start(): void {
    this.startedAt = this.clock.now();
    this.lost = 0;
  }

  /**
   * The pause before the next attempt, or null when the budget is spent. `contended`: the last attempt lost a race
   * on the remote (a random, growing pause); otherwise the attempt only learned that this clone's view was old, and
   * the next one starts at once.
   */
  next(contended: boolean): number | null {
    const left = this.startedAt + this.budgetMs - this.clock.now();
    if (left <= 0) return null;
    if (!contended) return 0;
    const bound = Math.min(this.capMs, FIRST_PAUSE_MS * 2 ** this.lost);
    this.lost++;
    return Math.min(left, Math.floor(this.clock.random() * bound));
  }

  /** Milliseconds since start(). */
  elapsedMs(): number {
    return this.clock.now() - this.startedAt;
  }
}

/** remote_busy: the ref kept moving for the whole budget; nothing was changed. */
export function busyRefusal(config: SyncConfig, budget: RetryBudget, attempts: number, lastWhy: string): ActionError {
  const { remote, ref } = config;
  const seconds = Math.round(budget.elapsedMs() / 1000);
  return new ActionError(
    'remote_busy',
    `${ref} on the git remote "${remote}" kept moving for ${seconds} s (the time a write keeps trying: ` +
      `${budget.budgetMs / 1000} s): other writes won each of ${attempts} attempts (the last refused push: ${lastWhy}); ` +
      'nothing was changed. Retry.',
    { sync: { remote, ref }, attempts },
  );
}
