// Reads and clicks inside a webview's page from the suite. The page lives in the workbench (the browser), not in this
// extension host, so the runner (scripts/editor/run-editor-tests.mjs) does it with Playwright: a real mouse click.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { RenderedModel } from '../../src/vscode/dashboard/dashboardView';
import { api, REPO_ROOT, waitFor } from './helpers';

export interface WebviewButton {
  tag: string;
  text: string;
  ariaLabel: string | null;
  disabled: boolean;
}

export interface WebviewRead {
  /** What the page shows (innerText: folded <details> content is not shown). */
  text: string;
  buttons: WebviewButton[];
}

let counter = 0;

async function ask<T>(op: 'read' | 'click', selector: string): Promise<T> {
  const out = path.join(REPO_ROOT, 'test-output', `webview-${process.pid}-${++counter}.json`);
  fs.mkdirSync(path.dirname(out), { recursive: true });
  console.log(`AGENTSYNC_WEBVIEW ${JSON.stringify({ op, selector, out })}`);
  await waitFor(`webview ${op} ${selector}`, () => fs.existsSync(out), 20_000);
  const answer = JSON.parse(fs.readFileSync(out, 'utf8')) as T & { error?: string };
  fs.rmSync(out, { force: true });
  if (answer.error) throw new Error(`webview ${op} ${selector}: ${answer.error}`);
  return answer;
}

/** The text and buttons of the element `selector` in whichever webview has it. */
export function readWebview(selector: string): Promise<WebviewRead> {
  return ask<WebviewRead>('read', selector);
}

export async function clickWebview(selector: string): Promise<void> {
  await ask('click', selector);
}

/** The dashboard page's root element. */
export const DASHBOARD = '[data-agentsync-dashboard]';

/** Opens the dashboard and waits until its page has drawn a model. */
export async function showDashboard(): Promise<RenderedModel> {
  const a = await api();
  await vscode.commands.executeCommand('workbench.view.extension.agentsync');
  await vscode.commands.executeCommand('agentsync.dashboard.focus');
  return waitFor<RenderedModel | undefined>(
    'the dashboard page to draw a model',
    () => a.dashboard.lastRendered,
    30_000,
  ) as Promise<RenderedModel>;
}
