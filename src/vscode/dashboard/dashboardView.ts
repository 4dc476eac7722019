// The Dashboard webview view beside the Handoffs tree (docs/agentsync-documentation.md, "Dashboard"). It posts the
// core's dashboard model to the page whenever the store or .agentsync/state.json changes (events only, no polling),
// and only while the view is visible; a button press comes back as a message and runs through dashboardActions.
import * as vscode from 'vscode';
import { cardKey } from '../../core/domain/dashboardCards';
import { dashboardModel, type DashboardModel } from '../../core/requests/dashboardModel';
import { readStateFile } from '../../core/store/stateFile';
import type { CommandDeps } from '../commands/commandDeps';
import { runCardAction } from './dashboardActions';
import { dashboardPage, newNonce } from './dashboardHtml';
import { parsePageMessage, type CardActionRequest, type ModelMessage } from './dashboardMessages';

export interface DashboardContext {
  me: string;
  identityProblem: string | null;
  trusted: boolean;
}

/** A model the page has drawn: what the integration suite waits for (its DOM is current up to this push). */
export interface RenderedModel {
  seq: number;
  model: DashboardModel;
  /** performance.now() when it was posted to the page (the rest of the way is the page's). */
  postedAt: number;
}

export class DashboardView implements vscode.WebviewViewProvider, vscode.Disposable {
  private view: vscode.WebviewView | undefined;
  private seq = 0;
  /**
   * Posted and not yet drawn. While one is, changes only mark the view dirty and the next push waits for the page's
   * answer: a burst of store writes costs one drawing per frame the page can draw, not one per write.
   */
  private inFlight: RenderedModel | undefined;
  private dirty = false;
  private readonly refusals = new Map<string, string>();
  private scheduled = false;
  private readonly renderedEmitter = new vscode.EventEmitter<RenderedModel>();
  /** Fires when the page has drawn a pushed model. */
  readonly onDidRender = this.renderedEmitter.event;
  lastRendered: RenderedModel | undefined;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly deps: CommandDeps,
    private readonly context: () => DashboardContext,
    private readonly mediaRoot: vscode.Uri,
  ) {
    // Sessions and health live in state.json, which a session start may change without touching the store; its
    // events come from each folder's one watcher (FolderService).
    this.disposables.push(
      deps.services.onDidChange(() => this.refresh()),
      deps.services.onDidChangeState(() => this.refresh()),
      this.renderedEmitter,
    );
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    this.view = view;
    this.inFlight = undefined;
    const webview = view.webview;
    webview.options = { enableScripts: true, localResourceRoots: [this.mediaRoot] };
    webview.html = dashboardPage({
      cspSource: webview.cspSource,
      scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(this.mediaRoot, 'dashboard.js')).toString(),
      styleUri: webview.asWebviewUri(vscode.Uri.joinPath(this.mediaRoot, 'dashboard.css')).toString(),
      nonce: newNonce(),
    });
    this.disposables.push(
      webview.onDidReceiveMessage((raw) => this.onMessage(raw)),
      view.onDidChangeVisibility(() => this.refresh()),
      view.onDidDispose(() => {
        if (this.view === view) this.view = undefined;
      }),
    );
  }

  /** Re-draws soon: the events of one tick (a store write, its state.json) make one push. */
  refresh(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    queueMicrotask(() => {
      this.scheduled = false;
      this.push();
    });
  }

  /** The model as the page would get it now. */
  model(): DashboardModel {
    const ctx = this.context();
    const folders = this.deps.services.all().map((s) => {
      const v = s.view();
      return {
        root: s.layout.root,
        name: s.name,
        initialized: v.initialized,
        problem: v.problem,
        handoffs: v.handoffs,
        config: v.config,
        state: v.initialized ? readStateFile(s.layout.stateFile) : {},
      };
    });
    return dashboardModel({ ...ctx, now: new Date(), folders, refusals: this.refusals });
  }

  private push(): void {
    const view = this.view;
    if (!view?.visible) return; // drawn when it becomes visible (onDidChangeVisibility) or the page says ready
    let model: DashboardModel;
    try {
      model = this.model();
    } catch (e) {
      this.deps.log.error(`dashboard: could not build the model: ${(e as Error).stack ?? String(e)}`);
      return;
    }
    if (this.inFlight) {
      this.dirty = true;
      return;
    }
    this.dirty = false;
    const message: ModelMessage = { type: 'model', seq: ++this.seq, model };
    const posted = (this.inFlight = { seq: message.seq, model, postedAt: performance.now() });
    this.forgetRefusalsNotShown(model);
    void view.webview.postMessage(message).then((delivered) => {
      if (!delivered && this.inFlight === posted) this.inFlight = undefined; // the page is gone; "ready" redraws
    });
  }

  /** A refusal stays on its card until the next press there, or until the card is gone. */
  private forgetRefusalsNotShown(model: DashboardModel): void {
    if (this.refusals.size === 0) return;
    const shown = new Set(model.folders.flatMap((f) => f.groups.flatMap((g) => g.cards.map((c) => c.key))));
    for (const key of [...this.refusals.keys()]) if (!shown.has(key)) this.refusals.delete(key);
  }

  private onMessage(raw: unknown): void {
    const m = parsePageMessage(raw);
    if (!m) {
      this.deps.log.warn(`dashboard: ignored a malformed message from the page: ${JSON.stringify(raw)?.slice(0, 200)}`);
      return;
    }
    if (m.type === 'ready') {
      this.inFlight = undefined; // a new page: whatever was posted to the old one is lost
      return this.push();
    }
    if (m.type === 'rendered') {
      if (this.inFlight?.seq !== m.seq) return;
      this.lastRendered = this.inFlight;
      this.inFlight = undefined;
      this.renderedEmitter.fire(this.lastRendered);
      if (this.dirty) this.push();
      return;
    }
    void this.act(m);
  }

  private async act(req: CardActionRequest): Promise<void> {
    const key = cardKey(req.folder, req.handoffId);
    this.refusals.delete(key);
    const refusal = await runCardAction(this.deps, req);
    if (refusal) this.refusals.set(key, refusal);
    this.refresh(); // also re-enables the pressed button when nothing changed (cancelled, refused)
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}
