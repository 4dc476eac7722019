// `agentsync mcp`: an MCP server on stdio exposing every core action as a tool (docs/contract.md §1, §8). Each call goes
// through the one RequestDispatcher of the --dir workspace, so MCP callers get the same validation, lock, rules
// and audit line as every other surface. stdout carries only the protocol; logs go to stderr. Ends when stdin closes.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { RequestDispatcher, RequestResponse } from '../core/requests/requestDispatcher';
import type { CliContext } from './cliContext';
import { CappedStdioServerTransport } from './mcpStdioTransport';
import { mcpTools } from './mcpTools';
import { packageVersion } from './packageVersion';
import { refusal, type ResponseEnvelope } from '../core/domain/responseEnvelope';
import { AGENT_ANSWER_MAX_BYTES, agentListParams, agentSized } from '../core/requests/agentAnswers';

/** A tool's answer as MCP carries it: the envelope as JSON text, and as structured content. */
function toolResult(r: ResponseEnvelope): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(r) }], structuredContent: r, isError: !r.ok };
}

/** The room a result has in one JSON-RPC message of at most AGENT_ANSWER_MAX_BYTES (its envelope takes the rest). */
const RESULT_MAX_BYTES = AGENT_ANSWER_MAX_BYTES - 256;

/** One tool call → one dispatched request; the tool name is the action. */
export async function callTool(dispatcher: RequestDispatcher, name: string, args: Record<string, unknown>): Promise<RequestResponse> {
  if (args.action !== undefined && args.action !== name) {
    // The tool name says which action runs; a different `action` argument is a caller mistake, not a redirect.
    const requestId = typeof args.request_id === 'string' ? args.request_id : '';
    const message =
      `The tool ${name} runs the action ${name}; leave out the "action" argument ` +
      `(it was ${JSON.stringify(args.action)}). Nothing was changed.`;
    return { ...refusal(name, 'invalid_request', message, { requestId }, { field: 'action' }), request_id: requestId };
  }
  return dispatcher.dispatch({ action: name, ...args }, { surface: 'mcp' });
}

export function createMcpServer(
  dispatcher: RequestDispatcher,
  log: (message: string) => void,
): { server: Server; idle: () => Promise<void> } {
  const tools = mcpTools();
  const server = new Server({ name: 'agentsync', version: packageVersion() }, { capabilities: { tools: {} } });
  const inFlight = new Set<Promise<unknown>>();

  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const { name } = request.params;
    // listHandoffs answers agents a page of compact records (full: true for the stored records); every answer is
    // bounded (core/requests/agentAnswers.ts).
    const { params: args, full } =
      name === 'listHandoffs' ? agentListParams(request.params.arguments ?? {}) : { params: request.params.arguments ?? {}, full: true };
    const call = callTool(dispatcher, name, args);
    inFlight.add(call);
    try {
      const response = await call;
      if (!response.ok) log(`${name}: ${response.reason}: ${response.message}`);
      const measure = (r: ResponseEnvelope) => Buffer.byteLength(JSON.stringify(toolResult(r)));
      return toolResult(agentSized(response, { full, now: new Date(), measure, maxBytes: RESULT_MAX_BYTES }));
    } finally {
      inFlight.delete(call);
    }
  });
  server.onerror = (e) => log(`MCP error: ${e.message}`);
  // Calls already taken are finished (and written to the store) before the server goes away.
  const idle = async () => {
    while (inFlight.size) await Promise.allSettled([...inFlight]);
    // The SDK writes a handler's answer a few promise steps after the handler returns; those steps all run
    // before the next macrotask, so one setImmediate lets the last answers reach stdout before close.
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { server, idle };
}

function untilSignal(): Promise<string> {
  return new Promise((resolve) => {
    process.once('SIGINT', () => resolve('SIGINT'));
    process.once('SIGTERM', () => resolve('SIGTERM'));
  });
}

/** Runs the server; loaded on demand (dist/mcp.js) so other verbs do not pay for the MCP SDK at start-up. */
export async function runMcp(ctx: CliContext, values: Record<string, unknown>, _positionals: string[]): Promise<number> {
  const log = (m: string) => ctx.io.err(`agentsync mcp: ${m}`);
  const { server, idle } = createMcpServer(ctx.dispatcher, values.verbose ? log : () => undefined);
  // A closed stderr (the client gone) must not crash the server either: its warnings then go nowhere.
  process.stderr.on('error', () => undefined);
  const transport = new CappedStdioServerTransport(process.stdin, process.stdout, undefined, log);
  const stopped = Promise.race([transport.ended, untilSignal()]);
  await server.connect(transport);
  if (values.verbose) log(`serving ${ctx.layout.root} on stdio (pid ${process.pid})`);
  const why = await stopped;
  await idle();
  await server.close();
  // Stopping for any reason but the normal ones (stdin closed, a signal) is said even without --verbose.
  if (values.verbose || why.startsWith('the client closed')) log(`stopped (${why})`);
  return 0;
}
