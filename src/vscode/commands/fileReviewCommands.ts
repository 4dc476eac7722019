// Per-file review in the editor (docs/contract.md §6, "Per-file review"): a file the report of returned work lists sits
// under its handoff in the Handoffs tree; a click opens its diff (the file at the merge base against the file at the
// commit the changes are on, core/git/reviewDiff.ts), and Accept File / Reject File… send the catalog's reviewFiles.
// Both diff sides are read-only documents of the scheme agentsync-git, read from git's objects (no git extension needed).
import * as vscode from 'vscode';
import type { FileModification } from '../../core/domain/fileModification';
import { blobAt, reviewDiffPlan, type DiffSide } from '../../core/git/reviewDiff';
import type { RequestResponse } from '../../core/requests/requestDispatcher';
import type { FolderServices } from '../folders/folderServices';
import type { FolderService } from '../folders/folderService';
import type { Handoff } from '../../core/domain/handoffSchema';
import { COMMAND_MOVES } from '../manifest/commandCatalog';
import type { CommandDeps } from './commandDeps';
import { reportResponse } from './commandRunner';
import { askText, pickOne, type Choice } from './prompts';
import { canReviewFiles, reportedFiles } from '../../core/domain/fileReview';

export const GIT_OBJECT_SCHEME = 'agentsync-git';

interface ReviewFileArg {
  kind: 'reviewFile';
  file: FileModification;
  handoff: Handoff;
  service: FolderService;
}

/** The tree's file node, else (the Command Palette) a pick of the files of work waiting for review; undefined when none. */
async function reviewFileOf(deps: CommandDeps, arg: unknown): Promise<ReviewFileArg | undefined> {
  const n = arg as Partial<ReviewFileArg> | undefined;
  if (n?.kind === 'reviewFile' && n.file && n.handoff && n.service) return n as ReviewFileArg;
  const items: Choice<ReviewFileArg>[] = deps.services.all().flatMap((service) =>
    service
      .view()
      .handoffs.filter(canReviewFiles)
      .flatMap((handoff) =>
        reportedFiles(handoff).map((file) => ({
          label: file.path,
          description: `${handoff.handoff_id} · ${file.change}${file.review ? ` · ${file.review.decision}` : ''}`,
          value: { kind: 'reviewFile' as const, file, handoff, service },
        })),
      ),
  );
  if (items.length === 0) {
    void vscode.window.showInformationMessage('AgentSync: no work waits for a review of its files.');
    return undefined;
  }
  return pickOne(items, { placeHolder: 'Which file of the work that came back?' });
}

/** `agentsync-git:/src/a.ts?folder=…&commit=…`: the file at a commit; no commit is the empty side (added or deleted). */
export function gitObjectUri(service: FolderService, side: DiffSide, file: string): vscode.Uri {
  const query: Record<string, string> = { folder: service.layout.root };
  if (side) query.commit = side.commit;
  return vscode.Uri.from({ scheme: GIT_OBJECT_SCHEME, path: `/${side?.path ?? file}`, query: new URLSearchParams(query).toString() });
}

/** The read-only diff sides: read from git's objects of a folder this window serves, never of a path the URI names. */
export function registerGitObjects(services: FolderServices): vscode.Disposable {
  return vscode.workspace.registerTextDocumentContentProvider(GIT_OBJECT_SCHEME, {
    provideTextDocumentContent(uri) {
      const q = new URLSearchParams(uri.query);
      const service = services.get(q.get('folder') ?? '');
      const commit = q.get('commit');
      if (!service || !commit) return '';
      return blobAt(service.layout.root, commit, uri.path.replace(/^\//, ''))?.toString('utf8') ?? '';
    },
  });
}

/** Opens the file's diff, or says why there is none (no commit the changes are on, or one this clone lacks). */
export async function openFileDiff(deps: CommandDeps, arg?: unknown): Promise<unknown> {
  const node = await reviewFileOf(deps, arg);
  if (!node) return undefined;
  const plan = reviewDiffPlan(node.service.layout.root, node.handoff);
  const entry = plan.files.find((f) => f.file.path === node.file.path);
  if (!plan.ok || !entry) {
    void vscode.window.showInformationMessage(`AgentSync: no diff for ${node.file.path}: ${plan.ok ? 'not in the report' : plan.why}.`);
    return undefined;
  }
  const title = `${node.file.path} (${node.handoff.handoff_id}, ${node.file.change})`;
  const left = gitObjectUri(node.service, entry.base, node.file.path);
  const right = gitObjectUri(node.service, entry.head, node.file.path);
  await vscode.commands.executeCommand('vscode.diff', left, right, title, { preview: true });
  return { left, right };
}

async function send(deps: CommandDeps, node: ReviewFileArg, verdict: object, done: string): Promise<RequestResponse> {
  const response = await node.service.dispatch({
    action: 'reviewFiles',
    handoffId: node.handoff.handoff_id,
    agent: deps.me(),
    accept: [],
    reject: [],
    ...verdict,
    expected_rev: node.handoff.rev,
  });
  const outcome = response.ok ? (response.data as { outcome?: string }).outcome : undefined;
  const then = outcome === 'accepted' ? ': every file accepted, approved' : outcome === 'rejected' ? ': returned for revision' : '';
  return reportResponse(response, `${done}${then}.`, deps.log);
}

export async function acceptFile(deps: CommandDeps, arg?: unknown): Promise<unknown> {
  const node = await reviewFileOf(deps, arg);
  if (!node) return undefined;
  return send(deps, node, { accept: [node.file.path] }, `${node.file.path} of ${node.handoff.handoff_id} accepted`);
}

export async function rejectFile(deps: CommandDeps, arg?: unknown): Promise<unknown> {
  const node = await reviewFileOf(deps, arg);
  if (!node) return undefined;
  // The question is the catalog's (catalog/reviewFiles.ts), like every move's prompt.
  const { param: _p, title, format: _f, ...question } = COMMAND_MOVES.find((m) => m.name === 'rejectFile')!.command.prompts![0];
  const reason = await askText({ ...question, title: title.replace('{id}', node.file.path) });
  return send(deps, node, { reject: [{ path: node.file.path, reason }] }, `${node.file.path} of ${node.handoff.handoff_id} rejected`);
}
