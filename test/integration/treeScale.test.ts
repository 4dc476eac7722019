// The Handoffs tree on a store of 10,000 open handoffs that this machine did not write (seeded by run.mjs with
// seedScaleStore.mjs, path in AGENTSYNC_IT_SCALE_WORKSPACE): first render, expanding the largest group, and the
// refresh after an outside write, each timed several times. Prints median and p99 (target ≤ 100 ms); asserts only a
// generous bound on the median, since the machine running the suite may be loaded (at load 20 on 2 cores the
// medians were about 1 s); the quadratic expansion this replaced took over 1 s even on an idle machine.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type * as vscode from 'vscode';
import type { TreeNode } from '../../src/vscode/tree/treeNodes';
import type { TreeProbe } from '../../src/vscode/tree/treeProbe';
import { api, figures } from './helpers';

const RUNS = 7;
const BOUND_MS = 3000;

function scaleRoot(): string {
  const root = process.env.AGENTSYNC_IT_SCALE_WORKSPACE;
  assert.ok(root && fs.existsSync(path.join(root, '.agentsync/handoffs.json')), 'run the suite through test/integration/run.mjs');
  return root;
}

function stats(xs: number[]): { median: number; p99: number } {
  const s = [...xs].sort((a, b) => a - b);
  return { median: s[Math.floor((s.length - 1) / 2)], p99: s[Math.min(s.length - 1, Math.ceil(0.99 * s.length) - 1)] };
}

function report(name: string, xs: number[]): void {
  const { median, p99 } = stats(xs);
  figures[`tree 10k: ${name} (${xs.length} runs)`] = `median ${median.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms`;
  assert.ok(
    median <= BOUND_MS,
    `${name}: median ${median.toFixed(1)} ms is over ${BOUND_MS} ms (runs: ${xs.map((x) => x.toFixed(1)).join(', ')})`,
  );
}

/** What the view does with a level: ask for the children, then each child's item. */
function render(tree: TreeProbe['tree'], node?: TreeNode): TreeNode[] {
  const children = tree.getChildren(node);
  for (const c of children) tree.getTreeItem(c);
  return children;
}

function largestGroup(tree: TreeProbe['tree'], roots: TreeNode[]): TreeNode {
  const groups = roots.filter((n) => n.kind === 'group');
  return groups.reduce((a, b) => (Number(tree.getTreeItem(b).description) > Number(tree.getTreeItem(a).description) ? b : a));
}

/** Another process's next store: one record's summary changed, written beside the store; renaming it in is the write. */
function prepareEdit(file: string, n: number): () => void {
  const text = fs.readFileSync(file, 'utf8');
  const next = text.replace(/"summary": "Scale handoff 4242:[^"]*"/, `"summary": "Scale handoff 4242: edited ${n}"`);
  assert.notEqual(next, text);
  fs.writeFileSync(`${file}.tmp`, next);
  return () => fs.renameSync(`${file}.tmp`, file);
}

describe('Handoffs tree at 10,000 open handoffs', () => {
  const probes: vscode.Disposable[] = [];
  afterEach(() => {
    for (const p of probes.splice(0)) p.dispose();
  });

  /** The longest time the extension host's event loop went without a turn, from now until the returned stop(). */
  function longestBlock(): () => number {
    let last = performance.now();
    let longest = 0;
    let on = true;
    const tick = () => {
      const now = performance.now();
      longest = Math.max(longest, now - last);
      last = now;
      if (on) setImmediate(tick);
    };
    setImmediate(tick);
    return () => {
      on = false;
      return longest;
    };
  }

  /**
   * A new view of the scale folder, as a window opening it: the first render shows that the store is being checked
   * (it is over HandoffStore's LARGE_STORE_BYTES), then the groups once the check, a slice per turn, is done.
   */
  async function firstRender(
    a: Awaited<ReturnType<typeof api>>,
    probe = a.treeProbe(scaleRoot(), 'claude'),
  ): Promise<{ notice: number; groups: number; block: number }> {
    probes.push(probe);
    const stop = longestBlock();
    const done = new Promise<void>((resolve) => {
      const sub = probe.tree.onDidChangeTreeData(() => {
        sub.dispose();
        resolve();
      });
    });
    const t = performance.now();
    const first = render(probe.tree);
    const notice = performance.now() - t;
    assert.ok(
      first.some((n) => n.kind === 'info' && n.id.endsWith('|checking')),
      'the first render says the store is being checked',
    );
    assert.equal(first.filter((n) => n.kind === 'group').length, 0, 'no empty groups before the check is done');
    await done;
    const before = performance.now();
    const roots = render(probe.tree);
    const groups = performance.now() - t;
    // The two renders are host blocks too: the monitor only sees the gaps between its own turns.
    const block = Math.max(stop(), notice, performance.now() - before);
    assert.equal(roots.filter((n) => n.kind === 'group').length, 4, 'assigned, shared, blocked/stale and other');
    return { notice, groups, block };
  }

  it('renders a store it never saw: the checking notice at once, the groups after the sliced schema check', async () => {
    const a = await api();
    const stamp = path.join(scaleRoot(), '.agentsync/handoffs.validated');
    const runs: { notice: number; groups: number; block: number }[] = [];
    for (let i = 0; i < RUNS; i++) {
      fs.rmSync(stamp, { force: true }); // never seen: the read before stamped it
      runs.push(await firstRender(a));
    }
    report(
      'first render (never seen): the checking notice',
      runs.map((r) => r.notice),
    );
    report(
      'first render (never seen): the groups',
      runs.map((r) => r.groups),
    );
    report(
      'first render (never seen): longest host block meanwhile',
      runs.map((r) => r.block),
    );
  });

  it('renders a store this machine checked before (a window reloaded) from its stamp', async () => {
    const a = await api();
    const stamp = path.join(scaleRoot(), '.agentsync/handoffs.validated');
    await firstRender(a);
    assert.ok(fs.existsSync(stamp), 'the first read stamped the store it checked');
    const runs: { notice: number; groups: number; block: number }[] = [];
    for (let i = 0; i < RUNS; i++) runs.push(await firstRender(a));
    report(
      'first render (stamped): the groups',
      runs.map((r) => r.groups),
    );
    report(
      'first render (stamped): longest host block meanwhile',
      runs.map((r) => r.block),
    );
  });

  it('expands the largest group (6,000 handoffs, chains under their parent) in linear time', async () => {
    const a = await api();
    const probe = a.treeProbe(scaleRoot(), 'claude');
    await firstRender(a, probe);
    const times: number[] = [];
    let rows = 0;
    for (let i = 0; i < RUNS; i++) {
      const group = largestGroup(probe.tree, render(probe.tree));
      const t = performance.now();
      rows = render(probe.tree, group).length;
      times.push(performance.now() - t);
    }
    assert.equal(rows, 5500, '6,000 assigned, 500 of them passed on from another and shown beneath it');
    report('expand group', times);
  });

  it('re-renders after an outside write: only the changed group, read once, within the bound', async () => {
    const a = await api();
    const probe = a.treeProbe(scaleRoot(), 'claude');
    await firstRender(a, probe);
    const file = path.join(scaleRoot(), '.agentsync/handoffs.json');
    const roots = render(probe.tree);
    const group = largestGroup(probe.tree, roots);
    render(probe.tree, group);
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      await new Promise((r) => setTimeout(r, 150)); // past the tree's render throttle
      const fired = new Promise<TreeNode | undefined>((resolve) => {
        const sub = probe.tree.onDidChangeTreeData((n) => {
          sub.dispose();
          resolve(n);
        });
      });
      const write = prepareEdit(file, i);
      const t = performance.now();
      write();
      const node = await fired;
      assert.equal(node?.id, group.id, 'only the group holding the edited record is re-rendered');
      const [edited] = render(probe.tree, node).filter((n) => n.kind === 'handoff' && n.handoff.summary.endsWith(`edited ${i}`));
      times.push(performance.now() - t);
      assert.ok(edited, 'the edited summary is shown');
    }
    report('refresh after an outside write (rename → group re-rendered)', times);
  });
});
