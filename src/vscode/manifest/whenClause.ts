// VS Code's `when` clause grammar (the subset of code.visualstudio.com/api/references/when-clause-contexts that
// package.json may use): `!`, `&&`, `||`, parentheses, `key`, `key == value`, `!=`, `<`, `<=`, `>`, `>=`, `key =~ /re/`,
// `key in key2`, `key not in key2`. One parser for the generator's check of every clause (manifestCheck.ts) and one
// evaluator for the tests that ask which menu entry shows where.

/** A clause that reads one context key. */
export type WhenTerm =
  | { kind: 'key'; key: string }
  | { kind: 'cmp'; key: string; op: '==' | '!=' | '<' | '<=' | '>' | '>='; value: string }
  | { kind: 'regex'; key: string; re: RegExp }
  | { kind: 'in' | 'not in'; key: string; container: string };

export type WhenExpr =
  | { kind: 'or'; parts: WhenExpr[] }
  | { kind: 'and'; parts: WhenExpr[] }
  | { kind: 'not'; expr: WhenExpr }
  | { kind: 'true' }
  | { kind: 'false' }
  | WhenTerm;

/** A clause that does not parse: what was wrong, where. */
export class WhenSyntaxError extends Error {}

const OPS = ['===', '!==', '==', '!=', '=~', '<=', '>=', '<', '>', '&&', '||', '!', '(', ')'];

function tokenize(text: string): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (c === '/' && out[out.length - 1] === '=~') {
      // A regex literal: up to the next unescaped slash, then its flags.
      let j = i + 1;
      while (j < text.length && text[j] !== '/') j += text[j] === '\\' ? 2 : 1;
      if (j >= text.length) throw new WhenSyntaxError(`unclosed regular expression at ${i} in: ${text}`);
      const flags = /^[a-z]*/.exec(text.slice(j + 1))![0];
      out.push(text.slice(i, j + 1 + flags.length));
      i = j + 1 + flags.length;
      continue;
    }
    if (c === "'") {
      const j = text.indexOf("'", i + 1);
      if (j < 0) throw new WhenSyntaxError(`unclosed quote at ${i} in: ${text}`);
      out.push(text.slice(i, j + 1));
      i = j + 1;
      continue;
    }
    const op = OPS.find((o) => text.startsWith(o, i));
    if (op) {
      out.push(op);
      i += op.length;
      continue;
    }
    const word = /^[^\s()!=<>&|'~]+/.exec(text.slice(i));
    if (!word) throw new WhenSyntaxError(`unexpected "${c}" at ${i} in: ${text}`);
    out.push(word[0]);
    i += word[0].length;
  }
  return out;
}

/** Parses a `when` clause; throws WhenSyntaxError saying what is wrong. */
export function parseWhen(text: string): WhenExpr {
  const tokens = tokenize(text);
  let at = 0;
  const peek = () => tokens[at];
  const fail = (what: string): never => {
    throw new WhenSyntaxError(`${what} at token ${at + 1} ("${peek() ?? 'end'}") in: ${text}`);
  };
  const isWord = (t: string | undefined) => t !== undefined && !OPS.includes(t) && t !== 'in' && t !== 'not';
  const value = (): string => {
    const t = peek();
    if (t === undefined || OPS.includes(t)) return fail('a value expected');
    at++;
    return t.startsWith("'") ? t.slice(1, -1) : t;
  };
  const primary = (): WhenExpr => {
    const t = peek();
    if (t === '!') {
      at++;
      return { kind: 'not', expr: primary() };
    }
    if (t === '(') {
      at++;
      const e = or();
      if (peek() !== ')') fail('")" expected');
      at++;
      return e;
    }
    if (!isWord(t)) return fail('a context key expected');
    at++;
    const key = t;
    if (key === 'true') return { kind: 'true' };
    if (key === 'false') return { kind: 'false' };
    const op = peek();
    if (op === '=~') {
      at++;
      const lit = peek();
      const m = lit === undefined ? null : /^\/(.*)\/([a-z]*)$/s.exec(lit);
      if (!m) return fail('a /regular expression/ expected');
      at++;
      try {
        return { kind: 'regex', key, re: new RegExp(m[1], m[2]) };
      } catch (e) {
        return fail(`an invalid regular expression (${(e as Error).message})`);
      }
    }
    if (op === 'in') {
      at++;
      return { kind: 'in', key, container: value() };
    }
    if (op === 'not' && tokens[at + 1] === 'in') {
      at += 2;
      return { kind: 'not in', key, container: value() };
    }
    if (op && ['==', '===', '!=', '!==', '<', '<=', '>', '>='].includes(op)) {
      at++;
      const norm = op === '===' ? '==' : op === '!==' ? '!=' : op;
      return { kind: 'cmp', key, op: norm as '==' | '!=' | '<' | '<=' | '>' | '>=', value: value() };
    }
    return { kind: 'key', key };
  };
  const and = (): WhenExpr => {
    const parts = [primary()];
    while (peek() === '&&') {
      at++;
      parts.push(primary());
    }
    return parts.length === 1 ? parts[0] : { kind: 'and' as const, parts };
  };
  const or = (): WhenExpr => {
    const parts = [and()];
    while (peek() === '||') {
      at++;
      parts.push(and());
    }
    return parts.length === 1 ? parts[0] : { kind: 'or' as const, parts };
  };
  if (tokens.length === 0) fail('an empty clause');
  const expr = or();
  if (at < tokens.length) fail('an operator or the end expected');
  return expr;
}

/** Every clause of the expression that reads a key, with the key: for the checks of keys and values. */
export function whenTerms(e: WhenExpr): WhenTerm[] {
  if (e.kind === 'or' || e.kind === 'and') return e.parts.flatMap(whenTerms);
  if (e.kind === 'not') return whenTerms(e.expr);
  if (e.kind === 'true' || e.kind === 'false') return [];
  return [e];
}

/** A context value as the text a clause compares it with. */
function scalar(v: unknown): string {
  return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? String(v) : JSON.stringify(v);
}

/** Whether the clause holds for these context values (a missing key is undefined, as in VS Code). */
export function whenHolds(clause: string | WhenExpr, ctx: Readonly<Record<string, unknown>>): boolean {
  const e = typeof clause === 'string' ? parseWhen(clause) : clause;
  switch (e.kind) {
    case 'or':
      return e.parts.some((p) => whenHolds(p, ctx));
    case 'and':
      return e.parts.every((p) => whenHolds(p, ctx));
    case 'not':
      return !whenHolds(e.expr, ctx);
    case 'true':
      return true;
    case 'false':
      return false;
    case 'key':
      return !!ctx[e.key];
    case 'regex': {
      const v = ctx[e.key];
      return v !== undefined && e.re.test(scalar(v));
    }
    case 'in':
    case 'not in': {
      const c = ctx[e.container];
      const found = Array.isArray(c) ? c.includes(ctx[e.key]) : typeof c === 'object' && c !== null && scalar(ctx[e.key]) in c;
      return e.kind === 'in' ? found : !found;
    }
    case 'cmp': {
      const v = ctx[e.key];
      const same = v !== undefined && scalar(v) === e.value;
      if (e.op === '==') return same;
      if (e.op === '!=') return !same;
      const a = Number(v);
      const b = Number(e.value);
      return e.op === '<' ? a < b : e.op === '<=' ? a <= b : e.op === '>' ? a > b : a >= b;
    }
  }
}
