// The shared-state fixtures of the format tests (test/process/fixtures/sync-format1.sh and sync-format2.sh): refs
// written by earlier builds, loaded onto a test server's bare repository, and the request one of them answered.
import * as path from 'node:path';
import { git } from '../gitServer';

export const FIXTURES = path.join(__dirname, '..', '..', '..', '..', 'test', 'process', 'fixtures');
export const REF = 'refs/agentsync/state';

/** Sets `bare`'s shared ref to the fixture's: format 1 (written by 0.4.0) or format 2 (by the build before format 3). */
export function loadFormatFixture(bare: string, format: 1 | 2): void {
  git(bare, ['fetch', '-q', path.join(FIXTURES, `sync-format${format}.bundle`), `${REF}:${REF}`]);
}

/** The request the format-1 fixture answered (its ledger holds it): a retry of it must be answered, never applied again. */
export const FIXTURE_RETRY = JSON.stringify({
  action: 'createHandoff',
  request_id: 'fixture-format1-req',
  handoff: { from_agent: 'human', to_agents: ['claude', 'codex'], owner_mode: 'shared', summary: 'created with a request id' },
});
