// A configured health-check command (`commands.build|test|deploy`) as an argv array, so it runs without a shell:
// no globbing, no pipes, no `$(...)`. A string is split into words with POSIX-style quoting; an array is used as is.
import { ActionError } from './errors';

/** Splits `npm run "unit tests" -- --grep 'a b'` into words; quotes group, a backslash escapes one character. */
export function splitCommandLine(line: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote === "'") {
      if (c === "'") quote = null;
      else word += c;
      continue;
    }
    if (quote === '"') {
      if (c === '"') quote = null;
      else if (c === '\\' && i + 1 < line.length && '"\\$`'.includes(line[i + 1])) word += line[++i];
      else word += c;
      continue;
    }
    if (c === "'" || c === '"') {
      quote = c;
      inWord = true;
    } else if (c === '\\' && i + 1 < line.length) {
      word += line[++i];
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (quote)
    throw new ActionError(
      'invalid_config',
      `The command ${JSON.stringify(line)} has an unclosed ${quote} quote; close it in .agentsync.json.`,
    );
  if (inWord) words.push(word);
  return words;
}

/** The argv of a configured command, or null when none is configured. */
export function commandArgv(command: string | readonly string[] | undefined): string[] | null {
  if (command === undefined) return null;
  const argv = typeof command === 'string' ? splitCommandLine(command) : [...command];
  return argv.length > 0 && argv[0].length > 0 ? argv : null;
}
