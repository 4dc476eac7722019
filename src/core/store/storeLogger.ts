// Where the store says what it did or could not do: the editor's output channel, or nothing (the CLI, tests).
// Steps after a committed write are best effort: a failure is told here and repaired by the next batch.

export interface StoreLogger {
  info(message: string): void;
  warn(message: string): void;
}

export const silentLogger: StoreLogger = { info: () => undefined, warn: () => undefined };

/** Runs `fn`; a failure is logged as "could not update <what>" and goes no further. */
export function bestEffort(logger: StoreLogger, what: string, fn: () => void): void {
  try {
    fn();
  } catch (e) {
    logger.warn(`could not update ${what}: ${(e as Error).message}`);
  }
}
