// The configuration as the store uses it: .agentsync.json, read again only when its stat key changes
// (disk/fileStatKey.ts); a broken file is reported once, not on every batch.
import { fileStatKeyOf } from '../disk/fileStatKey';
import { loadConfig, type LoadedConfig } from '../workspace/configLoader';

export class ConfigCache {
  private cached: { key: string | null; loaded: LoadedConfig } | null = null;
  private reported: string | null = null;

  constructor(
    private readonly file: string,
    private readonly warn: (message: string) => void,
  ) {}

  get(): LoadedConfig {
    const key = fileStatKeyOf(this.file);
    if (!this.cached || this.cached.key !== key) {
      this.cached = { key, loaded: loadConfig(this.file) };
      const problem = this.cached.loaded.problem;
      if (problem && problem !== this.reported) this.warn(problem);
      this.reported = problem;
    }
    return this.cached.loaded;
  }
}
