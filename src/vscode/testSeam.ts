// The integration suite drives the running extension through what activate() returns. Those handles (and test
// hooks such as TrustState.simulate) are not a public API: activate() hands them out only when the suite's runner
// (test/integration/run.mjs) set this variable in the editor's environment; a user's window gets nothing.
export const TEST_SEAM_ENV = 'AGENTSYNC_INTEGRATION_SUITE';

/** `handles` when the integration suite runs this window, otherwise undefined (no exports). */
export function testSeam<T>(handles: T, env: NodeJS.ProcessEnv = process.env): T | undefined {
  return env[TEST_SEAM_ENV] === '1' ? handles : undefined;
}
