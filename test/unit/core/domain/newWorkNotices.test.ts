// New work for this window's agent (src/core/domain/newWorkNotices.ts), its pacing (src/vscode/notices/
// notificationPacer.ts) and its text (newWorkMessage): once each, never what was there when the window opened,
// never one's own or a notify_on_return (returnNotices.ts announces those), at most one notification per gap.
import { strict as assert } from 'node:assert';
import { NewWorkNotices, isNewWorkFor } from '../../../../src/core/domain/newWorkNotices';
import { NotificationPacer } from '../../../../src/vscode/notices/notificationPacer';
import { newWorkMessage } from '../../../../src/vscode/notices/newWorkMessage';
import { handoffIn, makeHandoff } from '../../helpers/handoffFixtures';

const forHuman = (n: number, over = {}) =>
  makeHandoff({ handoff_id: `HO-20260221-00${n}`, uid: `01JSEED000000000000000000${n}`, to_agents: ['human'], ...over });

describe('new work notices', () => {
  it('hands out a handoff created for me by another agent once, and nothing that was there at the first look', () => {
    const notices = new NewWorkNotices();
    const before = forHuman(1);
    assert.deepEqual(notices.take([before], 'human'), []);
    const arrived = forHuman(2);
    assert.deepEqual(
      notices.take([before, arrived], 'human').map((h) => h.handoff_id),
      ['HO-20260221-002'],
    );
    assert.deepEqual(notices.take([before, arrived], 'human'), []);
  });

  it('leaves out my own handoffs, work for others, claimed or finished work, and returns that ask for notify_on_return', () => {
    const me = 'human';
    assert.equal(isNewWorkFor(forHuman(1), me), true);
    assert.equal(isNewWorkFor(forHuman(1, { from_agent: 'human' }), me), false);
    assert.equal(isNewWorkFor(forHuman(1, { to_agents: ['claude'] }), me), false);
    assert.equal(isNewWorkFor(handoffIn('in_progress', { to_agents: ['human'] }), me), false);
    assert.equal(isNewWorkFor(handoffIn('merged', { to_agents: ['human'], claimed_by: null }), me), false);
    const returned = forHuman(3, { reason: 'return', parent_uid: '01JSEED0000000000000000009' });
    assert.equal(isNewWorkFor(returned, me), true);
    assert.equal(isNewWorkFor({ ...returned, notify: { agent: me } } as typeof returned, me), false);
  });

  it('names the agent and the handoff, and a burst in one message', () => {
    assert.equal(
      newWorkMessage([{ handoff: forHuman(1, { summary: 'Review the fix\nmore' }) }]),
      'AgentSync: Codex handed you HO-20260221-001: Review the fix',
    );
    const returned = forHuman(3, { from_agent: 'copilot', reason: 'return', parent_uid: '01JSEED0000000000000000009', summary: 'Done' });
    assert.equal(newWorkMessage([{ handoff: returned }]), 'AgentSync: Copilot returned HO-20260221-003 to you: Done');
    assert.match(newWorkMessage([{ handoff: forHuman(1) }, { handoff: forHuman(2) }]), /; and 1 more: HO-20260221-002 \(Codex\)$/);
  });

  it('paces notifications: at most one per gap, what arrives sooner is shown together when the gap ends', () => {
    let now = 0;
    const timers: { at: number; fn: () => void; cancelled: boolean }[] = [];
    const shown: number[][] = [];
    const pacer = new NotificationPacer<number>(
      10_000,
      (items) => shown.push(items),
      () => now,
      (fn, ms) => {
        const t = { at: now + ms, fn, cancelled: false };
        timers.push(t);
        return { cancel: () => (t.cancelled = true) };
      },
    );
    pacer.add([1]);
    assert.deepEqual(shown, [[1]]);
    now = 2_000;
    pacer.add([2]);
    now = 3_000;
    pacer.add([3, 4]);
    assert.deepEqual(shown, [[1]], 'nothing more within the gap');
    assert.equal(timers.length, 1);
    assert.equal(timers[0].at, 10_000);
    now = 10_000;
    timers[0].fn();
    assert.deepEqual(shown, [[1], [2, 3, 4]]);
    now = 25_000;
    pacer.add([5]);
    assert.deepEqual(shown.at(-1), [5], 'after the gap, shown at once');
    pacer.add([6]);
    pacer.dispose();
    assert.equal(timers.at(-1)!.cancelled, true);
  });
});
