// Comments, test names, docs and tool descriptions cite only files in the repository (`docs/contract.md §n`): never a
// tracker's issue number and never the planning documents the project started from, which a reader of the
// repository cannot open. This test reads the text of every file a reader or an agent sees and names each such citation.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

// Compiled to out/test/architecture/: the repository is three levels up.
const REPO_ROOT = path.resolve(__dirname, '../../..');

/** What is read: the sources, tests, docs, scripts, benchmarks and agent templates, and the top-level text files (not CHANGELOG.md, a record of the past). */
const SCANNED = ['src', 'test', 'docs', 'bench', 'scripts', 'templates', 'demo', 'media', 'bin', 'README.md', 'package.json'];
const TEXT_FILE = /\.(?:ts|mts|cts|js|mjs|cjs|json|md|txt|sh|html|css)$/;

/**
 * A citation of something outside the repository, and what it is (the examples are in the second test below, built so
 * that this file does not cite anything itself):
 * - the word seed or seeds followed by a number 000 to 009 (with or without a section, a slash list, a suffix), or the
 *   word seed followed by the word document(s): the planning documents. A fuzz seed (a variable, any other number) is no citation.
 * - the word issue or issues followed by a number, with or without `#`: a tracker's number. The word in other senses
 *   (the `issues` of a completion report, a known issue, `issues: [...]`) is no citation.
 */
const CITATIONS: ReadonlyArray<{ pattern: RegExp; what: string }> = [
  { pattern: /\bseeds? 00\d(?!\d)/gi, what: 'a planning document' },
  { pattern: /\bseed documents?\b/gi, what: 'a planning document' },
  { pattern: /\bissues? #?\d+\b/gi, what: 'an issue number' },
];

/** `file:line: "match" (what)` for every citation in the given repository-relative files. */
function citations(files: ReadonlyMap<string, string>): string[] {
  const found: string[] = [];
  for (const [file, text] of files) {
    const lines = text.split('\n');
    lines.forEach((line, i) => {
      for (const { pattern, what } of CITATIONS) {
        for (const m of line.matchAll(pattern))
          found.push(`${file}:${i + 1}: "${m[0]}" cites ${what}; cite the docs/contract.md § it means`);
      }
    });
  }
  return found;
}

function readScanned(root: string): Map<string, string> {
  const files = new Map<string, string>();
  const visit = (relative: string): void => {
    const full = path.join(root, relative);
    if (!fs.existsSync(full)) return;
    if (fs.statSync(full).isDirectory()) {
      for (const entry of fs.readdirSync(full)) if (entry !== 'node_modules') visit(path.posix.join(relative, entry));
    } else if (TEXT_FILE.test(relative)) files.set(relative, fs.readFileSync(full, 'utf8'));
  };
  for (const entry of SCANNED) visit(entry);
  return files;
}

describe('citations: only files in the repository', () => {
  it('no comment, test name, doc or tool description cites a planning document or an issue number', () => {
    const files = readScanned(REPO_ROOT);
    assert.ok(files.has('src/cli/mcpTools.ts') && files.has('docs/contract.md') && files.has('README.md'), 'read the repository');
    assert.deepEqual(citations(files), []);
  });

  it('names each citation and lets the words seed and issue in their other senses be', () => {
    const seed = 'seed';
    const issue = 'issue';
    const files = new Map([
      [
        'src/a.ts',
        `// Checked as ${seed} 003 says (${seed.toUpperCase()} 000 §9), see ${seed}s 000/001 and the ${seed} documents; ${seed} 004_plan.`,
      ],
      ['test/b.test.ts', `describe('limits (${issue} 7 item 1)', () => {}); // ${issue.toUpperCase()} #12, ${issue}s 3 and 9`],
      [
        'docs/c.md',
        `The report's \`${issue}s\` (strings); a known ${issue}, 2 of them; ${issue}s: [1]; fuzz ${seed} 4242, ${seed} 0031 and ${seed} \${SEED}`,
      ],
    ]);
    assert.deepEqual(citations(files), [
      `src/a.ts:1: "${seed} 003" cites a planning document; cite the docs/contract.md § it means`,
      `src/a.ts:1: "${seed.toUpperCase()} 000" cites a planning document; cite the docs/contract.md § it means`,
      `src/a.ts:1: "${seed}s 000" cites a planning document; cite the docs/contract.md § it means`,
      `src/a.ts:1: "${seed} 004" cites a planning document; cite the docs/contract.md § it means`,
      `src/a.ts:1: "${seed} documents" cites a planning document; cite the docs/contract.md § it means`,
      `test/b.test.ts:1: "${issue} 7" cites an issue number; cite the docs/contract.md § it means`,
      `test/b.test.ts:1: "${issue.toUpperCase()} #12" cites an issue number; cite the docs/contract.md § it means`,
      `test/b.test.ts:1: "${issue}s 3" cites an issue number; cite the docs/contract.md § it means`,
    ]);
  });
});
