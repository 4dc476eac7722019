#!/usr/bin/env node
// The `agentsync` command: the bundled CLI in dist/ (run `npm run build` first in a checkout).
require('../dist/cli.js').main();
