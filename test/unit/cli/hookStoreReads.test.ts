// The tool hooks (the fast path of src/cli/hookMain.ts, and src/cli/hookVerb.ts) read the store through the store's
// reader (src/core/store/storeReader.ts), once per hook run: Gemini CLI's post-tool-use gives the conflict radar's
// warning and checks the agent's leases, both from the same read. Counts the reads of the store file by wrapping fs.readFileSync.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import nodeFs from 'node:fs'; // the module object itself, whose readFileSync every importer calls through
import * as os from 'node:os';
import * as path from 'node:path';
import { answeredHere } from '../../../src/cli/hookMain';
import { runCli } from '../../../src/cli/main';
import { parseHookArgs, type HookArgs } from '../../../src/core/hooks/hookInput';
import { headFor, recordText, SEPARATOR, TAIL } from '../../../src/core/store/storeFormat';
import type { Handoff } from '../../../src/core/domain/handoffSchema';
import { makeHandoff } from '../helpers/handoffFixtures';

const minutes = (n: number) => new Date(Date.now() + n * 60_000).toISOString();

function held(id: string, by: string, files: string[]): Handoff {
  return makeHandoff({
    handoff_id: id,
    status: 'in_progress',
    to_agents: [by],
    claimed_by: by,
    claimed_at: minutes(-1),
    updated_at: minutes(-1),
    lease_expires_at: minutes(29), // fresh: nothing due
    files,
  });
}

describe('the tool hooks read the store once', () => {
  let ws: string;
  let storeFile: string;
  const realRead = fs.readFileSync;
  let storeReads = 0;

  beforeEach(() => {
    ws = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'agentsync-hook-reads-')));
    fs.mkdirSync(path.join(ws, '.agentsync'));
    fs.writeFileSync(path.join(ws, '.agentsync.json'), '{}\n');
    storeFile = path.join(ws, '.agentsync', 'handoffs.json');
    const handoffs = [held('HO-20260310-001', 'codex', ['src/contested.ts']), held('HO-20260310-002', 'gemini', ['src/mine.ts'])];
    fs.writeFileSync(
      storeFile,
      Buffer.concat([headFor(undefined), Buffer.from(handoffs.map(recordText).join(SEPARATOR.toString())), TAIL]),
    );
    storeReads = 0;
    nodeFs.readFileSync = function (this: unknown, ...args: Parameters<typeof fs.readFileSync>) {
      if (typeof args[0] === 'string' && path.resolve(args[0]) === storeFile) storeReads++;
      return realRead.apply(this, args);
    } as typeof fs.readFileSync;
  });

  afterEach(() => {
    nodeFs.readFileSync = realRead;
    fs.rmSync(ws, { recursive: true, force: true });
  });

  function args(event: string, vendor: string): HookArgs {
    const parsed = parseHookArgs(['--dir', ws, event, '--format', vendor], {});
    if ('error' in parsed) throw new Error(parsed.error);
    return parsed;
  }

  const writeOf = (file: string) => ({ cwd: ws, tool_name: 'write_file', tool_input: { file_path: path.join(ws, file) } });

  it("Gemini's post-tool-use: the radar's warning and the lease check from one read", () => {
    const here = answeredHere(args('post-tool-use', 'gemini'), writeOf('src/contested.ts'));
    assert.equal(here.done, true, 'no lease of gemini is due: nothing for the full CLI');
    assert.match(JSON.stringify(here.answer), /claimed by codex in HO-20260310-001/);
    assert.equal(storeReads, 1, 'the store was read once');
  });

  it("the full CLI's post-tool-use (agentsync hook): the lease check and the radar from one read", async () => {
    const out: string[] = [];
    const io = {
      out: (t: string) => void out.push(t),
      err: (t: string) => void out.push(t),
      readStdin: () => Promise.resolve(JSON.stringify(writeOf('src/contested.ts'))),
    };
    const code = await runCli(['--dir', ws, 'hook', 'post-tool-use', '--format', 'gemini'], io);
    assert.equal(code, 0);
    assert.match(out.join('\n'), /claimed by codex in HO-20260310-001/);
    assert.equal(storeReads, 1, 'the store was read once');
  });

  it("Gemini's pre-tool-use reads the store once, a call that writes nothing too (a held pass may forbid any tool)", () => {
    answeredHere(args('pre-tool-use', 'gemini'), writeOf('src/contested.ts'));
    assert.equal(storeReads, 1);
    storeReads = 0;
    const here = answeredHere(args('pre-tool-use', 'gemini'), { cwd: ws, tool_name: 'read_file', tool_input: {} });
    assert.deepEqual(here, { done: true, answer: null });
    // can_run_tools: false denies even a read (hooks/passPermissions.ts), so the held passes are looked up: once.
    assert.equal(storeReads, 1);
  });
});
