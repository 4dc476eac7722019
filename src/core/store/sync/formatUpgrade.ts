// `agentsync sync --upgrade-format` (docs/upgrading.md): asked before a sync, the next write of that sync writes the
// shared state in the newest format; afterwards the CLI takes what it did.
import { NEWEST_SHARED_FORMAT } from './sharedTreeLayout';

export type UpgradeResult = 'written' | 'already' | 'asked' | null;

export class FormatUpgrade {
  private state: UpgradeResult = null;

  ask(): void {
    this.state = 'asked';
  }

  get asked(): boolean {
    return this.state === 'asked';
  }

  /** Whether a write on a state read in `format` (undefined: none yet) upgrades it. */
  upgrades(format: number | undefined): boolean {
    return this.asked && format !== NEWEST_SHARED_FORMAT;
  }

  /** The write the upgrade was asked for was decided: it wrote the newest format, or the state was in it already. */
  settle(upgraded: boolean): void {
    if (this.asked) this.state = upgraded ? 'written' : 'already';
  }

  /** What the last asked upgrade did: 'written', 'already', 'asked' (no write was decided), null (not asked). */
  take(): UpgradeResult {
    const u = this.state;
    this.state = null;
    return u;
  }
}
