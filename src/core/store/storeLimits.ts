// The file rules of the store, HandoffStore's and every reader's (storeReader.ts): node built-ins only, since the
// tool hooks' bundle (dist/hook.js) reads through them.
import type * as fs from 'node:fs';
import { ActionError } from '../domain/errors';

export const MAX_STORE_BYTES = 200 * 1024 * 1024;

/** Why a store file with these stats is not read as the store (a symlink or special file, over the limit), or null. */
export function storeFileRefusal(st: Pick<fs.Stats | fs.BigIntStats, 'isFile' | 'size'>): ActionError | null {
  if (!st.isFile()) {
    return new ActionError(
      'store_unsafe',
      '.agentsync/handoffs.json is a symlink or special file; AgentSync will not follow it. Replace it with a regular file.',
    );
  }
  if (Number(st.size) > MAX_STORE_BYTES) {
    return new ActionError(
      'too_large',
      `.agentsync/handoffs.json is ${st.size} bytes, over the ${MAX_STORE_BYTES}-byte limit; archive old handoffs and retry.`,
    );
  }
  return null;
}
