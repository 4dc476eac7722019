// The files a shell command writes, for the conflict radar (docs/agentsync-documentation.md, "Conflict radar"). A
// finite, documented list, never a shell interpreter: `sed -i`, `mv`, `cp`, `tee`, `rm` and the redirections `>` and
// `>>`, each only where the target is a plain word (no quotes, variables, globs or substitutions). Any other way a
// command writes a file (a script, an interpreter, `dd`, `install`, a quoted or computed name) is not seen.

/** A word the shell passes through as it is: no quoting, expansion or globbing could change what it names. */
const PLAIN = /^[A-Za-z0-9_./@%+,:=~-]+$/;
const isPlain = (w: string) => PLAIN.test(w) && !w.startsWith('~');

/** Splits at the operators that separate commands; a quoted operator stays in its word (the word is then not plain). */
function tokens(command: string): string[][] {
  const out: string[][] = [[]];
  const re = /\s*(>>|&&|\|\||[0-9]?>|[;|&\n]|'[^']*'|"(?:[^"\\]|\\.)*"|[^\s;|&>'"]+(?:'[^']*'|"(?:[^"\\]|\\.)*"|[^\s;|&>'"]*)*)/gy;
  let m: RegExpExecArray | null;
  while ((m = re.exec(command)) && m[0] !== '') {
    const t = m[1];
    if (t === undefined) break;
    if (t === '&&' || t === '||' || t === ';' || t === '|' || t === '&' || t === '\n') out.push([]);
    else out[out.length - 1].push(t);
  }
  return out.filter((c) => c.length > 0);
}

/** The operands of a command: its words after the command name that are not options (all of them after `--`). */
function operands(words: readonly string[], withValue: ReadonlySet<string> = new Set()): string[] {
  const out: string[] = [];
  let optionsEnd = false;
  for (let i = 1; i < words.length; i++) {
    const w = words[i];
    if (!optionsEnd && w === '--') optionsEnd = true;
    else if (!optionsEnd && w.startsWith('-') && w !== '-') {
      if (withValue.has(w)) i++;
    } else out.push(w);
  }
  return out;
}

function commandWrites(words: string[]): string[] {
  const files: string[] = [];
  // Redirections first: `> f`, `>> f`, `2> f`, wherever they stand in the command.
  const rest: string[] = [];
  for (let i = 0; i < words.length; i++) {
    if (/^[0-9]?>>?$/.test(words[i])) {
      const target = words[++i];
      if (target !== undefined && isPlain(target)) files.push(target);
    } else rest.push(words[i]);
  }
  const name = rest[0]?.split('/').pop();
  switch (name) {
    case 'sed': {
      if (!rest.some((w) => w === '--in-place' || /^-[a-zA-Z]*i/.test(w) || w.startsWith('--in-place='))) break;
      const ops = operands(rest, new Set(['-e', '-f', '--expression', '--file']));
      const scriptGiven = rest.some((w) => ['-e', '-f', '--expression', '--file'].includes(w) || /^--(expression|file)=/.test(w));
      files.push(...(scriptGiven ? ops : ops.slice(1)));
      break;
    }
    case 'mv': // the sources are gone and the target is written
    case 'rm':
    case 'tee':
      files.push(...operands(rest, new Set(['-t', '--target-directory'])));
      break;
    case 'cp': {
      const ops = operands(rest, new Set(['-t', '--target-directory']));
      if (ops.length >= 2) files.push(ops[ops.length - 1]);
      break;
    }
  }
  return files.filter(isPlain);
}

/** The files `command` writes by the rules above, as written in it (relative to the command's folder); none for a non-string. */
export function shellWrites(command: unknown): string[] {
  if (typeof command !== 'string' || command.length > 100_000) return [];
  return [...new Set(tokens(command).flatMap(commandWrites))];
}
