// The checks of package.json's contributes that tsc cannot make (scripts/generate-schemas.ts runs them before it writes
// anything): every `when` clause parses under VS Code's grammar (whenClause.ts), reads only `agentsync.*` context keys
// the extension sets (contextKeys.ts) and settings it declares, and names views and tree item values that exist; every
// command a menu, a link or a walkthrough step names is contributed. Each problem says where it is and what to do.
import { handoffContextSamples } from './commandCatalog';
import { CONTEXT_KEYS } from './contextKeys';
import { itemContextSamples } from './treeItemContext';
import { parseWhen, whenTerms, WhenSyntaxError, type WhenTerm } from './whenClause';

/** The parts of contributes the check reads. */
export interface Contributes {
  commands: { command: string }[];
  menus: Record<string, { command: string; when?: string }[]>;
  views: Record<string, { id: string; when?: string }[]>;
  viewsWelcome: { view: string; contents: string; when?: string }[];
  walkthroughs: { id: string; steps: { id: string; description: string; completionEvents?: string[]; when?: string }[] }[];
  configuration: { properties: Record<string, unknown> };
}

const VIEW_KEYS = new Set(['view', 'focusedView', 'activeViewlet', 'sideBarFocus']);

/** Problems of the manifest, each `<where>: <what is wrong> (<what to do>)`; none when it is sound. */
export function manifestProblems(c: Contributes): string[] {
  const problems: string[] = [];
  const commands = new Set(c.commands.map((x) => x.command));
  const views = new Set(Object.values(c.views).flatMap((vs) => vs.map((v) => v.id)));
  const settings = new Set(Object.keys(c.configuration.properties));
  const items = [...itemContextSamples(), ...handoffContextSamples()];

  const term = (t: WhenTerm): string | undefined => {
    if (t.key.startsWith('agentsync.') && !CONTEXT_KEYS.includes(t.key))
      return `context key ${t.key} is never set by the extension (set it, and list it in src/vscode/manifest/contextKeys.ts)`;
    if (t.key.startsWith('config.agentsync.') && !settings.has(t.key.slice('config.'.length)))
      return `setting ${t.key.slice('config.'.length)} is not declared (add it to src/vscode/manifest/settingContributions.ts)`;
    if (t.key === 'viewItem') {
      if (t.kind === 'regex' && !items.some((v) => t.re.test(v)))
        return `viewItem =~ ${String(t.re)} matches no tree item (see src/vscode/manifest/treeItemContext.ts and commandCatalog.ts)`;
      if (t.kind === 'cmp' && (t.op === '==' || t.op === '!=') && !items.includes(t.value))
        return `viewItem ${t.op} ${t.value}: no tree item has that value (see src/vscode/manifest/treeItemContext.ts)`;
    }
    if (VIEW_KEYS.has(t.key) && t.kind === 'cmp' && t.value.startsWith('agentsync.') && !views.has(t.value))
      return `${t.key} ${t.op} ${t.value}: no such view (views: ${[...views].join(', ')})`;
    return undefined;
  };
  const when = (where: string, clause: string | undefined) => {
    if (clause === undefined) return;
    try {
      for (const t of whenTerms(parseWhen(clause))) {
        const wrong = term(t);
        if (wrong) problems.push(`${where}: ${wrong}`);
      }
    } catch (e) {
      if (!(e instanceof WhenSyntaxError)) throw e;
      problems.push(`${where}: the when clause does not parse: ${e.message}`);
    }
  };
  const command = (where: string, id: string) => {
    if (commands.has(id) || (id.endsWith('.focus') && views.has(id.slice(0, -'.focus'.length)))) return;
    if (id.startsWith('agentsync.')) problems.push(`${where}: command ${id} is not contributed (add it to the catalog or PLAIN_COMMANDS)`);
  };
  const links = (where: string, text: string) => {
    for (const m of text.matchAll(/\(command:([\w.-]+)/g)) command(where, m[1]);
  };

  for (const [menu, entries] of Object.entries(c.menus))
    entries.forEach((e, i) => {
      command(`menus.${menu}[${i}]`, e.command);
      when(`menus.${menu}[${i}] (${e.command})`, e.when);
    });
  for (const [container, vs] of Object.entries(c.views)) vs.forEach((v) => when(`views.${container}.${v.id}`, v.when));
  c.viewsWelcome.forEach((w, i) => {
    const where = `viewsWelcome[${i}]`;
    if (!views.has(w.view)) problems.push(`${where}: view ${w.view} is not declared`);
    when(where, w.when);
    links(where, w.contents);
  });
  for (const walk of c.walkthroughs)
    for (const step of walk.steps) {
      const where = `walkthroughs.${walk.id}.${step.id}`;
      when(where, step.when);
      links(where, step.description);
      for (const ev of step.completionEvents ?? []) {
        const [kind, name] = [ev.slice(0, ev.indexOf(':')), ev.slice(ev.indexOf(':') + 1)];
        if (kind === 'onCommand') command(where, name);
        else if (kind === 'onView' && !views.has(name)) problems.push(`${where}: completion event ${ev} names no declared view`);
        else if (kind === 'onContext') when(`${where} (${ev})`, name);
      }
    }
  return problems;
}
