// Whether this clone's user agreed to push to the remote and ref a committed `sync` section names (docs/contract.md
// §13, Consent): every write, and `agentsync sync`, is refused `sync_not_consented` until then. A yes is kept for the
// process (it is only ever given, never withdrawn, while a batch runs).
import type { SyncConfig } from '../../domain/configSchema';
import { hasSyncConsent, syncNotConsented } from '../../workspace/syncConsent';

export class ConsentGate {
  private yes = false;

  constructor(
    private readonly root: string,
    private readonly config: SyncConfig,
  ) {}

  consented(): boolean {
    this.yes ||= hasSyncConsent(this.root, this.config.remote, this.config.ref);
    return this.yes;
  }

  /** Throws `sync_not_consented`, naming the remote and ref, when the user has not agreed. */
  assert(): void {
    if (!this.consented()) throw syncNotConsented(this.root, this.config.remote, this.config.ref);
  }
}
