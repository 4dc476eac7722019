// Shared by the integration suite, which runs INSIDE the real VS Code extension host.
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AgentSyncApi } from '../../src/extension';
import type { Handoff } from '../../src/core/domain/handoffSchema';
import type { HandoffTreeProvider } from '../../src/vscode/tree/handoffTreeProvider';
import type { TreeNode } from '../../src/vscode/tree/treeNodes';
import type { CommandId } from '../../src/vscode/manifest/commandIds';

export const REPO_ROOT = path.resolve(__dirname, '../../..');
export const EXTENSION_ID = 'agentsync.agentsync';

export function workspaceRoot(): string {
  const f = vscode.workspace.workspaceFolders?.[0];
  assert.ok(f, 'the suite needs a workspace folder (run it through test/integration/run.mjs)');
  return f.uri.fsPath;
}

export async function api(): Promise<AgentSyncApi> {
  const ext = vscode.extensions.getExtension<AgentSyncApi | undefined>(EXTENSION_ID);
  assert.ok(ext, `extension ${EXTENSION_ID} is not loaded`);
  const handles = ext.isActive ? ext.exports : await ext.activate();
  assert.ok(handles, 'the extension exported no test handles: run the suite through test/integration/run.mjs');
  return handles;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** Polls until `check` returns a truthy value (or throws its last error at the deadline). */
export async function waitFor<T>(what: string, check: () => T | Promise<T>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await check();
      if (v) return v;
    } catch (e) {
      last = e;
    }
    if (Date.now() > deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${last ? `: ${(last as Error).message}` : ''}`);
    await sleep(20);
  }
}

/**
 * Where a runtime file of the workspace's one live record is (docs/contract.md §14): in a git repository, the clone's
 * home under the git common dir (`.git/agentsync/@/` for a workspace at the repository's top), else `.agentsync/`.
 */
export function recordFile(name: string, root = workspaceRoot()): string {
  const git = path.join(root, '.git');
  return fs.statSync(git, { throwIfNoEntry: false })?.isDirectory()
    ? path.join(git, 'agentsync', '@', name)
    : path.join(root, '.agentsync', name);
}

export function readHandoffs(root = workspaceRoot()): Handoff[] {
  return (JSON.parse(fs.readFileSync(recordFile('handoffs.json', root), 'utf8')) as { handoffs: Handoff[] }).handoffs;
}

/** A tree item's label or tooltip, or a confirmation message, as plain text (each may be a string or an object). */
/** Every node of the Handoffs tree, walked from the top (children of groups and of handoffs included). */
export async function walk(): Promise<TreeNode[]> {
  const a = await api();
  const out: TreeNode[] = [];
  const visit = (n?: TreeNode) => {
    for (const c of a.tree.getChildren(n)) {
      out.push(c);
      if (c.kind === 'group' || c.kind === 'handoff') visit(c);
    }
  };
  visit();
  return out;
}

export function plainText(v: string | vscode.TreeItemLabel | vscode.MarkdownString | undefined): string {
  if (v === undefined) return '';
  return typeof v === 'string' ? v : 'label' in v ? v.label : v.value;
}

/**
 * A tree item's tooltip as the view shows it on hover, as plain text: getTreeItem, then resolveTreeItem (a handoff's
 * tooltip is built only then).
 */
export function hoverText(tree: HandoffTreeProvider, node: TreeNode): string {
  return plainText(tree.resolveTreeItem(tree.getTreeItem(node), node).tooltip);
}

export function findHandoff(summaryPart: string, root = workspaceRoot()): Handoff {
  const h = readHandoffs(root).find((x) => x.summary.includes(summaryPart));
  assert.ok(h, `no handoff whose summary contains ${JSON.stringify(summaryPart)}`);
  return h;
}

/** Runs the real CLI as a child process (another surface writing the same store). */
export function cli(args: string[], cwd = workspaceRoot()): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [path.join(REPO_ROOT, 'bin/agentsync.js'), ...args], { cwd }, (err, stdout, stderr) => {
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

// ---- Prompt stubbing: answers for showInputBox / showQuickPick, in order. -------------------------------------

/** An input-box answer (a string), a quick-pick answer (label substrings), a modal message's button (null: dismissed), or a dismissal. */
export type Answer = { input: string } | { pick: string | string[] } | { modal: string | null } | { cancel: true };

export interface PromptLog {
  /** Every prompt shown, as "input: <prompt>", "pick: <placeholder>" or "modal: <message>". */
  asked: string[];
  /** Answers not consumed (a test asserts this is empty). */
  remaining: Answer[];
  info: string[];
  errors: string[];
  warnings: string[];
  restore(): void;
}

type Win = Record<string, unknown>;

/** Replaces the window prompt functions until restore(); an unexpected prompt is dismissed and logged. */
export function answerPrompts(...answers: Answer[]): PromptLog {
  const win = vscode.window as unknown as Win;
  const saved = Object.fromEntries(
    ['showInputBox', 'showQuickPick', 'showInformationMessage', 'showErrorMessage', 'showWarningMessage'].map((k) => [k, win[k]]),
  );
  const log: PromptLog = { asked: [], remaining: answers, info: [], errors: [], warnings: [], restore: () => Object.assign(win, saved) };
  win.showInputBox = async (opts: vscode.InputBoxOptions = {}) => {
    log.asked.push(`input: ${opts.prompt ?? ''}`);
    const a = log.remaining.shift();
    if (!a || 'cancel' in a) return undefined;
    if (!('input' in a)) throw new Error(`input box "${opts.prompt}" got a quick-pick answer ${JSON.stringify(a)}`);
    const problem = await opts.validateInput?.(a.input);
    if (problem) throw new Error(`input box "${opts.prompt}" refused ${JSON.stringify(a.input)}: ${JSON.stringify(problem)}`);
    return a.input;
  };
  win.showQuickPick = async (
    itemsOrPromise: readonly vscode.QuickPickItem[] | Thenable<readonly vscode.QuickPickItem[]>,
    opts: vscode.QuickPickOptions = {},
  ) => {
    const items = await itemsOrPromise;
    log.asked.push(`pick: ${opts.placeHolder ?? opts.title ?? ''}`);
    const a = log.remaining.shift();
    if (!a || 'cancel' in a) return undefined;
    if (!('pick' in a)) throw new Error(`quick pick "${opts.placeHolder}" got an input answer ${JSON.stringify(a)}`);
    const wanted = Array.isArray(a.pick) ? a.pick : [a.pick];
    const chosen = wanted.map((w) => {
      const item = items.find((i) => i.label.includes(w));
      if (!item)
        throw new Error(
          `quick pick "${opts.placeHolder}" has no item matching ${JSON.stringify(w)}; items: ${items.map((i) => i.label).join(' | ')}`,
        );
      return item;
    });
    return opts.canPickMany ? chosen : chosen[0];
  };
  // A modal message is a question (it takes an answer); any other message is only logged.
  // async like the real functions: a throw below reaches the caller as a rejected Thenable.
  // eslint-disable-next-line @typescript-eslint/require-await -- see above
  const answer = async (into: string[], m: string, rest: unknown[]) => {
    if (!(rest[0] && typeof rest[0] === 'object' && (rest[0] as vscode.MessageOptions).modal)) return void into.push(m);
    log.asked.push(`modal: ${m}`);
    const a = log.remaining.shift();
    if (!a || 'cancel' in a) return undefined;
    if (!('modal' in a)) throw new Error(`modal "${m}" got a non-modal answer ${JSON.stringify(a)}`);
    if (a.modal === null) return undefined;
    const buttons = rest.slice(1).map((b) => (typeof b === 'string' ? b : (b as vscode.MessageItem).title));
    if (!buttons.includes(a.modal))
      throw new Error(`modal "${m}" has no button ${JSON.stringify(a.modal)}; buttons: ${buttons.join(' | ')}`);
    return rest.slice(1).find((b) => (typeof b === 'string' ? b : (b as vscode.MessageItem).title) === a.modal);
  };
  const message =
    (into: string[]) =>
    (m: string, ...rest: unknown[]) =>
      answer(into, m, rest);
  // A new-work notification (vscode/notices/newWorkMessage.ts) for an earlier test's handoff may arrive at any moment
  // (they are paced): it is no answer of the command under test.
  const info = message(log.info);
  win.showInformationMessage = (m: string, ...rest: unknown[]) =>
    /^AgentSync: .+ (handed you|returned) HO-\d{8}-\d+/.test(m) ? Promise.resolve(undefined) : info(m, ...rest);
  win.showErrorMessage = message(log.errors);
  win.showWarningMessage = message(log.warnings);
  return log;
}

/** Runs a command with prompts answered, restores the window API, and checks every answer was used. */
export async function runWithAnswers<T = unknown>(
  command: CommandId,
  args: unknown[],
  ...answers: Answer[]
): Promise<{ result: T; log: PromptLog }> {
  const log = answerPrompts(...answers);
  try {
    const result = (await vscode.commands.executeCommand(command, ...args)) as T;
    assert.deepEqual(log.remaining, [], `${command}: unused answers (asked: ${log.asked.join(' / ')})`);
    return { result, log };
  } finally {
    log.restore();
  }
}

// ---- Files: the drop zone, the config, screenshots. ----------------------------------------------------------

/** Writes a request like a careful agent: a temp name outside requests/, then a rename in. */
export function dropRequest(name: string, request: object, root = workspaceRoot()): void {
  const tmp = path.join(root, '.agentsync', `.${name}.${process.pid}.tmp`);
  fs.writeFileSync(tmp, JSON.stringify(request));
  fs.renameSync(tmp, path.join(root, '.agentsync/requests', name));
}

/** Resolves when the file exists: an fs.watch on its folder, with a slow poll as a safety net. */
export function whenFileExists(file: string, timeoutMs = 10_000): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = (e?: Error) => {
      watcher.close();
      clearInterval(poll);
      clearTimeout(timer);
      if (e) reject(e);
      else resolve();
    };
    const check = () => fs.existsSync(file) && done();
    const watcher = fs.watch(path.dirname(file), check);
    const poll = setInterval(check, 100);
    const timer = setTimeout(() => done(new Error(`no ${file} within ${timeoutMs} ms`)), timeoutMs);
    check();
  });
}

/** Runs `fn` with .agentsync.json's commands replaced, then restores the file byte for byte. */
export async function withCommands<T>(commands: Record<string, unknown>, fn: () => Promise<T>): Promise<T> {
  const file = path.join(workspaceRoot(), '.agentsync.json');
  const original = fs.readFileSync(file, 'utf8');
  fs.writeFileSync(file, JSON.stringify({ ...JSON.parse(original), commands }, null, 2));
  try {
    return await fn();
  } finally {
    fs.writeFileSync(file, original);
  }
}

/** Asks the runner (scripts/editor/run-editor-tests.mjs) for a screenshot and waits until it is written. */
export async function screenshot(name: string): Promise<string> {
  const png = path.join(REPO_ROOT, 'test-output', name);
  fs.rmSync(png, { force: true });
  console.log(`AGENTSYNC_SCREENSHOT ${png}`);
  await waitFor(`screenshot ${name}`, () => fs.existsSync(png), 20_000);
  return png;
}

/**
 * Has the runner click `button` on the notification whose text contains `message`, in the workbench's DOM, like a
 * user (scripts/editor/run-editor-tests.mjs, AGENTSYNC_CLICK). Resolves when the click was made; throws if it could not be.
 */
export async function clickNotification(message: string, button: string): Promise<void> {
  // A toast hides after a while; the notification center keeps every notification with its buttons.
  await vscode.commands.executeCommand('notifications.showList');
  const result = path.join(REPO_ROOT, 'test-output', `click-${process.pid}-${Date.now()}.json`);
  fs.mkdirSync(path.dirname(result), { recursive: true });
  console.log(`AGENTSYNC_CLICK ${Buffer.from(JSON.stringify({ message, button, result })).toString('base64')}`);
  await waitFor(`the click on "${button}"`, () => fs.existsSync(result), 30_000);
  const outcome = JSON.parse(fs.readFileSync(result, 'utf8')) as { ok: boolean; error?: string };
  fs.rmSync(result, { force: true });
  await vscode.commands.executeCommand('notifications.hideList');
  if (!outcome.ok) throw new Error(`could not click "${button}" on the notification "${message}": ${outcome.error}`);
}

// ---- Figures printed at the end of the run. ------------------------------------------------------------------

export const figures: Record<string, string> = {};

export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}
