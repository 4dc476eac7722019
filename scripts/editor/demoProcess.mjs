// Starts scripts/editor/serve-demo.mjs as a child process and waits for the address it prints, for the scripts that
// look at the demo as a visitor would (demo-screenshots.mjs, test/integration/demo.test.mjs).
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { REPO_ROOT } from './server.mjs';

/**
 * @param {{ minutes: number, echo?: boolean }} opts echo: pass the demo's output on to this process's stdout
 * @returns {Promise<{ url: string, workspace: string, output: () => string, stop: () => void }>}
 */
export function startDemo({ minutes, echo = false }) {
  const child = spawn(process.execPath, [join(REPO_ROOT, 'scripts/editor/serve-demo.mjs'), '--minutes', String(minutes)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let text = '';
  const stop = () => child.exitCode === null && child.kill('SIGTERM');
  return new Promise((res, rej) => {
    child.stdout.on('data', (d) => {
      if (echo) process.stdout.write(d);
      text += d;
      const url = /(http:\/\/127\.0\.0\.1:\d+\/\S+)/.exec(text);
      const workspace = /^workspace: (\S+)/m.exec(text);
      if (url && workspace) res({ url: url[1], workspace: workspace[1], output: () => text, stop });
    });
    child.on('exit', (code) => rej(new Error(`serve-demo exited ${code} before printing its address:\n${text}`)));
  });
}
