// `agentsync trust [--show | --revoke]`: the local user's consent to run this workspace's configured commands
// (commands.build|test|deploy of .agentsync.json), direnv-style: the approval is kept per user outside the
// repository, so a clone never carries it, and a change to the commands needs a new `agentsync trust`
// (docs/agentsync-documentation.md, "Trusting a workspace's commands").
import { loadConfig } from '../core/workspace/configLoader';
import { consentState, describeCommands, grantConsent, revokeConsent, type ConsentState } from '../core/workspace/commandConsent';
import { UsageError } from './cliContext';
import type { Verb } from './handoffVerbs';
import { okResponse } from '../core/domain/responseEnvelope';

function summaryOf(state: ConsentState): Record<string, unknown> {
  return {
    workspace: state.workspace,
    commands: state.commands,
    sha256: state.sha256,
    trusted: state.hasCommands ? state.trusted : null,
    approved: state.record ? { sha256: state.record.sha256, commands: state.record.commands, trustedAt: state.record.trustedAt } : null,
    trustFile: state.trustFile,
  };
}

export const trustVerb: Verb = {
  usage: '[--show | --revoke]',
  summary: "allow this workspace's configured commands (commands.* of .agentsync.json) to run on this machine; --show, --revoke",
  options: { show: { type: 'boolean' }, revoke: { type: 'boolean' } },
  run: (ctx, values, positionals) => {
    if (positionals.length) throw new UsageError(`unexpected argument "${positionals[0]}"`);
    if (values.show && values.revoke) throw new UsageError('--show and --revoke cannot be combined');
    const loaded = loadConfig(ctx.layout.configFile);
    if (loaded.problem) ctx.io.err(`agentsync: ${loaded.problem}`);
    const commands = loaded.config.commands;
    const lines = describeCommands(commands);
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
            ? 'NOT trusted: the commands changed since they were approved'
            : 'NOT trusted: never approved on this machine';
      return out('trust', summaryOf(state), [
        `${state.workspace}: ${status}`,
        ...lines.map((l) => `  ${l}`),
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
      'A change to commands in .agentsync.json needs a new `agentsync trust`; `agentsync trust --revoke` withdraws it.',
    ]);
  },
};
