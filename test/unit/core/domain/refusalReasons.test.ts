// The refusal reasons are a closed list (src/core/domain/errors.ts) and the user doc's "Refusal reasons" table
// lists exactly that set: a reason added in code without a doc row, or a row for a reason nothing produces, fails.
// The envelope every surface answers with is built in one place (src/core/domain/responseEnvelope.ts).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ActionError, isProtocolRefusal, PROTOCOL_REFUSALS, REFUSAL_REASONS } from '../../../../src/core/domain/errors';
import { okResponse, refusal } from '../../../../src/core/domain/responseEnvelope';

const DOC = path.resolve(__dirname, '../../../../../docs/agentsync-documentation.md');

/** The reason codes in the first column of the doc's table (a row may name several, e.g. the pass-over codes). */
function documentedReasons(): string[] {
  const text = fs.readFileSync(DOC, 'utf8');
  const section = text.split('\n## Refusal reasons\n')[1]?.split('\n## ')[0] ?? '';
  const codes: string[] = [];
  for (const line of section.split('\n')) {
    if (!line.startsWith('| `')) continue;
    const firstCell = line.split('|')[1];
    // `CONFIG_INVALID` (`code: "E030"`, `key`): only the back-ticked codes outside the parentheses are reasons.
    const outside = firstCell.replace(/\([^)]*\)/g, '');
    codes.push(...[...outside.matchAll(/`([A-Za-z_]+)`/g)].map((m) => m[1]));
  }
  return codes;
}

describe('refusal reasons', () => {
  it('the doc table lists every reason of the closed union, and nothing else', () => {
    const documented = documentedReasons();
    assert.ok(documented.length > 20, `the table was not found in ${DOC}`);
    const inCode = new Set<string>(REFUSAL_REASONS);
    const inDoc = new Set(documented);
    assert.deepEqual(
      [...inCode].filter((r) => !inDoc.has(r)),
      [],
      'reasons the code produces without a row in the doc table',
    );
    assert.deepEqual(
      [...inDoc].filter((r) => !inCode.has(r)),
      [],
      'documented reasons missing from REFUSAL_REASONS',
    );
    assert.equal(documented.length, inDoc.size, 'a reason has two rows');
  });

  it('the list has no duplicates', () => {
    assert.equal(new Set(REFUSAL_REASONS).size, REFUSAL_REASONS.length);
  });
});

describe('the case of a reason (docs/contract.md §8)', () => {
  it("AgentSync's own reasons are lower snake_case; a protocol code's is its UPPER_SNAKE_CASE name, with an E0xx number", () => {
    const offRule = REFUSAL_REASONS.filter((r) =>
      isProtocolRefusal(r) ? !/^[A-Z]+(?:_[A-Z]+)*$/.test(r) || !/^E0\d\d$/.test(PROTOCOL_REFUSALS[r]) : !/^[a-z]+(?:_[a-z]+)*$/.test(r),
    );
    assert.deepEqual(offRule, []);
  });

  it('a protocol refusal carries its code first wherever it is raised, even when the raiser leaves it out', () => {
    for (const reason of Object.keys(PROTOCOL_REFUSALS) as (keyof typeof PROTOCOL_REFUSALS)[]) {
      const e = new ActionError(reason, 'refused', { key: 'passOver' });
      assert.deepEqual(Object.entries(e.details), [
        ['code', PROTOCOL_REFUSALS[reason]],
        ['key', 'passOver'],
      ]);
    }
    assert.deepEqual(new ActionError('permission_denied', 'refused', { path: 'x' }).details, { path: 'x' }, 'an own reason gets no code');
  });

  it('the only reasons that differ in case alone are the documented pair permission_denied (the file system) and PERMISSION_DENIED (E013)', () => {
    const lower = new Set(REFUSAL_REASONS.filter((r) => !isProtocolRefusal(r)));
    assert.deepEqual(
      Object.keys(PROTOCOL_REFUSALS).filter((name) => lower.has(name.toLowerCase() as never)),
      ['PERMISSION_DENIED'],
    );
    const doc = fs.readFileSync(DOC, 'utf8');
    assert.match(doc, /\| `permission_denied` \| [^\n]*not `PERMISSION_DENIED`/, 'the doc row says which is which');
  });

  it('docs/contract.md states the rule in one line', () => {
    const contract = fs.readFileSync(path.resolve(__dirname, '../../../../../docs/contract.md'), 'utf8');
    const rule = contract.split('\n').filter((line) => line.includes('**The case of a reason.**'));
    assert.equal(rule.length, 1);
    assert.match(rule[0], /lower snake_case/);
    assert.match(rule[0], /UPPER_SNAKE_CASE/);
  });
});

describe('response envelope', () => {
  it('a success carries ok, action, request_id, timestamp, request_file and data, in that order', () => {
    const r = okResponse('listHandoffs', { handoffs: [] }, { requestId: 'r1', requestFile: 'a.json' });
    assert.deepEqual(Object.keys(r), ['ok', 'action', 'request_id', 'timestamp', 'request_file', 'data']);
    assert.equal(r.ok, true);
    assert.ok(!Number.isNaN(Date.parse(r.timestamp)));
  });

  it('leaves out request_id and request_file when there are none', () => {
    assert.deepEqual(Object.keys(okResponse('init', {})), ['ok', 'action', 'timestamp', 'data']);
  });

  it('a refusal keeps its details beside reason and message, never over the envelope, and drops undefined ones', () => {
    const r = refusal('claimHandoff', 'already_claimed', 'held', {}, { claimedBy: 'claude', ok: true, message: 'x', gone: undefined });
    assert.equal(r.ok, false);
    assert.equal(r.reason, 'already_claimed');
    assert.equal(r.message, 'held');
    assert.equal(r.claimedBy, 'claude');
    assert.ok(!('gone' in r));
  });

  it('no file under src/ builds an envelope by hand (a timestamp beside ok and action)', () => {
    const src = path.resolve(__dirname, '../../../../../src');
    const handBuilt: string[] = [];
    const walk = (dir: string): void => {
      for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, e.name);
        if (e.isDirectory()) walk(full);
        else if (e.name.endsWith('.ts') && e.name !== 'responseEnvelope.ts') {
          const text = fs.readFileSync(full, 'utf8');
          if (/\bok: (true|false)\b[^\n]*\baction: [^\n]*\btimestamp:/.test(text)) handBuilt.push(path.relative(src, full));
        }
      }
    };
    walk(src);
    assert.ok(fs.existsSync(path.join(src, 'core/domain/responseEnvelope.ts')), `src/ not found at ${src}`);
    assert.deepEqual(handBuilt, [], 'build these with okResponse / refusal (src/core/domain/responseEnvelope.ts)');
  });
});
