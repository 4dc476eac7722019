// Hook packs (docs/agentsync-documentation.md, "Hook packs"): merged into the user's file without touching the user's
// entries, our outdated entry updated in place, unusable files refused; and which leases post-tool-use renews.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ActionError } from '../../../../src/core/domain/errors';
import { mergePack } from '../../../../src/core/hooks/hookPacks';
import { guardedHookCommand } from '../../../../src/core/hooks/missingCommand';
import { VENDORS, type VendorId } from '../../../../src/core/hooks/vendors';
import type { JsonPack } from '../../../../src/core/hooks/vendors/vendor';
import { leasesDue } from '../../../../src/core/hooks/leaseRenewal';

const REPO_ROOT = path.resolve(__dirname, '../../../../..');
const pack = (vendor: VendorId) => VENDORS[vendor].pack as JsonPack;

describe('hook packs', () => {
  it('the documented .cursor/hooks.json example is exactly what the merge makes of the user file', () => {
    const docs = fs.readFileSync(path.join(REPO_ROOT, 'docs/agentsync-documentation.md'), 'utf8');
    const example =
      /after `agentsync init --hooks` in a project that had an\n`afterFileEdit` hook of its own:\n\n```json\n([\s\S]*?)```/.exec(docs);
    assert.ok(example, 'the docs carry the example');
    const user = { version: 1, hooks: { afterFileEdit: [{ command: './scripts/format.sh' }] } };
    assert.deepEqual(mergePack(user, pack('cursor')), JSON.parse(example[1]));
  });

  it("an outdated AgentSync entry is replaced in place, never duplicated; the user's entries stay in order", () => {
    const user = {
      hooks: {
        Stop: [
          { hooks: [{ type: 'command', command: './my-stop.sh' }] },
          { hooks: [{ type: 'command', command: 'agentsync hook stop --agent claude', timeout: 5 }] },
        ],
      },
      model: 'opus',
    };
    const merged = mergePack(user, pack('claude'));
    const view = merged as unknown as { hooks: { Stop: { hooks: { command: string }[] }[] }; model: string };
    assert.equal(view.hooks.Stop.length, 2);
    assert.deepEqual(view.hooks.Stop[0], user.hooks.Stop[0]);
    assert.equal(view.hooks.Stop[1].hooks[0].command, guardedHookCommand('agentsync hook stop --agent claude --format claude'));
    assert.equal(view.model, 'opus');
    assert.deepEqual(mergePack(merged, pack('claude')), merged);
    assert.equal((user.hooks.Stop[1].hooks[0] as { timeout?: number }).timeout, 5, 'the input is not modified');
  });

  it('refuses a file it cannot merge into: another version, hooks not an object, an event list not an array', () => {
    const refused = (doc: unknown, vendor: VendorId, why: RegExp) =>
      assert.throws(
        () => mergePack(doc as never, pack(vendor)),
        (e: unknown) => e instanceof ActionError && e.reason === 'hooks_file_invalid' && why.test(e.message),
      );
    refused({ version: 2, hooks: {} }, 'copilot', /"version": 2/);
    refused({ hooks: [] }, 'codex', /"hooks" value that is not an object/);
    refused({ version: 1, hooks: { stop: {} } }, 'cursor', /hooks\.stop that is not an array/);
    refused([], 'claude', /not an object/);
  });
});

describe('post-tool-use lease renewal', () => {
  const store = (h: object) =>
    JSON.stringify({ version: 1, handoffs: [{ handoff_id: 'HO-20260310-001', status: 'in_progress', claimed_by: 'claude', ...h }] });
  const t = (iso: string) => Date.parse(iso);
  const lease = {
    claimed_at: '2026-03-10T12:00:00.000Z',
    updated_at: '2026-03-10T12:00:00.000Z',
    lease_expires_at: '2026-03-10T12:30:00.000Z',
  };

  it('renews only from half the lease on, measured from the last update', () => {
    assert.deepEqual(leasesDue(store(lease), 'claude', t('2026-03-10T12:14:59.000Z')), []);
    assert.deepEqual(leasesDue(store(lease), 'claude', t('2026-03-10T12:15:00.000Z')), ['HO-20260310-001']);
    const renewed = { ...lease, updated_at: '2026-03-10T12:20:00.000Z', lease_expires_at: '2026-03-10T12:50:00.000Z' };
    assert.deepEqual(leasesDue(store(renewed), 'claude', t('2026-03-10T12:34:00.000Z')), []);
    assert.deepEqual(leasesDue(store(renewed), 'claude', t('2026-03-10T12:35:00.000Z')), ['HO-20260310-001']);
  });

  it('ignores other holders, other statuses, and a store that is not JSON', () => {
    const late = t('2026-03-10T12:29:00.000Z');
    assert.deepEqual(leasesDue(store(lease), 'codex', late), []);
    assert.deepEqual(leasesDue(store({ ...lease, status: 'ready_for_review' }), 'claude', late), []);
    assert.deepEqual(leasesDue('{ "handoffs": [ "claude"', 'claude', late), []);
  });
});
