// The manifest check (src/vscode/manifest/manifestCheck.ts) and VS Code's when grammar (whenClause.ts): the generator
// refuses a package.json whose clauses do not parse, read a context key the extension never sets, name a view or a
// tree item that does not exist, or link a command nobody contributes.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { manifestProblems, type Contributes } from '../../../../src/vscode/manifest/manifestCheck';
import { parseWhen, whenHolds, WhenSyntaxError } from '../../../../src/vscode/manifest/whenClause';

const root = path.resolve(__dirname, '../../../../..');
const real = () => (JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { contributes: Contributes }).contributes;

/** The real contributes with one menu entry added to view/item/context. */
function withMenuEntry(entry: { command: string; when: string }): Contributes {
  const c = real();
  c.menus['view/item/context'].push(entry);
  return c;
}

describe('when clauses (VS Code grammar)', () => {
  it('evaluates !, &&, ||, parentheses, ==, !=, =~, in, not in and comparisons as VS Code does', () => {
    const ctx = { view: 'agentsync.handoffs', viewItem: 'handoff.queued.can-claim', n: 3, list: ['a'], x: 'a', on: true };
    assert.equal(whenHolds('view == agentsync.handoffs && viewItem =~ /\\.can-claim(\\.|$)/', ctx), true);
    assert.equal(whenHolds('view == agentsync.handoffs && viewItem =~ /\\.can-complete(\\.|$)/', ctx), false);
    assert.equal(whenHolds('!on || (n > 2 && n <= 3)', ctx), true);
    assert.equal(whenHolds("x in list && x != 'b' && missing not in list", ctx), true);
    assert.equal(whenHolds('workbenchState != empty && !agentsync.initialized', ctx), true);
    assert.equal(whenHolds('!view', ctx), false);
  });

  it('refuses a clause that does not parse, saying where', () => {
    for (const bad of ['view ==', 'a && && b', '(a || b', 'viewItem =~ /(/', 'a b', '']) {
      assert.throws(() => parseWhen(bad), WhenSyntaxError, bad);
    }
  });
});

describe('manifest check (scripts/generate-schemas.ts refuses these)', () => {
  it('finds nothing wrong in package.json', () => {
    assert.deepEqual(manifestProblems(real()), []);
  });

  it('names an agentsync context key the extension never sets, and where to list it', () => {
    const problems = manifestProblems(withMenuEntry({ command: 'agentsync.refresh', when: 'agentsync.initialised' }));
    assert.equal(problems.length, 1, problems.join('\n'));
    assert.match(problems[0], /agentsync\.initialised is never set .*contextKeys\.ts/);
  });

  it('names a viewItem pattern no tree item matches, a view that does not exist and a clause that does not parse', () => {
    const problems = manifestProblems(
      withMenuEntry({ command: 'agentsync.claimHandoff', when: 'view == agentsync.handofs && viewItem =~ /\\.can-clam(\\.|$)/' }),
    );
    assert.equal(problems.length, 2, problems.join('\n'));
    assert.match(problems[0], /view == agentsync\.handofs: no such view/);
    assert.match(problems[1], /can-clam.* matches no tree item/);
    assert.match(manifestProblems(withMenuEntry({ command: 'agentsync.refresh', when: 'view == && x' }))[0], /does not parse/);
  });

  it('names a command that a menu, a welcome link or a walkthrough step names but nobody contributes', () => {
    const c = withMenuEntry({ command: 'agentsync.refreshAll', when: 'view == agentsync.handoffs' });
    c.viewsWelcome[0].contents += '\n[Go](command:agentsync.goSomewhere)';
    c.walkthroughs[0].steps[0].completionEvents = ['onCommand:agentsync.nothing', 'onContext:agentsync.nope', 'onView:agentsync.nowhere'];
    const problems = manifestProblems(c).join('\n');
    for (const name of ['agentsync.refreshAll', 'agentsync.goSomewhere', 'agentsync.nothing', 'agentsync.nope', 'agentsync.nowhere'])
      assert.ok(problems.includes(name), `${name} in:\n${problems}`);
  });
});
