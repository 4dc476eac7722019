// Opening a hot file warns once per session and file (docs/agentsync-documentation.md, "Hot files of other agents"):
// "session" is this agent's active AgentSync session in that folder, or the window's lifetime when none is open.
// The warning names who works on the file and offers Show Handoff.
import * as vscode from 'vscode';
import type { SessionStates } from '../sessionCare/sessionStates';
import type { HotFileHit, HotFileIndex } from './hotFileIndex';
import { agentsText, holdersText } from './hotFileText';

export const SHOW_HANDOFF = 'Show Handoff';

export interface HotFileWarning {
  message: string;
  /** What the user chose: Show Handoff, or undefined (dismissed). */
  choice: Promise<string | undefined>;
  /** Where Show Handoff showed it (what `show` answered), once done; undefined when it was not chosen. */
  shown: Promise<string | undefined>;
}

export class HotFileWarnings implements vscode.Disposable {
  private readonly warned = new Set<string>();
  private readonly subscription: vscode.Disposable;
  /** The last warning shown (the integration suite reads it through the test seam). */
  last: HotFileWarning | undefined;

  constructor(
    private readonly index: HotFileIndex,
    private readonly states: SessionStates,
    private readonly me: () => string,
    private readonly show: (hit: HotFileHit, handoffId: string) => Promise<string>,
  ) {
    this.subscription = vscode.window.onDidChangeActiveTextEditor((e) => e && this.check(e.document.uri));
  }

  /** Checks the editor already active when the index was first computed. */
  checkActiveEditor(): void {
    const uri = vscode.window.activeTextEditor?.document.uri;
    if (uri) this.check(uri);
  }

  check(uri: vscode.Uri): HotFileWarning | undefined {
    const hit = this.index.lookup(uri);
    if (!hit) return undefined;
    const session = this.states.sessionOf(hit.service, this.me())?.id ?? 'window';
    const key = [hit.service.layout.root, session, hit.path, ...hit.holders.map((h) => h.uid ?? h.handoff_id)].join('\n');
    if (this.warned.has(key)) return undefined;
    this.warned.add(key);
    const message = `AgentSync: ${hit.path} is hot: ${holdersText(hit.holders)}. Ask ${agentsText(hit.holders)} before you change it.`;
    const choice = Promise.resolve(vscode.window.showWarningMessage(message, SHOW_HANDOFF));
    const shown = choice.then((picked) => (picked === SHOW_HANDOFF ? this.show(hit, hit.holders[0].handoff_id) : undefined));
    shown.catch(() => undefined); // a failed message is VS Code's to log; nothing else waits for it here
    this.last = { message, choice, shown };
    return this.last;
  }

  dispose(): void {
    this.subscription.dispose();
  }
}
