// chokidar on `.agentsync/` (request.json) and `.agentsync/requests/` (one level), nothing else. Its events only
// trigger a scan; the scan decides what is a request. awaitWriteFinish is off: writers rename complete files in
// (and a request that does not parse yet is given a moment to settle), so no event is held back.
// request.json is re-created under the same name again and again, and is renamed away by the processor before
// chokidar has stat'ed it; chokidar then misses the next one (measured: most events lost, caught only by the
// rescan), so a plain fs.watch on .agentsync/ also reports that one name.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { watch, type FSWatcher } from 'chokidar';
import type { WorkspaceLayout } from '../workspace/workspaceLayout';

export class DropZoneWatcher {
  private readonly watcher: FSWatcher;
  private readonly isReady: Promise<void>;
  private single: fs.FSWatcher | null = null;

  constructor(layout: WorkspaceLayout, onChange: () => void, onError: (e: Error) => void) {
    const { dataDir, requestFile, requestsDir } = layout;
    const relevant = (p: string): boolean => {
      const abs = path.resolve(p);
      if (abs === dataDir || abs === requestFile || abs === requestsDir) return true;
      if (path.dirname(abs) !== requestsDir) return false;
      const base = path.basename(abs);
      return !base.startsWith('.') && base !== 'rejected';
    };
    this.watcher = watch(dataDir, {
      depth: 1,
      ignoreInitial: true,
      awaitWriteFinish: false,
      atomic: false,
      followSymlinks: false,
      ignored: (p: string) => !relevant(p),
    });
    this.watcher.on('add', onChange).on('change', onChange).on('addDir', onChange);
    this.watcher.on('error', (e) => onError(e instanceof Error ? e : new Error(String(e))));
    this.isReady = new Promise((resolve) => this.watcher.once('ready', () => resolve()));
    try {
      this.single = fs.watch(dataDir, { persistent: false }, (_event, name) => {
        if (name === null || String(name) === 'request.json') onChange();
      });
      this.single.on('error', (e) => onError(e));
    } catch (e) {
      onError(e as Error); // the periodic rescan still answers request.json
    }
  }

  ready(): Promise<void> {
    return this.isReady;
  }

  close(): Promise<void> {
    this.single?.close();
    this.single = null;
    return this.watcher.close();
  }
}
