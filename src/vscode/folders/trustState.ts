// Workspace Trust as the extension sees it. VS Code only ever grants trust while a window is open; the
// override exists so the integration suite can exercise the restricted path on a server started with
// --disable-workspace-trust (where every folder is trusted).
import * as vscode from 'vscode';

export class TrustState implements vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<boolean>();
  readonly onDidChange = this.emitter.event;
  private override: boolean | undefined;
  private readonly grant: vscode.Disposable;

  constructor() {
    this.grant = vscode.workspace.onDidGrantWorkspaceTrust(() => this.emitter.fire(this.trusted));
  }

  get trusted(): boolean {
    return this.override ?? vscode.workspace.isTrusted;
  }

  /** Test hook: pretend the workspace is (un)trusted; undefined returns to the real state. */
  simulate(trusted: boolean | undefined): void {
    this.override = trusted;
    this.emitter.fire(this.trusted);
  }

  dispose(): void {
    this.grant.dispose();
    this.emitter.dispose();
  }
}
