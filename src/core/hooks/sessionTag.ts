// The part of a hook marker's file name that names the session (the stop gate's, the withdraw notices'): a session id
// may hold characters no file name may, so it is hashed. node:crypto is required on first use: dist/hook.js runs
// around every tool call and loading crypto (with the stream machinery it brings) would be a fifth of its cost,
// paid even when no marker is touched.
import type * as CryptoModule from 'node:crypto';

let crypto: typeof CryptoModule | undefined;

/** `-<16 hex>` for a session id (the first 64 bits of its SHA-256), empty without one. */
export function sessionTag(session: string | null): string {
  if (!session) return '';
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- required on first use, the point of this module
  crypto ??= require('node:crypto') as typeof CryptoModule;
  return `-${crypto.createHash('sha256').update(session).digest('hex').slice(0, 16)}`;
}
