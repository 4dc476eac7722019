// Black-box: `agentsync init` in a fresh folder, then every JSON example of the AGENTS.md, CLAUDE.md and
// .github/copilot-instructions.md it wrote, sent in order and exactly as written with `agentsync request -`.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CLI, initWorkspace } from './processHarness';

const jsonBlocks = (markdown: string) => [...markdown.matchAll(/^```json\r?\n([\s\S]*?)^```/gm)].map((m) => m[1]);

describe('instruction file examples (process)', function () {
  this.timeout(120_000);

  for (const file of ['AGENTS.md', 'CLAUDE.md', '.github/copilot-instructions.md']) {
    it(`${file}: every example is answered ok, in order, in the workspace init made`, () => {
      const ws = initWorkspace('examples');
      const blocks = jsonBlocks(fs.readFileSync(path.join(ws, file), 'utf8'));
      assert.ok(blocks.length >= 9);
      for (const block of blocks) {
        const r = spawnSync(process.execPath, [CLI, '--dir', ws, 'request', '-'], { input: block, encoding: 'utf8' });
        assert.equal((JSON.parse(r.stdout) as { ok: boolean }).ok, true, `${block}→ ${r.stdout}${r.stderr}`);
      }
    });
  }
});
