// `agentsync trust [--show | --revoke]`: the local user's consent to run this workspace's configured commands
// (commands.build|test|deploy of .agentsync.json) and the repository files and package.json scripts they run,
// direnv-style: the approval is kept per user outside the repository, so a clone never carries it, and a change to
// the commands or to what they run needs a new `agentsync trust`
// (docs/agentsync-documentation.md, "Trusting a workspace's commands").
import { loadConfig } from '../core/workspace/configLoader';
import {
  consentState,
  describeCommands,
  describeTargets,
  grantConsent,
  revokeConsent,
  whyUntrusted,
  type ConsentState,
} from '../core/workspace/commandConsent';
import { UsageError } from './cliContext';
import type { Verb } from './handoffVerbs';
import { okResponse } from '../core/domain/responseEnvelope';

function summaryOf(state: ConsentState): Record<string, unknown> {
  return {
    workspace: state.workspace,
    commands: state.commands,
    runs: state.runs,
    sha256: state.sha256,
    trusted: state.hasCommands ? state.trusted : null,
    changes: state.changes,
    approved: state.record
      ? { sha256: state.record.sha256, commands: state.record.commands, runs: state.record.runs ?? null, trustedAt: state.record.trustedAt }
      : null,
    trustFile: state.trustFile,
  };
}

export const trustVerb: Verb = {
  usage: '[--show | --revoke]',
  summary: "allow this workspace's configured commands (commands.* of .agentsync.json) to run on this machine; --show, --revoke",
  options: { show: { type: 'boolean' }, revoke: { type: 'boolean' } },
  run: (ctx, values) => {
    if (values.show && values.revoke) throw new UsageError('--show and --revoke cannot be combined');
    const loaded = loadConfig(ctx.layout.configFile);
    if (loaded.problem) ctx.io.err(`agentsync: ${loaded.problem}`);
    const commands = loaded.config.commands;
    const lines = describeCommands(commands);
    /** The files and scripts the commands run, as they are now: what an approval covers too. */
    const runLines = (state: ConsentState) => {
      const runs = describeTargets(state.runs);
      return runs.length ? ['and what they run from the repository, as it is now:', ...runs.map((l) => `  ${l}`)] : [];
    };
    const out = (action: string, data: Record<string, unknown>, text: string[]) => {
      if (ctx.json) ctx.io.out(JSON.stringify(okResponse(action, data)));
      else ctx.io.out(text.join('\n'));
      return 0;
    };

    if (values.revoke) {
      const removed = revokeConsent(ctx.layout.root);
      const state = consentState(ctx.layout.root, commands);
      return out('trust', { revoked: removed, ...summaryOf(state) }, [
        removed
          ? `revoked: ${state.workspace} may no longer run its configured commands`
          : `nothing to revoke: ${state.workspace} was not trusted`,
      ]);
    }
    const state = consentState(ctx.layout.root, commands);
    if (values.show) {
      const status = !state.hasCommands
        ? 'no commands are configured (nothing to trust)'
        : state.trusted
          ? 'trusted: these commands may run'
          : state.record
            ? `NOT trusted: the commands ${whyUntrusted(state)}`
            : 'NOT trusted: never approved on this machine';
      return out('trust', summaryOf(state), [
        `${state.workspace}: ${status}`,
        ...lines.map((l) => `  ${l}`),
        ...runLines(state),
        `(trust records: ${state.trustFile})`,
      ]);
    }
    if (!state.hasCommands) {
      return out('trust', summaryOf(state), [`${state.workspace}: no commands are configured in .agentsync.json; nothing to trust`]);
    }
    const granted = grantConsent(ctx.layout.root, commands);
    return out('trust', summaryOf(granted), [
      `trusted ${granted.workspace}: health and endSession may now run these commands (without a shell):`,
      ...lines.map((l) => `  ${l}`),
      ...runLines(granted),
      'A change to the commands in .agentsync.json, or to a file or package.json script they run, needs a new `agentsync trust`; ' +
        '`agentsync trust --revoke` withdraws it.',
    ]);
  },
};
