// package.json's commands, menus and Copilot tools are generated from the action catalog (npm run schemas): this test
// fails when a hand edit or a catalog change leaves them apart. The tree flags that the menus match are the catalog's.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { commandContributions, handoffContextValue, menuContributions, PLAIN_COMMANDS } from '../../src/vscode/commands/commandCatalog';
import { languageModelToolContributions } from '../../src/vscode/agents/languageModelToolCatalog';
import { MOVES } from '../../src/core/requests/catalog';
import { handoffIn } from './helpers/handoffFixtures';

const root = path.resolve(__dirname, '..', '..', '..');
interface MenuEntry {
  command: string;
  when: string;
  group?: string;
}
const contributes = () =>
  (
    JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
      contributes: { commands: unknown[]; menus: Record<string, MenuEntry[]>; languageModelTools: unknown[] };
    }
  ).contributes;
const json = (v: unknown): unknown => JSON.parse(JSON.stringify(v));

/** The clauses used in the generated `when`s: `view == x`, `viewItem == x`, `viewItem =~ /re/`, joined by &&. */
function holds(when: string, ctx: Record<string, string>): boolean {
  return when.split('&&').every((clause) => {
    const m = /^\s*(\w+)\s*(==|=~)\s*(.+?)\s*$/.exec(clause)!;
    const value = ctx[m[1]] ?? '';
    if (m[2] === '==') return value === m[3];
    return new RegExp(/^\/(.*)\/$/.exec(m[3])![1]).test(value);
  });
}

describe('package.json from the action catalog (npm run schemas)', () => {
  it('contributes.commands is what the catalog generates (run npm run schemas)', () => {
    assert.deepEqual(contributes().commands, json(commandContributions()));
  });

  it('contributes.menus is what the catalog generates (run npm run schemas)', () => {
    assert.deepEqual(contributes().menus, json(menuContributions()));
  });

  it('contributes.languageModelTools is what the catalog generates (run npm run schemas)', () => {
    assert.deepEqual(contributes().languageModelTools, json(languageModelToolContributions()));
  });

  it('each command is listed once, and every move names a distinct command, verb and flag', () => {
    const ids = commandContributions().map((c) => c.command as string);
    assert.equal(new Set(ids).size, ids.length, ids.join(', '));
    const names = MOVES.map((m) => m.name);
    assert.equal(new Set(names).size, names.length, names.join(', '));
    const verbs = MOVES.flatMap((m) => (m.cli ? [m.cli.verb, ...(m.cli.aliases ?? [])] : []));
    assert.equal(new Set(verbs).size, verbs.length, verbs.join(', '));
    assert.ok(PLAIN_COMMANDS.every((c) => !MOVES.some((m) => m.command?.id === c.id)));
  });

  it('the context menu of a handoff offers each move exactly where the lifecycle allows it', () => {
    const menu = contributes().menus['view/item/context'];
    const offered = (h: Parameters<typeof handoffContextValue>[0]) =>
      [
        ...new Set(
          menu
            .filter(
              (e) => !e.group?.startsWith('inline') && holds(e.when, { view: 'agentsync.handoffs', viewItem: handoffContextValue(h) }),
            )
            .map((e) => e.command.replace('agentsync.', '')),
        ),
      ].sort();
    const always = ['openRecord', 'showHistory'];
    // Open work may also be snoozed.
    const sorted = (xs: string[]) => [...xs, 'snoozeHandoff', ...always].sort();
    assert.deepEqual(offered(handoffIn('queued')), sorted(['claimHandoff', 'escalateHandoff', 'passOver']));
    assert.deepEqual(offered(handoffIn('in_progress')), sorted(['completeHandoff', 'escalateHandoff', 'passOver']));
    assert.deepEqual(
      offered(handoffIn('in_progress', { return_to: 'codex' })),
      sorted(['completeHandoff', 'escalateHandoff', 'passOver', 'returnToOriginator']),
    );
    assert.deepEqual(offered(handoffIn('blocked')), sorted(['escalateHandoff', 'passOver']));
    assert.deepEqual(
      offered(handoffIn('blocked', { to_agents: [], no_handoff_reason: null })),
      sorted(['assignHandoff', 'escalateHandoff', 'passOver']),
    );
    assert.deepEqual(offered(handoffIn('ready_for_review')), sorted(['approveHandoff', 'escalateHandoff', 'requestRevision']));
    assert.deepEqual(offered(handoffIn('approved')), sorted(['escalateHandoff']));
    assert.deepEqual(
      offered(handoffIn('queued', { snoozed_until: '2026-03-10T14:00:00.000Z' })),
      sorted(['claimHandoff', 'escalateHandoff', 'passOver']),
    );
    assert.deepEqual(offered(handoffIn('merged')), always);
    assert.deepEqual(offered(handoffIn('escalated')), always);
  });

  it('a handoff item names its status and its moves: handoff.<status>.can-<move>…', () => {
    assert.equal(handoffContextValue(handoffIn('queued')), 'handoff.queued.can-claim.can-pass.can-escalate.can-snooze');
    assert.equal(handoffContextValue(handoffIn('merged')), 'handoff.merged');
    // The flags 0.4 documented stay beside the can- flags.
    assert.equal(
      handoffContextValue(handoffIn('in_progress', { return_to: 'codex' })),
      'handoff.in_progress.can-complete.can-return.can-pass.can-escalate.can-snooze.returnable',
    );
    assert.equal(
      handoffContextValue(handoffIn('blocked', { to_agents: [], no_handoff_reason: null })),
      'handoff.blocked.can-assign.can-pass.can-escalate.can-snooze.unassigned',
    );
  });
});
