// The `mcp` verb's description; the server itself (and the MCP SDK) lives in dist/mcp.js and is loaded only
// when this verb runs, so every other command starts without parsing the SDK.
import * as path from 'node:path';
import { UsageError } from './cliContext';
import type { Verb } from './handoffVerbs';

export const mcpVerb: Verb = {
  usage: '',
  summary:
    'serve every action as a tool to an MCP client over stdio (e.g. {"command":"agentsync","args":["--dir","<repo>","mcp"]}); ends when stdin closes',
  options: { verbose: { type: 'boolean' } },
  freshWorktrees: true,
  run: async (ctx, values, pos) => {
    if (pos.length) throw new UsageError(`mcp takes no arguments (got ${pos.join(' ')})`);
    // A computed path keeps esbuild from bundling the server into the CLI.
    const serverModule = path.join(__dirname, 'mcp.js');
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- a runtime require of a computed path is the point (see above)
    const { runMcp } = require(serverModule) as typeof import('./mcpServer');
    return runMcp(ctx, values, pos);
  },
};
