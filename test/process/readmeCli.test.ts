// Black-box: README's "The CLI in one minute" block, run exactly as written, line by line in one bash, in a fresh git
// repository with `agentsync` on PATH. Each line must exit 0 (or the code its comment shows as "(exit N)"), and a
// comment that starts with output must match what the line printed:
// - `{"ok":false,"reason":…,...}`: the JSON object the comment starts with; each key it shows has that value on the
//   printed object ("..." stands for the keys left out);
// - `HO-… …` or `<word> HO-… …` (created, claimed, returned…): the whole comment is the printed text, whitespace
//   collapsed, "…" standing for any text and HO-20261123-NNN for today's ids.
// If a line fails here, fix README (it is what users copy), not this test.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CLI, REPO_ROOT, tempWorkspace } from './processHarness';

const SECTION = '## The CLI in one minute';
const MARK = '@@readme-line-done';

/** The ```bash block under SECTION, one string per line. */
function readmeCliLines(): string[] {
  const text = fs.readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');
  const at = text.indexOf(`\n${SECTION}\n`);
  assert.ok(at >= 0, `README.md has no "${SECTION}" section`);
  const block = /```bash\n([\s\S]*?)\n```/.exec(text.slice(at));
  assert.ok(block, `no \`\`\`bash block under "${SECTION}"`);
  return block[1].split('\n').filter((l) => l.trim() !== '');
}

/** The comment of a shell line: what follows the first " # " outside quotes. */
function commentOf(line: string): string {
  let quote: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote) {
      if (c === quote) quote = null;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === '#' && /\s/.test(line[i - 1] ?? '')) return line.slice(i + 1).trim();
  }
  return '';
}

/** The leading {...} of a comment, balanced (strings may hold braces). */
function leadingObject(comment: string): string {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < comment.length; i++) {
    const c = comment[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return comment.slice(0, i + 1);
  }
  throw new Error(`unbalanced JSON in the comment: ${comment}`);
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const collapse = (s: string) => s.replace(/\s+/g, ' ').trim();

/** A shown text as a pattern: "…" any text, an id of any day, whitespace collapsed. */
function shownPattern(shown: string): RegExp {
  const parts = collapse(shown)
    .split(/…|\.\.\./)
    .map((p) => escapeRe(p).replace(/HO-\d{8}-/g, 'HO-\\d{8}-'));
  return new RegExp(parts.join('.*'));
}

interface LineRun {
  line: string;
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the lines in one bash (so `x=$(…)` carries to the next lines), each followed by a marker with its exit code. */
function runLines(lines: string[], cwd: string, env: NodeJS.ProcessEnv): LineRun[] {
  const script = lines.map((l) => `${l}\n__rc=$?; echo "${MARK} $__rc"; echo "${MARK} $__rc" >&2\n`).join('');
  // A line that never ends (a server waiting for Ctrl-C) is a README bug: the block is cut off and the line fails.
  const r = spawnSync('bash', ['--norc', '--noprofile', '-c', script], {
    cwd,
    env,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 60_000,
    killSignal: 'SIGKILL',
  });
  const split = (text: string) => text.split(new RegExp(`^${MARK} (\\d+)\\n`, 'm'));
  const out = split(r.stdout);
  const err = split(r.stderr);
  return lines.map((line, i) => ({ line, stdout: out[2 * i] ?? '', code: Number(out[2 * i + 1] ?? -1), stderr: err[2 * i] ?? '' }));
}

describe("README's CLI block (process)", function () {
  this.timeout(120_000);

  it('every line runs as written in a fresh git repository, with the exit code and the output its comment shows', () => {
    const lines = readmeCliLines();
    assert.ok(lines.length >= 15, `the block has ${lines.length} lines`);
    assert.match(lines[0], /^agentsync init\s/, 'the block starts in a fresh repository with agentsync init');
    const repo = tempWorkspace('readme');
    assert.equal(spawnSync('git', ['init', '-q'], { cwd: repo }).status, 0);
    const bin = tempWorkspace('readme-bin');
    fs.writeFileSync(path.join(bin, 'agentsync'), `#!/bin/sh\nexec "${process.execPath}" "${CLI}" "$@"\n`, { mode: 0o755 });
    const env = {
      ...process.env,
      PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}`,
      XDG_CONFIG_HOME: tempWorkspace('readme-config'),
      AGENTSYNC_AGENT: '',
      // The block commits (its worktree lines need a commit): a user has a git identity.
      GIT_AUTHOR_NAME: 'Readme',
      GIT_AUTHOR_EMAIL: 'readme@example.com',
      GIT_COMMITTER_NAME: 'Readme',
      GIT_COMMITTER_EMAIL: 'readme@example.com',
    };
    let outputsChecked = 0;
    for (const run of runLines(lines, repo, env)) {
      const comment = commentOf(run.line);
      const shown = `${run.line}\n→ exit ${run.code}\nstdout: ${run.stdout}\nstderr: ${run.stderr}`;
      const exit = /\(exit (\d+)\)/.exec(comment);
      assert.equal(run.code, exit ? Number(exit[1]) : 0, shown);
      if (comment.startsWith('{')) {
        const expected = JSON.parse(leadingObject(comment).replace(/,\s*\.\.\.|\.\.\.,?/g, '')) as Record<string, unknown>;
        const printed = JSON.parse(run.stdout) as Record<string, unknown>;
        for (const [k, v] of Object.entries(expected)) assert.deepEqual(printed[k], v, `"${k}": ${shown}`);
        outputsChecked++;
      } else if (/^([a-z]+ )?HO-\d{8}-\d{3}\b/.test(comment)) {
        assert.match(collapse(run.stdout), shownPattern(comment), shown);
        outputsChecked++;
      }
    }
    assert.ok(outputsChecked >= 8, `only ${outputsChecked} comments show output`);
    // What the block leaves is what its comments say it made.
    assert.ok(fs.existsSync(path.join(repo, 'report.json')));
    assert.match(fs.readFileSync(path.join(repo, '.agentsync.json'), 'utf8'), /"claude->copilot"/);
  });
});
