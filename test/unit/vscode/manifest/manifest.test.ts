// package.json's commands, menus and Copilot tools are generated from the action catalog, its views, welcome content,
// walkthrough and settings from src/vscode/manifest/ (npm run build): this test fails when a hand edit or a change
// there leaves them apart. The tree flags that the menus match are the catalog's.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { commandContributions, handoffContextValue, PLAIN_COMMANDS } from '../../../../src/vscode/manifest/commandCatalog';
import { manifestProblems, type Contributes } from '../../../../src/vscode/manifest/manifestCheck';
import { commandIdsSource, generatedContributes } from '../../../../scripts/manifest/contributes';
import { MOVES } from '../../../../src/core/requests/catalog';
import { handoffIn } from '../../helpers/handoffFixtures';
import { catalogOffers, commandOf, MENU_CASES, offeredBy } from '../../../shared/menuMatrix';

const root = path.resolve(__dirname, '../../../../..');
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

describe('package.json from the action catalog and src/vscode/manifest/ (npm run build)', () => {
  for (const [section, generated] of Object.entries(generatedContributes())) {
    it(`contributes.${section} is what scripts/manifest/contributes.ts generates (run npm run build)`, () => {
      assert.deepEqual((contributes() as Record<string, unknown>)[section], json(generated));
    });
  }

  it('src/vscode/manifest/commandIds.ts is what the catalog generates (run npm run build)', () => {
    assert.equal(fs.readFileSync(path.join(root, 'src/vscode/manifest/commandIds.ts'), 'utf8'), commandIdsSource());
  });

  it('every when clause, command link and walkthrough event of package.json checks out', () => {
    assert.deepEqual(manifestProblems(contributes() as unknown as Contributes), []);
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

  it('the context menu of a handoff offers each move exactly where the catalog says it is available', () => {
    const menu = contributes().menus['view/item/context'];
    for (const { name, handoff } of MENU_CASES) {
      assert.deepEqual(offeredBy(menu, handoffContextValue(handoff)), catalogOffers(handoff), name);
    }
    // The lifecycle, seen through the menu: a queued handoff is claimed, not completed; finished work offers no move,
    // and no new worktree (docs/contract.md §14 item 5).
    const queued = offeredBy(menu, handoffContextValue(handoffIn('queued')));
    assert.ok(queued.includes(commandOf('claim')) && !queued.includes(commandOf('complete')), queued.join(', '));
    assert.ok(queued.includes('agentsync.openInNewWorktree'), queued.join(', '));
    const review = offeredBy(menu, handoffContextValue(handoffIn('ready_for_review')));
    assert.ok(review.includes(commandOf('approve')) && !review.includes(commandOf('claim')), review.join(', '));
    const merged = offeredBy(menu, handoffContextValue(handoffIn('merged')));
    assert.deepEqual(
      merged,
      PLAIN_COMMANDS.filter((c) => c.onHandoff && !c.onHandoff.unfinished)
        .map((c) => c.id)
        .sort(),
    );
  });

  it('a handoff item names its status, then a can-<move> flag for each move it offers, then the flags 0.4 documented', () => {
    const queued = handoffContextValue(handoffIn('queued'));
    assert.ok(queued.startsWith('handoff.queued.'), queued);
    assert.ok(queued.includes('.can-claim') && !queued.includes('.can-complete'), queued);
    assert.equal(handoffContextValue(handoffIn('merged')), 'handoff.merged');
    // The flags 0.4 documented stay beside the can- flags, last.
    assert.match(handoffContextValue(handoffIn('in_progress', { return_to: 'codex' })), /\.can-return(\.can-[a-z]+)*\.returnable$/);
    assert.match(
      handoffContextValue(handoffIn('blocked', { to_agents: [], no_handoff_reason: null })),
      /\.can-assign(\.can-[a-z]+)*\.unassigned$/,
    );
  });
});
