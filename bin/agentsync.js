#!/usr/bin/env node
// The `agentsync` command: the bundled CLI in dist/ (run `npm run build` first in a checkout).
// `agentsync hook …` runs after every tool call of an agent, so it starts from a small bundle (dist/hook.js)
// that loads the CLI only when it has work to do.
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
