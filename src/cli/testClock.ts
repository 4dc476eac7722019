// AGENTSYNC_TEST_CLOCK_OFFSET_MS (tests only, not API): milliseconds added to this process's clock, so a process test
// can run a clone whose clock is off (test/process/leaseClock.test.ts). Anything but an integer is ignored.
export function testClock(env: NodeJS.ProcessEnv): (() => Date) | undefined {
  const raw = env.AGENTSYNC_TEST_CLOCK_OFFSET_MS;
  if (!raw || !/^-?\d{1,15}$/.test(raw)) return undefined;
  const offset = Number(raw);
  return () => new Date(Date.now() + offset);
}
