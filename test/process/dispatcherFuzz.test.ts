// 100,000+ generated requests through the real RequestDispatcher on a real store: wrong types, missing and
// extra fields, huge strings, "__proto__" / "constructor" / "prototype" keys at every level, unknown actions,
// non-object requests, and JSON text variants (invalid JSON, oversized, deeply nested) through dispatchText.
// Nothing may throw; every answer is a well-formed envelope; nothing pollutes a prototype; and a refused request
// changes nothing: handoffs.json (and the tracker and state.json) stay byte-identical with the same mtime.
// The generator is seeded: AGENTSYNC_FUZZ_SEED=<n> replays a run (the seed is printed and named in every failure).
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ACTION_NAMES, isActionName } from '../../src/core/requests/catalog';
import { handoffsFileSchema } from '../../src/core/domain/handoffSchema';
import { HandoffStore } from '../../src/core/store/handoffStore';
import { RequestDispatcher, type RequestResponse } from '../../src/core/requests/requestDispatcher';
import { initWorkspace } from '../../src/core/workspace/workspaceInit';
import { storeSeed } from '../../src/core/store/storeReader';
import { WorkspaceLayout } from '../../src/core/workspace/workspaceLayout';

const DEFAULT_SEED = 20_240_601;
const SEED = fuzzSeed(process.env.AGENTSYNC_FUZZ_SEED);

function fuzzSeed(given: string | undefined): number {
  if (given === undefined || given === '') return DEFAULT_SEED;
  if (!/^\d{1,10}$/.test(given) || Number(given) > 0xffffffff)
    throw new Error(`AGENTSYNC_FUZZ_SEED=${JSON.stringify(given)} is not a seed: give a whole number from 0 to 4294967295`);
  return Number(given);
}
/** Requests that must all be refused (the byte-identical check runs on these). */
const REFUSED_COUNT = 70_000;
/** Anything goes: valid requests mixed in, so the store changes and grows while junk arrives. */
const MIXED_COUNT = 40_000;
const BATCH = 1_000;

// ---------- a seeded generator ----------

let state = SEED >>> 0;
/** Every random choice below comes from rand(): the same seed gives the same requests in the same order. */
function reseed(seed: number): void {
  state = seed >>> 0;
}
function rand(): number {
  // mulberry32
  state = (state + 0x6d2b79f5) >>> 0;
  let t = state;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const int = (n: number) => Math.floor(rand() * n);
const chance = (p: number) => rand() < p;
/** A random item; objects and arrays come as fresh copies, so a later mutation of a request never edits the pools. */
function pick<T>(items: readonly T[]): T {
  const item = items[int(items.length)];
  return item !== null && typeof item === 'object' ? structuredClone(item) : item;
}

const HUGE = {
  k10: 'h'.repeat(10_000),
  k100: 'H'.repeat(100_000),
  m1: 'M'.repeat(1024 * 1024 + 10),
};
const WEIRD_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'valueOf',
  '__defineGetter__',
  '',
  ' ',
  'zz_extra',
  'Action',
  'ACTION',
  HUGE.k10,
];
const POLLUTION_MARKS = ['polluted', 'isAdmin', 'fuzzMark'];

/** Sets an own, enumerable property even for "__proto__" (a plain assignment would change the prototype instead). */
function setOwn(obj: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
}

function pollutionPayload(): Record<string, unknown> {
  const p: Record<string, unknown> = {};
  for (const m of POLLUTION_MARKS) p[m] = chance(0.5) ? true : 'yes';
  if (chance(0.3)) setOwn(p, '__proto__', { polluted: 'deep' });
  return p;
}

function randomString(): string {
  switch (int(12)) {
    case 0:
      return '';
    case 1:
      return pick([HUGE.k10, HUGE.k100]);
    case 2:
      return '\u0000\u0001\n\r\t\u2028\u2029';
    case 3:
      return '\uD800 lone surrogate \uDFFF';
    case 4:
      return '👍🏽 emoji ‮ rtl';
    case 5:
      return pick(WEIRD_KEYS);
    case 6:
      return '../../etc/passwd';
    case 7:
      return 'HO-20990101-001';
    case 8:
      return String(rand());
    default:
      return rand()
        .toString(36)
        .slice(2, 2 + int(12));
  }
}

function randomValue(depth = 0): unknown {
  switch (int(depth > 3 ? 8 : 11)) {
    case 0:
      return null;
    case 1:
      return chance(0.5);
    case 2:
      return pick([0, -1, 1.5, -0, NaN, Infinity, -Infinity, 1e308, Number.MAX_SAFE_INTEGER + 2, 2 ** 31]);
    case 3:
    case 4:
    case 5:
      return randomString();
    case 6:
      return undefined;
    case 7:
      return int(1000);
    case 8:
      return Array.from({ length: int(4) }, () => randomValue(depth + 1));
    case 9: {
      const o: Record<string, unknown> = chance(0.2) ? (Object.create(null) as Record<string, unknown>) : {};
      for (let i = int(4); i > 0; i--) setOwn(o, chance(0.5) ? pick(WEIRD_KEYS) : randomString().slice(0, 20), randomValue(depth + 1));
      return o;
    }
    default:
      return pollutionPayload();
  }
}

/** A value that survives JSON.stringify as a key's value (undefined would drop the key, and with it the break). */
function definedValue(): unknown {
  const v = randomValue(1);
  return v === undefined ? null : v;
}

/** Adds keys nobody declared ("__proto__" and friends) to `obj` and, now and then, to the objects inside it. */
function sprinkleWeirdKeys(obj: unknown, depth = 0): void {
  if (obj === null || typeof obj !== 'object' || depth > 4) return;
  for (const v of Object.values(obj)) if (chance(0.3)) sprinkleWeirdKeys(v, depth + 1);
  if (!Array.isArray(obj) && chance(0.5))
    setOwn(obj as Record<string, unknown>, pick(WEIRD_KEYS), chance(0.5) ? pollutionPayload() : definedValue());
}

function deepNest(depth: number, leaf: unknown = 1): unknown {
  let v: unknown = leaf;
  for (let i = 0; i < depth; i++) v = i % 2 ? [v] : { d: v };
  return v;
}

// ---------- valid templates, and the ways to break them ----------

interface Fixture {
  queued: string; // HO id of a queued handoff (to claude, from codex)
  inProgress: string; // claimed by claude
  review: string; // ready_for_review
  merged: string;
}

type Req = Record<string, unknown>;
const AGENTS = ['codex', 'claude', 'copilot'];
const missingId = () => pick(['HO-19990101-001', 'HO-19990101-123456', 'nope', '01ARZ3NDEKTSV4RRFFQ69G5FAV']);

function validTemplate(action: string, fx: Fixture): Req {
  switch (action) {
    case 'createHandoff':
      return {
        action,
        handoff: {
          from_agent: 'codex',
          to_agents: ['claude'],
          owner_mode: 'single',
          summary: `fuzz ${int(1e6)}`,
          notes: 'n',
          files: ['src/a.ts'],
          priority: 'high',
        },
      };
    case 'listHandoffs':
      return { action, status: pick(['queued', 'merged']), open: chance(0.5), limit: 1 + int(5) };
    case 'claimHandoff':
      return { action, handoffId: fx.queued, agent: 'claude' };
    case 'transitionHandoff':
      return { action, handoffId: fx.inProgress, agent: 'claude', to: 'blocked', reason: 'r' };
    case 'completeHandoff':
      return {
        action,
        handoffId: fx.inProgress,
        agent: 'claude',
        result: { status: 'complete', decision: 'PROCEED', context_summary: 'ok', findings: { a: 1 } },
      };
    case 'updateTodos':
      return { action, handoffId: fx.inProgress, agent: 'claude', todos: [{ id: 't1', content: 'c', status: 'pending' }] };
    default:
      return { action, handoffId: fx.inProgress, agent: 'claude' }; // heartbeat and the like
  }
}
const TEMPLATE_ACTIONS = [
  'createHandoff',
  'listHandoffs',
  'claimHandoff',
  'transitionHandoff',
  'completeHandoff',
  'updateTodos',
  'heartbeat',
];

/** Required fields per template, as paths; deleting one is always a schema violation. */
const REQUIRED: Record<string, string[][]> = {
  createHandoff: [['handoff'], ['handoff', 'from_agent'], ['handoff', 'owner_mode'], ['handoff', 'summary']],
  claimHandoff: [['handoffId'], ['agent']],
  transitionHandoff: [['handoffId'], ['agent'], ['to']],
  completeHandoff: [['handoffId'], ['agent'], ['result', 'status'], ['result', 'decision'], ['result', 'context_summary']],
  updateTodos: [['handoffId'], ['agent'], ['todos'], ['todos', '0', 'content']],
  heartbeat: [['handoffId'], ['agent']],
};
/** Fields (as paths) and values that are always wrong for them (wrong type, out of range, too long, bad enum). */
const WRONG: Record<string, [string[], unknown[]][]> = {
  createHandoff: [
    [['handoff'], [null, 'x', 5, [], true]],
    [
      ['handoff', 'from_agent'],
      [5, null, '', 'Not Valid!', HUGE.k10, [], {}],
    ],
    [
      ['handoff', 'to_agents'],
      ['claude', 5, [5], [null], [HUGE.k10], Array(11).fill('claude')],
    ],
    [
      ['handoff', 'owner_mode'],
      ['multi', 5, null, ''],
    ],
    [
      ['handoff', 'summary'],
      [5, null, '', '   ', HUGE.k10, [], {}],
    ],
    [
      ['handoff', 'notes'],
      [5, HUGE.k100, null],
    ],
    [
      ['handoff', 'files'],
      ['a', ['../x'], ['/etc/passwd'], ['C:\\x'], [''], [5], ['a\u0000b']],
    ],
    [
      ['handoff', 'priority'],
      ['urgent', 5],
    ],
  ],
  listHandoffs: [
    [['status'], ['done', 5, [5], ['queued', 'nope'], {}]],
    [['open'], ['yes', 1, null]],
    [['limit'], [0, -1, 1.5, '5', null, 1e9]],
  ],
  claimHandoff: [
    [['handoffId'], [5, null, '', HUGE.k10, [], {}]],
    [['agent'], [5, null, '', 'Bad Agent!', HUGE.k10, []]],
    [['expected_rev'], [-1, 1.5, '1', null, NaN]],
  ],
  transitionHandoff: [
    [['to'], ['done', 5, null, '', 'QUEUED']],
    [['reason'], [5, HUGE.k10, null]],
    [['agent'], [7, HUGE.k100]],
  ],
  completeHandoff: [
    [['result'], ['done', 5, null, []]],
    [
      ['result', 'status'],
      ['done', 5],
    ],
    [
      ['result', 'decision'],
      ['GO', null],
    ],
    [
      ['result', 'context_summary'],
      [5, HUGE.k100],
    ],
    [
      ['result', 'findings'],
      ['x', 5, []],
    ],
  ],
  updateTodos: [
    [['todos'], ['x', {}, null, [5], Array(201).fill({ id: 'a', content: 'b', status: 'pending' })]],
    [
      ['todos', '0', 'status'],
      ['done', 5],
    ],
  ],
  heartbeat: [[['handoffId'], [5, '', HUGE.k10]]],
};
/** Objects in each template that are strict (a key nobody declared is refused). */
const STRICT_PARTS: Record<string, string[][]> = {
  createHandoff: [[], ['handoff']],
  listHandoffs: [[]],
  claimHandoff: [[]],
  transitionHandoff: [[]],
  completeHandoff: [[], ['result']],
  updateTodos: [[], ['todos', '0']],
  heartbeat: [[]],
};

function at(obj: Req, p: string[]): Req | undefined {
  let cur: unknown = obj;
  for (const k of p) cur = cur && typeof cur === 'object' ? (cur as Req)[k] : undefined;
  return cur && typeof cur === 'object' ? (cur as Req) : undefined;
}

/** One way to break a valid request so that the schema must refuse it. */
function breakIt(req: Req, action: string): void {
  const how = int(5);
  if (how === 0 && REQUIRED[action]) {
    const p = pick(REQUIRED[action]);
    const parent = at(req, p.slice(0, -1));
    if (parent) {
      delete parent[p[p.length - 1]];
      if (p[0] === 'handoffId') delete req.handoff_id;
      return;
    }
  }
  if (how <= 2 && WRONG[action]) {
    const [p, values] = pick(WRONG[action]);
    const parent = at(req, p.slice(0, -1));
    if (parent) {
      parent[p[p.length - 1]] = pick(values);
      return;
    }
  }
  if (how === 3) {
    req.request_id = pick([5, null, '', 'has space', 'x'.repeat(129), '../../x', HUGE.k10, {}, []]);
    return;
  }
  const target = at(req, pick(STRICT_PARTS[action] ?? [[]])) ?? req;
  setOwn(target, chance(0.7) ? pick(WEIRD_KEYS) : `zz_${randomString().slice(0, 10)}`, chance(0.5) ? pollutionPayload() : definedValue());
}

/** Requests that pass the schema but that the store must refuse (given the fixture's fixed state). */
function storeRefusal(fx: Fixture): Req {
  switch (int(8)) {
    case 0:
      return { action: pick(['claimHandoff', 'heartbeat']), handoffId: missingId(), agent: pick(AGENTS) };
    case 1:
      return { action: 'transitionHandoff', handoffId: missingId(), agent: pick(AGENTS), to: 'blocked' };
    case 2:
      return { action: 'claimHandoff', handoffId: fx.inProgress, agent: pick(['codex', 'copilot']) }; // already_claimed
    case 3:
      return {
        action: 'transitionHandoff',
        handoffId: fx.merged,
        agent: pick(AGENTS),
        to: pick(['queued', 'in_progress', 'approved', 'blocked']),
      }; // terminal
    case 4:
      return { action: 'transitionHandoff', handoffId: fx.queued, agent: 'codex', to: pick(['approved', 'merged', 'ready_for_review']) }; // illegal move
    case 5:
      return { action: 'claimHandoff', handoffId: fx.queued, agent: 'claude', expected_rev: 50 + int(50) }; // stale_revision
    case 6:
      return { action: 'transitionHandoff', handoffId: fx.review, agent: 'claude', to: 'approved' }; // not the originator
    default:
      return { action: 'completeHandoff', handoffId: fx.review, agent: 'claude' }; // not from review
  }
}

/** A request (object or anything else) that must be refused. */
function refusedRequest(fx: Fixture): unknown {
  const kind = int(100);
  if (kind < 6) return pick<unknown>([null, 0, 42, 'listHandoffs', true, [], [{ action: 'listHandoffs' }], undefined, NaN]);
  if (kind < 12) {
    const r: Req = chance(0.2) ? (Object.create(null) as Req) : {};
    if (chance(0.5)) r.action = pick<unknown>([5, null, [], {}, true, ['listHandoffs']]);
    if (chance(0.5)) setOwn(r, pick(WEIRD_KEYS), pollutionPayload());
    return r;
  }
  if (kind < 20) {
    let name = pick([
      randomString(),
      '__proto__',
      'constructor',
      'prototype',
      'toString',
      'hasOwnProperty',
      'listhandoffs',
      ' listHandoffs',
      HUGE.k100,
    ]);
    if (isActionName(name)) name += '_not';
    const r: Req = { action: name };
    if (chance(0.5)) Object.assign(r, validTemplate(pick(TEMPLATE_ACTIONS), fx), { action: name });
    if (chance(0.5)) sprinkleWeirdKeys(r);
    return r;
  }
  if (kind < 32) {
    const r = storeRefusal(fx);
    if (chance(0.3)) r.request_id = `fuzz-reuse-${int(20)}`; // the same id again with other params → request_id_reused
    return r;
  }
  if (kind < 40) {
    // Actions without a template: a key they do not declare is refused by their strict schema.
    const r: Req = { action: pick(ACTION_NAMES) };
    setOwn(r, chance(0.5) ? pick(WEIRD_KEYS) : `zz_${int(1000)}`, pollutionPayload());
    return r;
  }
  const action = pick(TEMPLATE_ACTIONS);
  const r = validTemplate(action, fx);
  if (chance(0.3)) r.handoffId = missingId();
  breakIt(r, action);
  if (chance(0.3)) breakIt(r, action);
  if (chance(0.3)) sprinkleWeirdKeys(r);
  return r;
}

const INVALID_JSON = [
  '',
  ' ',
  '{',
  '}',
  '{"action":',
  "{'action':'listHandoffs'}",
  '{"action":"listHandoffs",}',
  'NaN',
  '[1,2',
  '\uFEFF{"action":"listHandoffs"}',
  '{"a":1}{"b":2}',
  'undefined',
  '{"action":"listHandoffs"',
  '// x\n{}',
  '\u0000',
];

/** JSON text that must be refused: invalid JSON, oversized, or valid JSON of a refused request. */
function refusedText(fx: Fixture): string {
  const kind = int(10);
  if (kind === 0) return pick(INVALID_JSON);
  if (kind === 1) {
    const text = JSON.stringify(validTemplate(pick(TEMPLATE_ACTIONS), fx));
    return text.slice(0, int(text.length - 1)); // a proper prefix of an object is never valid JSON
  }
  if (kind === 2) return chance(0.5) ? HUGE.m1 : `{"action":"listHandoffs","pad":"${HUGE.m1}"}`;
  if (kind === 3)
    return `{"action":"claimHandoff","action":"${pick(['nope', '__proto__', 'constructor'])}","handoffId":"${fx.queued}","agent":"claude"}`;
  if (kind === 4) {
    const inner = JSON.stringify(validTemplate('createHandoff', fx).handoff);
    return `{"action":"createHandoff","__proto__":{"polluted":"yes","isAdmin":true},"handoff":${inner}}`;
  }
  if (kind === 5)
    return (
      '{"action":"createHandoff","handoff":{"__proto__":{"polluted":1},"constructor":{"prototype":{"isAdmin":true}},' +
      '"from_agent":"codex","to_agents":["claude"],"owner_mode":"single","summary":"s"}}'
    );
  if (kind === 6) {
    const depth = pick([100, 5_000, 50_000]);
    return `{"action":"nope","deep":${'['.repeat(depth)}${']'.repeat(depth)}}`;
  }
  return JSON.stringify(refusedRequest(fx)) ?? 'undefined';
}

/** Anything: valid requests (some of which change the store), broken ones, deep and odd values. */
function mixedRequest(fx: Fixture): { raw: unknown; text?: string } {
  const kind = int(100);
  if (kind < 25) return { raw: refusedRequest(fx) };
  if (kind < 35) return { raw: undefined, text: refusedText(fx) };
  const action = pick(TEMPLATE_ACTIONS);
  const r = validTemplate(action, fx);
  if (action !== 'createHandoff' && action !== 'listHandoffs')
    r.handoffId = pick([fx.queued, fx.inProgress, fx.review, fx.merged, missingId()]);
  if ('agent' in r) r.agent = pick([...AGENTS, 'human', 'Claude', ' Codex ']);
  if (action === 'transitionHandoff')
    r.to = pick(['queued', 'in_progress', 'blocked', 'ready_for_review', 'approved', 'merged', 'escalated']);
  if (chance(0.1)) r.request_id = `fuzz-mixed-${int(200)}`;
  if (action === 'completeHandoff' && chance(0.5)) {
    const findings = (r.result as Req).findings as Req;
    // Records accept any key: "__proto__" there must stay inert, and very deep values must not crash anything.
    setOwn(findings, pick(['__proto__', 'constructor', 'prototype']), pollutionPayload());
    if (chance(0.3)) findings.deep = deepNest(pick([10, 200, 20_000]));
    if (chance(0.1)) findings.self = findings; // a cycle (only an in-process caller can send one)
  }
  if (chance(0.15)) return { raw: Object.assign(Object.create(null), r) };
  if (chance(0.3)) {
    try {
      return { raw: r, text: JSON.stringify(r) };
    } catch {
      // a cycle: only the in-process form exists
    }
  }
  return { raw: r };
}

// ---------- checks ----------

function envelopeProblem(r: unknown): string | null {
  if (r === null || typeof r !== 'object' || Array.isArray(r)) return 'not an object';
  const e = r as RequestResponse;
  if (typeof e.ok !== 'boolean') return 'ok is not a boolean';
  if (e.action !== null && typeof e.action !== 'string') return 'action is neither null nor a string';
  if (typeof e.request_id !== 'string' || e.request_id.length === 0) return 'no request_id';
  if (typeof e.timestamp !== 'string' || Number.isNaN(Date.parse(e.timestamp))) return 'no timestamp';
  if (e.ok && (e.data === null || typeof e.data !== 'object')) return 'ok without data';
  if (!e.ok && (typeof e.reason !== 'string' || e.reason.length === 0)) return 'refusal without a reason';
  if (!e.ok && (typeof e.message !== 'string' || e.message.length === 0)) return 'refusal without a message';
  try {
    JSON.stringify(e);
  } catch (err) {
    return `not serializable: ${(err as Error).message}`;
  }
  return null;
}

function preview(v: unknown): string {
  try {
    const s = typeof v === 'string' ? v : JSON.stringify(v);
    return (s ?? String(v)).slice(0, 300);
  } catch {
    return '(cyclic object)';
  }
}

const PROTOS: [string, object][] = [
  ['Object.prototype', Object.prototype],
  ['Array.prototype', Array.prototype],
  ['Function.prototype', Function.prototype],
  ['String.prototype', String.prototype],
];
/** Every own property of the built-in prototypes, by identity of its value, getter and setter. */
function prototypeSnapshot(): Map<string, PropertyDescriptor> {
  const m = new Map<string, PropertyDescriptor>();
  for (const [name, proto] of PROTOS) {
    for (const key of Reflect.ownKeys(proto)) m.set(`${name}.${String(key)}`, Object.getOwnPropertyDescriptor(proto, key)!);
  }
  return m;
}
const sameProperty = (a: PropertyDescriptor | undefined, b: PropertyDescriptor | undefined) =>
  !!a &&
  !!b &&
  Object.is(a.value, b.value) &&
  a.get === b.get &&
  a.set === b.set &&
  a.enumerable === b.enumerable &&
  a.writable === b.writable;

function fingerprint(layout: WorkspaceLayout): string {
  const st = fs.statSync(layout.handoffsFile);
  const hash = createHash('sha256');
  for (const f of [layout.handoffsFile, layout.trackerFile, layout.stateFile])
    hash.update(fs.existsSync(f) ? fs.readFileSync(f) : 'missing');
  return `${st.ino}:${st.size}:${st.mtimeMs}:${hash.digest('hex')}`;
}

// ---------- the test ----------

describe('RequestDispatcher fuzz', function () {
  this.timeout(300_000);
  before(() => console.log(`      dispatcher fuzz seed ${SEED} (replay with AGENTSYNC_FUZZ_SEED=${SEED})`));

  it('a seed replays its run: the same seed generates the same requests, another seed others', () => {
    const fx: Fixture = { queued: 'HO-20260101-001', inProgress: 'HO-20260101-002', review: 'HO-20260101-003', merged: 'HO-20260101-004' };
    const run = (seed: number) => {
      reseed(seed);
      const hash = createHash('sha256');
      for (let i = 0; i < 2_000; i++) hash.update(JSON.stringify(refusedRequest(fx)) ?? 'undefined').update('\n');
      return hash.digest('hex');
    };
    const first = run(SEED);
    assert.equal(run(SEED + 1) === first, false, 'another seed gives another run');
    assert.equal(run(SEED), first, `seed ${SEED} replays the same requests`);
  });

  it(`answers ${REFUSED_COUNT + MIXED_COUNT} generated requests without throwing, polluting, or changing the store on refusal (seed ${SEED})`, async () => {
    reseed(SEED);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agentsync-fuzz-'));
    initWorkspace(dir, storeSeed(dir));
    const layout = new WorkspaceLayout(dir);
    const warnings: string[] = [];
    const dispatcher = new RequestDispatcher(
      new HandoffStore(layout, { logger: { info: () => undefined, warn: (m) => warnings.push(m) } }),
      'fuzz',
    );
    const must = async (req: Req) => {
      const r = await dispatcher.dispatch(req);
      assert.ok(r.ok, `fixture request failed: ${JSON.stringify(r)}`);
      return (r.data as { handoff: { handoff_id: string } }).handoff.handoff_id;
    };
    const create = () =>
      must({ action: 'createHandoff', handoff: { from_agent: 'codex', to_agents: ['claude'], owner_mode: 'single', summary: 'fixture' } });
    const fx: Fixture = { queued: await create(), inProgress: await create(), review: await create(), merged: await create() };
    await must({ action: 'claimHandoff', handoffId: fx.inProgress, agent: 'claude' });
    for (const id of [fx.review, fx.merged]) {
      await must({ action: 'claimHandoff', handoffId: id, agent: 'claude' });
      await must({ action: 'completeHandoff', handoffId: id, agent: 'claude' });
    }
    await must({ action: 'transitionHandoff', handoffId: fx.merged, agent: 'codex', to: 'approved' });
    await must({ action: 'transitionHandoff', handoffId: fx.merged, agent: 'codex', to: 'merged' });

    const protoBefore = prototypeSnapshot();
    const problems: string[] = [];
    const note = (what: string, input: unknown, r: unknown) => {
      if (problems.length < 10) problems.push(`${what}\n        request: ${preview(input)}\n        response: ${preview(r)}`);
    };
    const send = async (raw: unknown, text?: string): Promise<RequestResponse | null> => {
      try {
        const r = text !== undefined ? await dispatcher.dispatchText(text) : await dispatcher.dispatch(raw);
        const problem = envelopeProblem(r);
        if (problem) note(`malformed envelope (${problem})`, text ?? raw, r);
        return r;
      } catch (e) {
        note(`dispatch threw ${(e as Error)?.stack?.split('\n').slice(0, 3).join(' | ')}`, text ?? raw, null);
        return null;
      }
    };
    const started = Date.now();
    const reasons = new Map<string, number>();
    let longestMessage = 0;

    // Phase 1: only requests that must be refused; the store and its derived files must not move at all.
    const before = fingerprint(layout);
    let checks = 0;
    for (let done = 0; done < REFUSED_COUNT; done += BATCH) {
      const inputs = Array.from({ length: BATCH }, () =>
        chance(0.3) ? { raw: undefined, text: refusedText(fx) } : { raw: refusedRequest(fx), text: undefined },
      );
      const answers = await Promise.all(inputs.map((i) => send(i.raw, i.text)));
      answers.forEach((r, k) => {
        if (!r) return;
        if (r.ok) note('a request that must be refused was accepted', inputs[k].text ?? inputs[k].raw, r);
        reasons.set(r.reason ?? 'ok', (reasons.get(r.reason ?? 'ok') ?? 0) + 1);
        longestMessage = Math.max(longestMessage, r.message?.length ?? 0);
      });
      assert.deepEqual(problems, [], `seed ${SEED}, refused batch at ${done}`);
      assert.equal(
        fingerprint(layout),
        before,
        `seed ${SEED}: handoffs.json, AgentTracker.md or state.json changed during refused batch at ${done}`,
      );
      checks++;
    }
    const refusedMs = Date.now() - started;

    // Phase 2: anything goes, valid requests included; every answer is still an envelope and the store stays valid.
    let accepted = 0;
    for (let done = 0; done < MIXED_COUNT; done += BATCH) {
      const inputs = Array.from({ length: BATCH }, () => mixedRequest(fx));
      const answers = await Promise.all(inputs.map((i) => send(i.raw, i.text)));
      for (const r of answers) if (r?.ok) accepted++;
      assert.deepEqual(problems, [], `seed ${SEED}, mixed batch at ${done}`);
    }

    const parsed = handoffsFileSchema.safeParse(JSON.parse(fs.readFileSync(layout.handoffsFile, 'utf8')));
    assert.ok(parsed.success, 'handoffs.json still matches the schema');
    const after = prototypeSnapshot();
    assert.deepEqual(
      [...after].filter(([k, v]) => !sameProperty(protoBefore.get(k), v)).map(([k]) => k),
      [],
      'no built-in prototype gained or changed a property',
    );
    assert.deepEqual(
      [...protoBefore.keys()].filter((k) => !after.has(k)),
      [],
      'no built-in prototype lost a property',
    );
    const fresh: Record<string, unknown> = {};
    for (const m of POLLUTION_MARKS) assert.equal(fresh[m], undefined, `a fresh {} has no ${m}`);
    assert.equal(Object.getPrototypeOf(fresh), Object.prototype);
    assert.deepEqual(warnings, [], 'the store reported no problem writing its files');

    fs.rmSync(dir, { recursive: true, force: true }); // kept for inspection when an assertion fails
    const top = [...reasons]
      .sort((a, b) => b[1] - a[1])
      .map(([r, n]) => `${r} ${n}`)
      .join(', ');
    console.log(
      `      (seed ${SEED}: ${REFUSED_COUNT} refused in ${(refusedMs / 1000).toFixed(1)} s with ${checks} byte-identical checks; ` +
        `${MIXED_COUNT} mixed in ${((Date.now() - started - refusedMs) / 1000).toFixed(1)} s, ${accepted} accepted; ` +
        `${parsed.data.handoffs.length} handoffs now)\n` +
        `      (refusal reasons: ${top}; longest message ${longestMessage} chars)`,
    );
  });
});
