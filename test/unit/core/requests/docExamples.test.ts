// Every example of the reference documentation (docs/agentsync-documentation.md) and README.md is run, so an
// example a user copies cannot silently rot:
// - each ```json request (an object with "action") is sent, exactly as written and in document order, through the
//   real dispatcher of a temp workspace seeded with what the text around it says exists; it must be answered as the
//   doc shows (ok: true, or the refusal reason the doc shows right after it);
// - each ```json response (an object with "ok") names a real action and, when refused, a reason code the code base
//   produces; when it documents one of the requests run here, its keys exist on the real answer;
// - each `agentsync …` command line of a ``` / ```bash block names a real verb and only flags that verb's --help lists.
// If an example fails here, fix the example in the doc (it is what users copy), not this test.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ACTION_NAMES } from '../../../../src/core/requests/catalog';
import { handoffSchema, type Handoff } from '../../../../src/core/domain/handoffSchema';
import type { RequestResponse } from '../../../../src/core/requests/requestDispatcher';
import { trustWorkspace, useTempTrustFile } from '../../helpers/commandTrust';
import { TestWorkspace, removeTempDirs } from '../../helpers/testWorkspace';

const REPO_ROOT = path.resolve(__dirname, '../../../../..');
const DOC = 'docs/agentsync-documentation.md';
const README = 'README.md';
const CLI = path.join(REPO_ROOT, 'bin/agentsync.js');
/** The day the doc's examples were run on: createHandoff then allocates the ids they name (HO-20261123-001, …). */
const DOC_DAY = '2026-11-23T09:00:00.000Z';

interface Fence {
  file: string;
  /** 1-based line of the opening fence. */
  line: number;
  lang: string;
  body: string;
  /** The text between the closing fence and the next fence (or the end), for what the doc says right after. */
  after: string;
  /** The `## ` heading the block is under. */
  section: string;
}

/** Fenced blocks of a markdown file, with the section they are in; a ```` fence may hold ``` lines. */
export function fences(file: string): Fence[] {
  const lines = fs.readFileSync(path.join(REPO_ROOT, file), 'utf8').split(/\r?\n/);
  const out: Fence[] = [];
  let section = '';
  for (let i = 0; i < lines.length; i++) {
    if (/^## /.test(lines[i])) section = lines[i].slice(3).trim();
    const open = /^\s*(`{3,})([\w-]*)\s*$/.exec(lines[i]);
    if (!open) continue;
    const ticks = open[1];
    let j = i + 1;
    while (j < lines.length && lines[j].trim() !== ticks) j++;
    let k = j + 1;
    while (k < lines.length && !/^\s*`{3,}/.test(lines[k]) && !/^#{1,6} /.test(lines[k])) k++;
    out.push({
      file,
      line: i + 1,
      lang: open[2],
      body: lines.slice(i + 1, j).join('\n'),
      after: lines.slice(j + 1, k).join('\n'),
      section,
    });
    i = j;
  }
  return out;
}

type Parsed = { kind: 'request' | 'response' | 'other'; value: Record<string, unknown> } | { kind: 'shortened' | 'lines' };

/** A ```json block parses, or is visibly not one JSON value: shortened with "…", JSON lines, or JSONC with `//`. */
function parseJsonBlock(f: Fence): Parsed {
  let value: unknown;
  try {
    value = JSON.parse(f.body);
  } catch {
    if (f.body.includes('…')) return { kind: 'shortened' };
    const nonEmpty = f.body.split('\n').filter((l) => l.trim() !== '' && !l.trim().startsWith('//'));
    try {
      JSON.parse(nonEmpty.join('\n'));
      return { kind: 'lines' };
    } catch {
      for (const l of nonEmpty) {
        try {
          JSON.parse(l);
        } catch (e) {
          assert.fail(
            `${f.file}:${f.line}: a \`\`\`json block that does not parse and is not marked as shortened (…): ${(e as Error).message}\n${f.body}`,
          );
        }
      }
      return { kind: 'lines' };
    }
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return { kind: 'other', value: {} };
  const obj = value as Record<string, unknown>;
  return { kind: 'ok' in obj ? 'response' : 'action' in obj ? 'request' : 'other', value: obj };
}

interface Example {
  fence: Fence;
  kind: 'request' | 'response' | 'other';
  value: Record<string, unknown>;
}

function jsonExamples(file: string): Example[] {
  const out: Example[] = [];
  for (const fence of fences(file).filter((f) => f.lang === 'json')) {
    const p = parseJsonBlock(fence);
    if ('value' in p) out.push({ fence, kind: p.kind, value: p.value });
  }
  return out;
}

/**
 * What the doc says a request is answered with: the ```json response right after it (nothing but blank lines
 * between), else an inline `{ "ok": … }` in a paragraph that starts with → or "answered by", else ok.
 */
function documentedOutcome(examples: Example[], i: number): { ok: boolean; reason?: string; response?: Example } {
  const ex = examples[i];
  const next = examples[i + 1];
  if (next && next.kind === 'response' && ex.fence.after.trim() === '' && next.fence.file === ex.fence.file) {
    return { ok: next.value.ok === true, reason: next.value.reason as string | undefined, response: next };
  }
  const para = ex.fence.after.trim().split(/\n\s*\n/)[0] ?? '';
  if (/^(→|answered by)/.test(para)) {
    const m = /"ok"\s*:\s*(true|false)(?:[^`]*?"reason"\s*:\s*"([^"]+)")?/.exec(para);
    if (m) return { ok: m[1] === 'true', reason: m[2] };
  }
  return { ok: true };
}

/** Every src/ file's text, to check a documented reason code is one the code base can produce. */
function sourceText(): string {
  const files: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.ts')) files.push(p);
    }
  };
  walk(path.join(REPO_ROOT, 'src'));
  return files.map((f) => fs.readFileSync(f, 'utf8')).join('\n');
}

/** The object block of a doc section that is neither a request nor a response (a config, a record). */
function objectUnder(examples: Example[], section: string, has: string): Record<string, unknown> {
  const found = examples.find((e) => e.kind === 'other' && e.fence.section === section && has in e.value);
  assert.ok(found, `${DOC}: no JSON object with "${has}" under "## ${section}"`);
  return structuredClone(found.value);
}

/** Seeds through the dispatcher, as the doc's text describes the repository; each must succeed. */
async function seed(ws: TestWorkspace, request: Record<string, unknown>, expectId?: string): Promise<void> {
  const r = await ws.dispatch(request);
  assert.equal(r.ok, true, `seeding ${JSON.stringify(request)} → ${JSON.stringify(r)}`);
  if (expectId) assert.equal((r.data?.handoff as Handoff).handoff_id, expectId);
  ws.clock.advance(1_000);
}

const createFor = (from: string, to: string, summary: string, files: string[]) => ({
  action: 'createHandoff',
  handoff: { from_agent: from, owner_mode: 'single', to_agents: [to], summary, files },
});

/**
 * The workspace each part of the docs describes. The doc's reference part (records, actions) runs in a workspace
 * with the example config of "## Configuration" and the example record of "## The handoff record"; "## Sessions"
 * says its examples ran with its own config, with HO-20261123-001 claimed by claude and HO-20261123-002 queued for
 * codex, and (for health and endSession) approved commands; the README's narrative starts from
 * `agentsync create --from codex --to claude …` in a fresh `agentsync init`.
 */
async function sceneFor(file: string, section: string, docExamples: Example[]): Promise<{ name: string; ws: TestWorkspace }> {
  if (file === README) {
    const ws = new TestWorkspace({ now: DOC_DAY });
    await seed(ws, createFor('codex', 'claude', 'Review the auth timeout fix', ['src/auth/session.ts']), 'HO-20261123-001');
    return { name: 'readme', ws };
  }
  if (section === 'Sessions') {
    const ws = new TestWorkspace({ now: DOC_DAY, config: objectUnder(docExamples, 'Sessions', 'commands') });
    await seed(ws, createFor('codex', 'claude', 'Fix the token refresh race', ['src/auth/session.ts']), 'HO-20261123-001');
    await seed(ws, { action: 'claimHandoff', handoffId: 'HO-20261123-001', agent: 'claude' });
    await seed(ws, createFor('claude', 'codex', 'Refactor the token store', ['src/auth/tokens.ts']), 'HO-20261123-002');
    trustWorkspace(ws.root);
    return { name: 'sessions', ws };
  }
  const record = objectUnder(docExamples, 'The handoff record', 'handoff_id');
  const parsed = handoffSchema.safeParse(record);
  assert.ok(parsed.success, `${DOC}: the example record does not validate: ${parsed.success ? '' : parsed.error.message}`);
  // As a git merge of the store left it: one field decided for a human to confirm (clearConflicts' example).
  const merged = {
    ...parsed.data,
    conflicts: [
      {
        field: 'notes',
        ours: parsed.data.notes,
        theirs: 'Check the retry path too.',
        resolved_to: parsed.data.notes,
        at: parsed.data.updated_at,
      },
    ],
  };
  const ws = new TestWorkspace({
    now: DOC_DAY,
    config: objectUnder(docExamples, 'Configuration', 'agentCapabilities'),
    handoffs: [merged],
  });
  return { name: 'reference', ws };
}

type Req = Record<string, unknown> & { to?: unknown; override?: Record<string, unknown> };

/** Each piece of delegation (docs/contract.md §6), shown by a request example answered as the doc says. */
const DELEGATION_PIECES: Record<string, (req: Req, res: RequestResponse) => boolean> = {
  'fan-out': (q, r) => q.action === 'passOver' && Array.isArray(q.to) && q.to.length >= 2 && r.ok,
  'work context': (q, r) => q.action === 'passOver' && 'context' in q && r.ok,
  'context over its cap (E012)': (q, r) => q.action === 'passOver' && 'context' in q && r.code === 'E012',
  'a read-only receiver': (q, r) => q.action === 'passOver' && q.override?.can_modify_files === false && r.ok,
  'an output schema': (q, r) => q.action === 'passOver' && q.override?.validate_output === true && r.ok,
  'a report refused by its output schema (E021)': (q, r) => q.action === 'returnHandoff' && r.code === 'E021',
  'per-file review': (q, r) => q.action === 'reviewFiles' && r.ok,
  withdraw: (q, r) => q.action === 'withdrawPass' && r.ok,
  'a loop across separate handoffs (E003)': (q, r) => q.action === 'createHandoff' && r.code === 'E003',
  'the pair limit': (q, r) => q.override?.max_handoffs_per_pair_per_hour !== undefined && r.ok,
};

/**
 * Request examples that cannot be answered ok in a unit test are still sent and must pass the parameter schema
 * (not invalid_request / unknown_action). Keyed by `<file>:<action>:<request_id or first line>`; each with its reason.
 * Empty: every request example of the docs runs for real.
 */
const SCHEMA_ONLY: Record<string, string> = {};

describe('documentation examples', () => {
  useTempTrustFile();
  afterEach(removeTempDirs);

  // Read in a hook, so a block that does not parse fails the suite with its file and line.
  let docExamples: Example[] = [];
  let all: Example[] = [];
  before(() => {
    docExamples = jsonExamples(DOC);
    all = [...docExamples, ...jsonExamples(README)];
  });

  it('every ```json block parses (or is visibly shortened with …), and the docs hold requests and responses', () => {
    const requests = all.filter((e) => e.kind === 'request');
    const responses = all.filter((e) => e.kind === 'response');
    assert.ok(requests.length >= 15, `expected the request examples of every action, found ${requests.length}`);
    assert.ok(responses.length >= 10, `found ${responses.length} response examples`);
  });

  it('every request example is answered as documented, in document order, in the workspace its text describes', async function () {
    this.timeout(60_000);
    const src = sourceText();
    const realById = new Map<string, RequestResponse>();
    const pairs: { doc: Example; real: RequestResponse }[] = [];
    const actionsRun = new Set<string>();
    const piecesRun = new Set<string>();
    let scene: { name: string; ws: TestWorkspace } | null = null;
    let ran = 0;
    for (const file of [DOC, README]) {
      const examples = all.filter((e) => e.fence.file === file);
      for (let i = 0; i < examples.length; i++) {
        const ex = examples[i];
        if (ex.kind !== 'request') continue;
        const where = `${file}:${ex.fence.line} (## ${ex.fence.section})`;
        const wanted = file === README ? 'readme' : ex.fence.section === 'Sessions' ? 'sessions' : 'reference';
        if (scene?.name !== wanted) scene = await sceneFor(file, ex.fence.section, docExamples);
        const response: RequestResponse = await scene.ws.dispatcher.dispatchText(ex.fence.body);
        scene.ws.clock.advance(1_000);
        const shown = `${where}\n${ex.fence.body}\n→ ${JSON.stringify(response)}`;
        const key = `${file}:${String(ex.value.action)}:${typeof ex.value.request_id === 'string' ? ex.value.request_id : ex.fence.body.split('\n')[0]}`;
        if (SCHEMA_ONLY[key]) {
          assert.ok(!['invalid_request', 'unknown_action', 'invalid_json'].includes(response.reason ?? ''), shown);
          continue;
        }
        const outcome = documentedOutcome(examples, i);
        assert.equal(response.ok, outcome.ok, `the doc shows ok: ${outcome.ok}: ${shown}`);
        if (!outcome.ok) assert.equal(response.reason, outcome.reason, shown);
        if (outcome.response) pairs.push({ doc: outcome.response, real: response });
        if (typeof ex.value.request_id === 'string') realById.set(ex.value.request_id, response);
        actionsRun.add(response.action as string);
        for (const [piece, shows] of Object.entries(DELEGATION_PIECES)) if (shows(ex.value, response)) piecesRun.add(piece);
        ran++;
      }
    }
    for (const a of [
      'createHandoff',
      'listHandoffs',
      'claimHandoff',
      'transitionHandoff',
      'completeHandoff',
      'passOver',
      'heartbeat',
      'updateTodos',
      'expireLeases',
      'clearConflicts',
      'startSession',
      'endSession',
      'status',
      'health',
    ]) {
      assert.ok(actionsRun.has(a), `no example of ${a} was run`);
    }
    assert.ok(ran >= 15, `ran ${ran}`);
    const missing = Object.keys(DELEGATION_PIECES).filter((p) => !piecesRun.has(p));
    assert.deepEqual(missing, [], 'each piece of delegation has an example of its own that is run');

    // Responses: a real action, a real reason code; the keys of those that document a request run above exist on its real answer.
    const known = new Set<string>([...ACTION_NAMES, 'init', 'watch']);
    const onlyFromDropZone = new Set(['request_file']);
    for (const ex of all.filter((e) => e.kind === 'response')) {
      const where = `${ex.fence.file}:${ex.fence.line}`;
      assert.ok(known.has(ex.value.action as string), `${where}: "${String(ex.value.action)}" is not an action`);
      if (ex.value.ok === false) {
        const reason = ex.value.reason as string;
        assert.ok(
          typeof reason === 'string' && new RegExp(`['"\`]${reason}['"\`]`).test(src),
          `${where}: reason ${reason} is not produced anywhere in src/`,
        );
      }
      const pair =
        pairs.find((p) => p.doc === ex)?.real ?? (typeof ex.value.request_id === 'string' ? realById.get(ex.value.request_id) : undefined);
      if (!pair) continue;
      assert.equal(pair.ok, ex.value.ok, where);
      assert.equal(pair.action, ex.value.action, where);
      for (const k of Object.keys(ex.value)) {
        if (!onlyFromDropZone.has(k))
          assert.ok(k in pair, `${where}: the doc shows "${k}", the real answer has ${Object.keys(pair).join(', ')}`);
      }
      const docData = ex.value.data as Record<string, unknown> | undefined;
      if (docData && pair.data) {
        for (const k of Object.keys(docData).filter((k) => k !== '…')) {
          assert.ok(k in pair.data, `${where}: the doc shows data.${k}, the real answer's data has ${Object.keys(pair.data).join(', ')}`);
        }
      }
    }
  });

  it('every `agentsync …` command of a ``` / ```bash block or an inline code span names a real verb and flags its --help lists', () => {
    const GLOBAL_WITH_VALUE = new Set(['--dir']);
    const GLOBAL = new Set(['--json', '--dir']);
    const uses = new Map<string, { flags: Set<string>; where: string[] }>();
    const note = (commandLine: string, where: string) => {
      // Optional parts ([--reason …]) and alternatives (a table's `\|`) are read as written; " #" starts a shell
      // comment; ";", " | " and " && " end the command.
      const words = commandLine
        .replace(/\s#.*$/, '')
        .replace(/\\\|/g, ' ')
        .split(/;|\s\|\s|\s&&\s/)[0]
        .replace(/[[\]]/g, ' ')
        .trim()
        .split(/\s+/);
      let w = 0;
      while (GLOBAL.has(words[w])) w += GLOBAL_WITH_VALUE.has(words[w]) ? 2 : 1;
      const verb = words[w];
      // No verb (`agentsync --help`, the global help), a placeholder (`<command>`), or a line agentsync printed ("agentsync merge-driver: …").
      if (!verb || /^[<-]/.test(verb) || verb.endsWith(':')) return;
      const use = uses.get(verb) ?? { flags: new Set<string>(), where: [] };
      for (const word of words) if (/^--[a-z][a-z-]*$/.test(word) && word !== '--help') use.flags.add(word);
      use.where.push(where);
      uses.set(verb, use);
    };
    let blockLines = 0;
    let spans = 0;
    for (const file of [DOC, README]) {
      const all = fences(file);
      for (const f of all.filter((x) => x.lang === '' || x.lang === 'bash')) {
        f.body.split('\n').forEach((raw, n) => {
          // A command starts the line (after an optional prompt) or follows a pipe.
          const m = /^(?:\$ )?agentsync (.*)$/.exec(raw.trim()) ?? /\| agentsync (.*)$/.exec(raw);
          if (m) {
            note(m[1], `${file}:${f.line + 1 + n}`);
            blockLines++;
          }
        });
      }
      // Inline spans outside fenced blocks: `agentsync claim HO-… --agent claude [--expected-rev 1]`.
      const inFence = new Set(all.flatMap((f) => Array.from({ length: f.body.split('\n').length + 2 }, (_, k) => f.line + k)));
      fs.readFileSync(path.join(REPO_ROOT, file), 'utf8')
        .split(/\r?\n/)
        .forEach((line, n) => {
          if (inFence.has(n + 1)) return;
          for (const m of line.matchAll(/`(?:\$ )?agentsync ([^`]*)`/g)) {
            note(m[1], `${file}:${n + 1}`);
            spans++;
          }
        });
    }
    assert.ok(blockLines >= 20 && spans >= 30, `found ${blockLines} command lines in blocks and ${spans} inline commands`);
    assert.ok(uses.size >= 8, `found the verbs ${[...uses.keys()].join(', ')}`);
    for (const [verb, use] of uses) {
      const r = spawnSync(process.execPath, [CLI, verb, '--help'], { encoding: 'utf8' });
      assert.equal(r.status, 0, `${use.where.join(', ')}: agentsync ${verb} --help → exit ${r.status}: ${r.stderr}`);
      assert.ok(r.stdout.startsWith(`agentsync ${verb}`), `${use.where.join(', ')}: ${r.stdout}`);
      for (const flag of use.flags) {
        assert.ok(
          new RegExp(`${flag}(?![a-z-])`).test(r.stdout),
          `${use.where.join(', ')}: agentsync ${verb} has no ${flag} (its --help:\n${r.stdout})`,
        );
      }
    }
  });
});
