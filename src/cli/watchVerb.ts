// `agentsync watch [--once] [--interval-ms N]`: the drop zone without an editor (docs/contract.md §8). Runs until SIGINT or
// SIGTERM, then stops cleanly (requests already taken are answered first); --once answers what is there and exits.
import { UsageError } from './cliContext';
import { oneLine } from './terminalText';
import type { Verb } from './handoffVerbs';
import { okResponse, refusal } from '../core/domain/responseEnvelope';

function intervalOf(raw: string | boolean | string[] | undefined): number | undefined {
  if (raw === undefined) return undefined;
  if (typeof raw !== 'string' || !/^\d+$/.test(raw) || Number(raw) < 50 || Number(raw) > 600_000) {
    throw new UsageError('--interval-ms takes a whole number of milliseconds between 50 and 600000');
  }
  return Number(raw);
}

function untilSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const on = (signal: NodeJS.Signals) => {
      process.off('SIGINT', on);
      process.off('SIGTERM', on);
      resolve(signal);
    };
    process.on('SIGINT', on);
    process.on('SIGTERM', on);
  });
}

export const watchVerb: Verb = {
  usage: '[--once] [--interval-ms N] [--verbose]',
  summary: 'answer the drop zone (.agentsync/request.json and .agentsync/requests/) without an editor, until stopped',
  options: { once: { type: 'boolean' }, 'interval-ms': { type: 'string' }, verbose: { type: 'boolean' } },
  freshWorktrees: true,
  run: async (ctx, values) => {
    const rescanMs = intervalOf(values['interval-ms']);
    // Each message is one line: a request file's name may hold a newline, which must not forge a line of the log.
    const log = {
      info: (m: string) => values.verbose && ctx.io.err(`agentsync: ${oneLine(m)}`),
      warn: (m: string) => ctx.io.err(`agentsync: ${oneLine(m)}`),
    };
    // Loaded here, not at the top: the drop zone (processor, claims, answerer) is for this verb only, and every other
    // verb starts without it.
    const { CloneDropZones } = await import('../core/dropZone/cloneDropZones');
    const { AgentSyncFolderWatcher } = await import('../core/workspace/agentSyncFolderWatcher');
    // The same one-per-folder watcher the editor runs (docs/architecture.md), created only when watching.
    const changes = values.once ? undefined : new AgentSyncFolderWatcher(ctx.layout, (e) => log.warn(`watcher: ${e.message}`));
    // At start, before any request waits: derived files a crash or a hand left out of date are rebuilt.
    await ctx.dispatcher.store.repairAtStart(ctx.dispatcher.replayer);
    // Every worktree of the clone is answered, each in its own folder (docs/contract.md §14 item 3).
    // Each other worktree's drop zone is watched as this folder's is, so its requests are answered as they arrive.
    const changesFor = values.once
      ? undefined
      : (layout: typeof ctx.layout) => new AgentSyncFolderWatcher(layout, (e) => log.warn(`watcher: ${e.message}`));
    const processor = new CloneDropZones(ctx.layout, ctx.dispatcher, { rescanMs, logger: log, changes, changesFor });
    if (values.verbose) {
      processor.onDidAnswer((a) =>
        ctx.io.err(
          `agentsync: ${oneLine(
            `${a.requestFile} → ${a.rejected ? `rejected (${a.rejected})` : `${a.response?.ok ? 'ok' : a.response?.reason} (${a.responseFile})`}`,
          )}`,
        ),
      );
    }
    if (values.once) {
      const stats = await processor.processOnce();
      if (processor.problem) {
        // Nothing could be read or answered: a script running `watch --once` must not take that for "all answered".
        // The logger has already printed the problem itself on stderr.
        const message = `the drop zone is off, nothing was answered: ${processor.problem}`;
        if (ctx.json) ctx.io.out(JSON.stringify({ ...refusal('watch', 'drop_zone_off', message), data: { once: true, ...stats } }));
        else ctx.io.err('agentsync: the drop zone is off, nothing was answered (exit 1)');
        return 1;
      }
      if (ctx.json) ctx.io.out(JSON.stringify(okResponse('watch', { once: true, ...stats })));
      else ctx.io.out(`answered ${stats.answered}, refused ${stats.refused}, rejected ${stats.rejected}, taken over ${stats.recovered}`);
      return 0;
    }
    const stopped = untilSignal();
    await processor.start();
    if (!ctx.json) ctx.io.out(`watching ${ctx.layout.dataDir} (pid ${process.pid}); Ctrl-C stops`);
    const signal = await stopped;
    await processor.stop();
    changes?.close();
    const stats = processor.stats;
    if (ctx.json) ctx.io.out(JSON.stringify(okResponse('watch', { signal, ...stats })));
    else
      ctx.io.out(
        `stopped (${signal}): answered ${stats.answered}, refused ${stats.refused}, rejected ${stats.rejected}, taken over ${stats.recovered}`,
      );
    return 0;
  },
};
