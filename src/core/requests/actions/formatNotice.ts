// The notice of a write that moves the store to version 3 (domain/storeVersion.ts, docs/upgrading.md): said by the
// request that first writes such a field, once.
import { storeVersionFor, type Handoff } from '../../domain/handoffSchema';
import { recordVersion, V3_FORMAT_NOTICE } from '../../domain/storeVersion';
import type { StoreTransaction } from '../../store/storeTransaction';

/** The notice when `record`, about to be written, is the first to need version 3; undefined otherwise. */
export function formatNotice(tx: StoreTransaction, record: Handoff): string | undefined {
  return recordVersion(record) === 3 && storeVersionFor(tx.handoffs) < 3 ? V3_FORMAT_NOTICE : undefined;
}
