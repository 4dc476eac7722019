#!/usr/bin/env node
// The `agentsync` command: the bundled CLI in dist/ (run `npm run build` first in a checkout).
// `agentsync hook …` runs after every tool call of an agent, so it starts from a small bundle (dist/hook.js)
// that loads the CLI only when it has work to do.
// Agents call the CLI in loops, so on Node 22.1 and later the bundles' compiled code is kept in Node's own compile
// cache (in the temp folder; NODE_DISABLE_COMPILE_CACHE=1 turns it off). Node 20 has no such cache, and does not
// even load node:module for it.
if (Number(process.versions.node.split('.')[0]) >= 22) {
  const nodeModule = require('node:module');
  if (typeof nodeModule.enableCompileCache === 'function') nodeModule.enableCompileCache();
}
const args = process.argv.slice(2);
let verb;
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--dir' || args[i] === '-C') i++;
  else if (!args[i].startsWith('-')) {
    verb = args[i];
    break;
  }
}
require(verb === 'hook' ? '../dist/hook.js' : '../dist/cli.js').main();
