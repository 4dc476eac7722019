// Prompt helpers. Every question can be dismissed: the helper then throws PromptCancelled, which the command
// wrapper turns into "cancelled, nothing was changed". All questions of a flow are asked before any write.
import * as vscode from 'vscode';

export class PromptCancelled extends Error {
  constructor(what: string) {
    super(`${what} was cancelled`);
    this.name = 'PromptCancelled';
  }
}

export interface TextQuestion {
  title?: string;
  prompt: string;
  placeHolder?: string;
  value?: string;
  /** An empty answer is refused with this message (else empty is accepted as ""). */
  requiredMessage?: string;
  maxLength?: number;
  validate?: (value: string) => string | undefined;
}

export async function askText(q: TextQuestion): Promise<string> {
  const answer = await vscode.window.showInputBox({
    title: q.title,
    prompt: q.prompt,
    placeHolder: q.placeHolder,
    value: q.value,
    ignoreFocusOut: true,
    validateInput: (v) => {
      if (q.requiredMessage && !v.trim()) return q.requiredMessage;
      if (q.maxLength && v.length > q.maxLength) return `At most ${q.maxLength} characters (this is ${v.length}).`;
      return q.validate?.(v);
    },
  });
  if (answer === undefined) throw new PromptCancelled(q.title ?? q.prompt);
  // showInputBox enforces validateInput interactively; callers that answer programmatically are checked again.
  const problem =
    (q.requiredMessage && !answer.trim() ? q.requiredMessage : undefined) ??
    (q.maxLength && answer.length > q.maxLength ? `At most ${q.maxLength} characters.` : undefined) ??
    q.validate?.(answer);
  if (problem) throw new PromptCancelled(`${q.title ?? q.prompt} (${problem})`);
  return answer.trim();
}

export interface Choice<T> extends vscode.QuickPickItem {
  value: T;
}

export async function pickOne<T>(items: Choice<T>[], options: { title?: string; placeHolder: string }): Promise<T> {
  const picked = await vscode.window.showQuickPick(items, {
    ...options,
    ignoreFocusOut: true,
    matchOnDescription: true,
    matchOnDetail: true,
  });
  if (!picked) throw new PromptCancelled(options.title ?? options.placeHolder);
  return picked.value;
}

/** A multi-select with a count rule; a wrong count is explained and asked again (three times at most). */
export async function pickMany<T>(
  items: Choice<T>[],
  options: { title?: string; placeHolder: string; min?: number; max?: number },
): Promise<T[]> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const picked = await vscode.window.showQuickPick(items, {
      title: options.title,
      placeHolder: options.placeHolder,
      canPickMany: true,
      ignoreFocusOut: true,
      matchOnDescription: true,
    });
    if (!picked) throw new PromptCancelled(options.title ?? options.placeHolder);
    const n = picked.length;
    const { min = 0, max = Infinity } = options;
    if (n >= min && n <= max) return picked.map((p) => p.value);
    const want = min === max ? `exactly ${min}` : max === Infinity ? `at least ${min}` : `${min} to ${max}`;
    void vscode.window.showWarningMessage(`AgentSync: pick ${want} (you picked ${n}).`);
    for (const item of items) item.picked = picked.includes(item);
  }
  throw new PromptCancelled(options.title ?? options.placeHolder);
}
