// Folder-level commands: Initialize Workspace, Open Tracker, Refresh, and the stale list behind the badge.
import * as vscode from 'vscode';
import { initWorkspace, type InitReport } from '../../core/workspace/workspaceInit';
import { storeSeed } from '../../core/store/storeReader';
import type { CommandDeps } from './commandDeps';
import { openRecord } from './handoffCommands';
import { handoffChoice } from './handoffTarget';
import { offerMergeDriver, type MergeDriverOutcome } from '../setup/mergeDriverPrompt';
import { pickOne } from './prompts';
import type { StaleBadge } from '../notices/staleBadge';

export async function init(deps: CommandDeps, arg?: unknown): Promise<(InitReport & { git: MergeDriverOutcome }) | undefined> {
  // Offer the folders that still need it; if every folder has it, any (init only adds what is missing).
  const anyMissing = deps.services.all().some((s) => !s.isInitialized());
  const service =
    typeof arg === 'string'
      ? deps.services.get(arg)
      : await deps.services.pick('Initialize AgentSync in which folder?', (s) => !anyMissing || !s.isInitialized());
  if (!service) return undefined;
  const report = initWorkspace(service.layout.root, storeSeed(service.layout.root));
  deps.log.info(
    `init ${service.layout.root}: created ${report.created.join(', ') || 'nothing'}; kept ${report.kept.join(', ') || 'nothing'}; .gitignore ` +
      `+${report.gitignoreAdded.length}`,
  );
  service.checkForChanges();
  const what = report.created.length ? `created ${report.created.join(', ')}` : 'everything was already there; nothing was overwritten';
  void vscode.window.showInformationMessage(`AgentSync: ${service.name} is ready (${what}).`);
  // Asked after the files exist: a "no" leaves a working workspace, only without the merge driver.
  const git = await offerMergeDriver(service.layout.root, service.name);
  if ('registered' in git)
    deps.log.info(`init ${service.layout.root}: merge driver registered (merge.agentsync), .gitattributes ${git.registered.gitattributes}`);
  if ('declined' in git) deps.log.info(`init ${service.layout.root}: merge driver not registered (declined)`);
  return { ...report, git };
}

export async function openTracker(deps: CommandDeps): Promise<vscode.TextEditor | undefined> {
  const service = await deps.services.pick('Open the tracker of which folder?');
  if (!service) return undefined;
  const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(service.layout.trackerFile)).then(undefined, () => undefined);
  if (!doc) {
    throw new Error(
      `${service.layout.trackerFile} does not exist yet; run "AgentSync: Initialize Workspace" (it never overwrites) or make any handoff change to render it`,
    );
  }
  return vscode.window.showTextDocument(doc);
}

export function refresh(deps: CommandDeps, badge: StaleBadge, tree: { refresh(): void }): { changed: number } {
  let changed = 0;
  for (const s of deps.services.all()) if (s.checkForChanges()) changed++;
  tree.refresh();
  badge.update();
  return { changed };
}

export async function showStale(deps: CommandDeps, badge: StaleBadge): Promise<unknown> {
  badge.update();
  const entries = badge.stale;
  if (entries.length === 0) {
    void vscode.window.showInformationMessage('AgentSync: no stale handoffs are assigned to you.');
    return undefined;
  }
  const multi = deps.services.all().length > 1;
  const picked = await pickOne(
    entries.map((e) => ({ ...handoffChoice(e.handoff, e, multi ? e.service.name : undefined), detail: `$(warning) ${e.reason}` })),
    {
      title: `AgentSync: ${entries.length} stale handoff${entries.length === 1 ? '' : 's'} assigned to ${deps.me()}`,
      placeHolder: 'Pick one to open its record',
    },
  );
  return openRecord(deps, { handoffId: picked.handoff.handoff_id, folder: picked.service.layout.root });
}
