// Tests never touch the user's real trust records: AGENTSYNC_TRUST_FILE points at a temp file for the suite that
// calls useTempTrustFile(), and trustWorkspace() approves a workspace's current commands like `agentsync trust`.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { grantConsent } from '../../../src/core/workspace/commandConsent';
import { loadConfig } from '../../../src/core/workspace/configLoader';

/** Registers before/after hooks in the calling describe(); returns the trust file's path, read at call time. */
export function useTempTrustFile(): () => string {
  let dir = '';
  let previous: string | undefined;
  before(() => {
    previous = process.env.AGENTSYNC_TRUST_FILE;
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agentsync-trust-'));
    process.env.AGENTSYNC_TRUST_FILE = path.join(dir, 'trusted.json');
  });
  after(() => {
    if (previous === undefined) delete process.env.AGENTSYNC_TRUST_FILE;
    else process.env.AGENTSYNC_TRUST_FILE = previous;
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return () => path.join(dir, 'trusted.json');
}

/** What `agentsync trust` does: approve the commands .agentsync.json configures now. */
export function trustWorkspace(root: string): void {
  grantConsent(root, loadConfig(path.join(root, '.agentsync.json')).config.commands);
}
