// Bad input in the drop zone (docs/contract.md §8): every case gets a response that says what was wrong (or, when it
// cannot be answered, is moved to requests/rejected/ with a note), and handoffs.json stays byte-identical.
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DropZoneProcessor } from '../../../../src/core/dropZone/dropZoneProcessor';
import { MAX_REQUEST_BYTES, type RequestResponse } from '../../../../src/core/requests/requestDispatcher';
import { handoffIn } from '../../helpers/handoffFixtures';
import { makeTempDir, removeTempDirs, TestWorkspace } from '../../helpers/testWorkspace';

const create = (handoff: Record<string, unknown>) => ({
  action: 'createHandoff',
  handoff: { from_agent: 'codex', to_agents: ['claude'], owner_mode: 'single', summary: 'x', ...handoff },
});

interface Case {
  name: string;
  /** Puts the bad input in place; returns the request file name under requests/ (or 'request.json'). */
  setup(ws: TestWorkspace, outside: string): string;
  /** A refusal code, or 'rejected' (moved to rejected/ without an answer). */
  reason: string;
  /** A pattern the message must match (it says what was wrong). */
  message?: RegExp;
  field?: string;
  check?(ws: TestWorkspace, outside: string, response: RequestResponse | null): void;
}

function put(ws: TestWorkspace, name: string, content: string | Buffer): string {
  fs.writeFileSync(path.join(ws.layout.requestsDir, name), content);
  return name;
}

const CASES: Case[] = [
  {
    name: 'invalid JSON',
    setup: (ws) => put(ws, 'broken.json', '{"action": "listHandoffs",'),
    reason: 'invalid_json',
    message: /not valid JSON/,
  },
  { name: 'not an object', setup: (ws) => put(ws, 'array.json', '[1,2,3]'), reason: 'invalid_request', message: /one JSON object/ },
  { name: 'no action', setup: (ws) => put(ws, 'noaction.json', '{"agent":"claude"}'), reason: 'invalid_request', field: 'action' },
  {
    name: 'unknown action',
    setup: (ws) => put(ws, 'unknown.json', '{"action":"deleteEverything"}'),
    reason: 'unknown_action',
    message: /Unknown action "deleteEverything"/,
  },
  {
    name: 'schema violation: missing summary',
    setup: (ws) =>
      put(
        ws,
        'schema.json',
        JSON.stringify({ action: 'createHandoff', handoff: { from_agent: 'codex', to_agents: ['claude'], owner_mode: 'single' } }),
      ),
    reason: 'invalid_request',
    field: 'handoff.summary',
  },
  {
    name: 'schema violation: unknown field',
    setup: (ws) => put(ws, 'extra.json', JSON.stringify({ action: 'listHandoffs', drop: 'tables' })),
    reason: 'invalid_request',
    message: /unknown field/,
  },
  {
    name: 'path outside the workspace (..)',
    setup: (ws) => put(ws, 'escape.json', JSON.stringify(create({ files: ['../../etc/passwd'] }))),
    reason: 'invalid_request',
    field: 'handoff.files.0',
    message: /escape the workspace/,
  },
  {
    name: 'absolute path',
    setup: (ws) => put(ws, 'absolute.json', JSON.stringify(create({ files: ['/etc/passwd'] }))),
    reason: 'invalid_request',
    field: 'handoff.files.0',
    message: /absolute/,
  },
  {
    name: 'invalid request_id',
    setup: (ws) => put(ws, 'badid.json', JSON.stringify({ action: 'listHandoffs', request_id: '../../x' })),
    reason: 'invalid_request',
    field: 'request_id',
  },
  {
    name: 'over the size cap (refused before parsing: the content is not JSON either)',
    setup: (ws) => put(ws, 'huge.json', Buffer.alloc(MAX_REQUEST_BYTES + 1, 0x7b)),
    reason: 'too_large',
    message: /over the 1048576-byte limit/,
  },
  {
    name: 'symlink in requests/ (never followed; the link itself removed, its target kept)',
    setup: (ws, outside) => {
      fs.symlinkSync(path.join(outside, 'secret.json'), path.join(ws.layout.requestsDir, 'link.json'));
      return 'link.json';
    },
    reason: 'unsafe_file',
    message: /symbolic link/,
    check: (ws, outside) => {
      assert.equal(fs.readFileSync(path.join(outside, 'secret.json'), 'utf8'), JSON.stringify(create({ summary: 'secret' })));
      assert.equal(fs.existsSync(path.join(ws.layout.requestsDir, 'link.json')), false);
    },
  },
  {
    name: 'FIFO in requests/ (never opened: opening would block)',
    setup: (ws) => {
      execFileSync('mkfifo', [path.join(ws.layout.requestsDir, 'pipe.json')]);
      return 'pipe.json';
    },
    reason: 'unsafe_file',
    message: /FIFO/,
  },
  {
    name: 'symlinked request.json → result.json refusal, target kept',
    setup: (ws, outside) => {
      fs.symlinkSync(path.join(outside, 'secret.json'), ws.layout.requestFile);
      return 'request.json';
    },
    reason: 'unsafe_file',
    check: (ws, outside, response) => {
      assert.equal(response!.error, response!.message, '0.3 clients read `error`');
      assert.ok(fs.existsSync(path.join(outside, 'secret.json')));
      assert.equal(fs.existsSync(ws.layout.requestFile), false);
    },
  },
  {
    name: 'invalid JSON in request.json',
    setup: (ws) => (fs.writeFileSync(ws.layout.requestFile, 'nope'), 'request.json'),
    reason: 'invalid_json',
  },
  {
    name: 'request_id reused with different parameters',
    setup: (ws) => put(ws, 'reuse.json', JSON.stringify({ action: 'listHandoffs', request_id: 'seeded-id', open: true })),
    reason: 'request_id_reused',
  },
  {
    name: 'a folder named like a request: moved to rejected/ with a note',
    setup: (ws) => {
      fs.mkdirSync(path.join(ws.layout.requestsDir, 'folder.json'));
      fs.writeFileSync(path.join(ws.layout.requestsDir, 'folder.json', 'inside.txt'), 'kept');
      return 'folder.json';
    },
    reason: 'rejected',
    check: (ws) => {
      const moved = fs.readdirSync(ws.layout.rejectedDir).find((n) => n.endsWith('__folder.json'))!;
      assert.equal(fs.readFileSync(path.join(ws.layout.rejectedDir, moved, 'inside.txt'), 'utf8'), 'kept');
      assert.match(fs.readFileSync(path.join(ws.layout.rejectedDir, `${moved}.why.txt`), 'utf8'), /is a folder, not a request file/);
    },
  },
  {
    name: 'a name too long to be claimed: moved to rejected/ with a note',
    setup: (ws) => put(ws, `${'n'.repeat(240)}.json`, JSON.stringify({ action: 'listHandoffs' })),
    reason: 'rejected',
    check: (ws) => {
      const notes = fs.readdirSync(ws.layout.rejectedDir).filter((n) => n.endsWith('.why.txt'));
      assert.equal(notes.length, 1);
      assert.match(fs.readFileSync(path.join(ws.layout.rejectedDir, notes[0]), 'utf8'), /name is too long/);
    },
  },
  {
    name: 'a file name that is not valid UTF-8: moved to rejected/ with a note naming its bytes',
    setup: (ws) => {
      const bad = Buffer.concat([Buffer.from('bad'), Buffer.from([0xff, 0xfe]), Buffer.from('.json')]);
      fs.writeFileSync(Buffer.concat([Buffer.from(ws.layout.requestsDir + path.sep), bad]), JSON.stringify({ action: 'listHandoffs' }));
      return bad.toString('utf8');
    },
    reason: 'rejected',
    check: (ws) => {
      const raw = fs.readdirSync(ws.layout.requestsDir, { encoding: 'buffer' }).map((b) => b.toString('latin1'));
      assert.ok(!raw.some((n) => n.startsWith('bad')), 'it left requests/');
      const notes = fs.readdirSync(ws.layout.rejectedDir).filter((n) => n.endsWith('.why.txt'));
      assert.equal(notes.length, 1);
      const note = fs.readFileSync(path.join(ws.layout.rejectedDir, notes[0]), 'utf8');
      assert.match(note, /bad\\xff\\xfe\.json/);
      assert.match(note, /not valid UTF-8/);
    },
  },
];

function findResponse(ws: TestWorkspace, requestFile: string): RequestResponse | null {
  if (requestFile === 'request.json')
    return fs.existsSync(ws.layout.resultFile) ? (JSON.parse(fs.readFileSync(ws.layout.resultFile, 'utf8')) as RequestResponse) : null;
  if (!fs.existsSync(ws.layout.responsesDir)) return null;
  for (const n of fs.readdirSync(ws.layout.responsesDir)) {
    const r = JSON.parse(fs.readFileSync(path.join(ws.layout.responsesDir, n), 'utf8')) as RequestResponse;
    if (r.request_file === requestFile) return r;
  }
  return null;
}

describe('drop zone: bad input (table)', () => {
  after(removeTempDirs);

  for (const c of CASES) {
    it(`${c.name} → ${c.reason}`, async () => {
      const ws = new TestWorkspace({ handoffs: [handoffIn('queued')] });
      const outside = makeTempDir('agentsync-outside-');
      fs.writeFileSync(path.join(outside, 'secret.json'), JSON.stringify(create({ summary: 'secret' })));
      const seeded = await ws.dispatch({ action: 'listHandoffs', request_id: 'seeded-id' });
      assert.equal(seeded.ok, true);
      const processor = new DropZoneProcessor(ws.layout, ws.dispatcher);
      fs.mkdirSync(ws.layout.requestsDir, { recursive: true });
      const before = ws.storeBytes();
      const file = c.setup(ws, outside);

      const stats = await processor.processOnce();

      const response = findResponse(ws, file);
      if (c.reason === 'rejected') {
        assert.equal(response, null, 'a rejected request has no response');
        assert.equal(stats.rejected, 1);
      } else {
        assert.ok(response, `a response for ${file}`);
        assert.equal(response.ok, false);
        assert.equal(response.reason, c.reason, response.message);
        assert.ok(typeof response.message === 'string' && response.message.length > 20, 'the message says what was wrong');
        if (c.message) assert.match(response.message, c.message);
        if (c.field) assert.equal(response.field, c.field);
        if (file !== 'request.json') {
          assert.equal(response.request_file, file);
          // A reused id's refusal is named by the id and the file, so the first request's answer stays.
          const named = response.reason === 'request_id_reused' ? `${response.request_id}@${file}` : `${response.request_id}.json`;
          assert.ok(fs.existsSync(path.join(ws.layout.responsesDir, named)), `named ${named}`);
        }
      }
      c.check?.(ws, outside, response);
      assert.deepEqual(ws.storeBytes(), before, 'handoffs.json is byte-identical');
      assert.deepEqual(fs.readdirSync(processor.paths.inflightDir), [], 'no claim is left behind');
      assert.deepEqual(
        fs.readdirSync(ws.layout.requestsDir).filter((n) => n !== 'rejected' && !n.startsWith('.')),
        [],
        'the request left requests/',
      );
    });
  }
});
