// One run of a workspace's configured commands at a time (docs/agentsync-documentation.md, "Health checks"):
// in this process a queue per workspace, across processes a lock file (.agentsync/commands.lock). Callers that
// cannot cancel or watch progress (health and endSession from the CLI, MCP, the drop zone) also coalesce: a request
// that finds an identical run still waiting joins it, so N concurrent requests start at most two runs (the one
// running and the one after it), and every answer comes from a run that started after its request arrived.
import * as path from 'node:path';
import { FileLock } from '../../disk/fileLock';
import { ensureSafeDirectory } from '../../disk/safeDirectory';
import { DEFAULT_HEALTH_TIMEOUT_MS, HEALTH_CHECKS, type HealthReport } from './healthChecks';

interface Waiting {
  key: string;
  promise: Promise<HealthReport>;
}

interface WorkspaceQueue {
  tail: Promise<unknown>;
  waiting: Waiting | null;
}

const queues = new Map<string, WorkspaceQueue>();

/** Long enough for every check to reach its own time limit; a holder that died is detected by its pid at once. */
const LOCK_TIMEOUT_MS = HEALTH_CHECKS.length * DEFAULT_HEALTH_TIMEOUT_MS + 60_000;

export function commandsLockFile(dataDir: string): string {
  return path.join(dataDir, 'commands.lock');
}

/**
 * Runs `run` when no other run of this workspace's commands is going on (in any process). `key` names what the
 * run does (the commands and which checks); with `coalesce`, a waiting run with the same key is shared.
 */
export function runOneAtATime(dataDir: string, key: string, coalesce: boolean, run: () => Promise<HealthReport>): Promise<HealthReport> {
  let q = queues.get(dataDir);
  if (!q) {
    q = { tail: Promise.resolve(), waiting: null };
    queues.set(dataDir, q);
  }
  const queue = q;
  if (coalesce && queue.waiting?.key === key) return queue.waiting.promise;
  const entry: Waiting = { key, promise: undefined as unknown as Promise<HealthReport> };
  entry.promise = queue.tail.then(async () => {
    if (queue.waiting === entry) queue.waiting = null;
    ensureSafeDirectory(path.dirname(dataDir), dataDir); // .agentsync a symlink: refused, no lock written through it
    const lock = new FileLock(commandsLockFile(dataDir), LOCK_TIMEOUT_MS);
    await lock.acquire();
    try {
      return await run();
    } finally {
      lock.release();
    }
  });
  const tail = entry.promise.then(
    () => undefined,
    () => undefined,
  );
  queue.tail = tail;
  if (coalesce) queue.waiting = entry;
  // The last run of a workspace forgets its queue, so a long-lived process does not keep one per folder it saw.
  void tail.then(() => {
    if (queue.tail === tail && queues.get(dataDir) === queue) queues.delete(dataDir);
  });
  return entry.promise;
}
