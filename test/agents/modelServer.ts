// A scripted model for the agents' real CLIs (test/agents/): one HTTP server on 127.0.0.1 that speaks the wire APIs
// the agents call (Anthropic Messages, OpenAI Responses, OpenAI Chat Completions, Gemini generateContent), each with
// SSE streaming. It is stateless: a request that already carries N tool results gets step N of the script (a tool
// call, or the final text). Every request body is logged: that is the evidence of what reached the model.
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import type { AddressInfo } from 'node:net';

/** One step: a call of the agent's own tool (its name and arguments as that vendor names them), or the final answer. */
export type Step = { tool: string; args: Record<string, unknown> } | { text: string };

export interface LoggedRequest {
  path: string;
  body: string;
}

export interface ModelServer {
  url: string;
  port: number;
  requests: LoggedRequest[];
  /** Every logged request body, joined: what reached the model, to search. */
  seen(): string;
  close(): Promise<void>;
}

type Wire = 'anthropic' | 'responses' | 'chat' | 'gemini';

function wireOf(url: string): Wire | null {
  if (url.startsWith('/v1/messages')) return 'anthropic';
  if (url.includes('/responses')) return 'responses';
  if (url.includes('/chat/completions')) return 'chat';
  if (url.includes(':streamGenerateContent') || url.includes(':generateContent')) return 'gemini';
  return null;
}

/** How many tool results the conversation in `body` already carries. */
function toolResults(wire: Wire, body: Record<string, unknown>): number {
  let n = 0;
  if (wire === 'anthropic') {
    for (const m of (body.messages as { content: unknown }[]) ?? [])
      if (Array.isArray(m.content)) n += m.content.filter((c: { type?: string }) => c.type === 'tool_result').length;
  } else if (wire === 'responses') {
    const input = Array.isArray(body.input) ? (body.input as { type?: string }[]) : [];
    n = input.filter((i) => i.type === 'function_call_output' || i.type === 'custom_tool_call_output').length;
  } else if (wire === 'chat') {
    n = ((body.messages as { role: string }[]) ?? []).filter((m) => m.role === 'tool').length;
  } else {
    for (const c of (body.contents as { parts?: { functionResponse?: unknown }[] }[]) ?? [])
      n += (c.parts ?? []).filter((p) => p.functionResponse).length;
  }
  return n;
}

/** True when the request offers the model tools (side requests, e.g. a title, get plain text). */
function offersTools(body: Record<string, unknown>): boolean {
  return Array.isArray(body.tools) && body.tools.length > 0;
}

function sse(res: http.ServerResponse, events: [string | null, object][], done = false): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  for (const [name, data] of events) res.write(`${name ? `event: ${name}\n` : ''}data: ${JSON.stringify(data)}\n\n`);
  if (done) res.write('data: [DONE]\n\n');
  res.end();
}

let seq = 0;
const id = (p: string) => `${p}_${Date.now().toString(36)}${(++seq).toString(36)}`;

function anthropic(res: http.ServerResponse, step: Step, body: Record<string, unknown>): void {
  const model = typeof body.model === 'string' ? body.model : 'claude';
  const usage = { input_tokens: 10, output_tokens: 5 };
  const block =
    'text' in step
      ? { start: { type: 'text', text: '' }, delta: { type: 'text_delta', text: step.text } }
      : {
          start: { type: 'tool_use', id: id('toolu'), name: step.tool, input: {} },
          delta: { type: 'input_json_delta', partial_json: JSON.stringify(step.args) },
        };
  const message = { id: id('msg'), type: 'message', role: 'assistant', model, content: [], stop_reason: null, usage };
  if (body.stream !== true) {
    const content = 'text' in step ? [{ type: 'text', text: step.text }] : [{ ...block.start, input: step.args }];
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ ...message, content, stop_reason: 'text' in step ? 'end_turn' : 'tool_use' }));
    return;
  }
  sse(res, [
    ['message_start', { type: 'message_start', message }],
    ['content_block_start', { type: 'content_block_start', index: 0, content_block: block.start }],
    ['content_block_delta', { type: 'content_block_delta', index: 0, delta: block.delta }],
    ['content_block_stop', { type: 'content_block_stop', index: 0 }],
    ['message_delta', { type: 'message_delta', delta: { stop_reason: 'text' in step ? 'end_turn' : 'tool_use' }, usage }],
    ['message_stop', { type: 'message_stop' }],
  ]);
}

function responses(res: http.ServerResponse, step: Step, body: Record<string, unknown>): void {
  const model = typeof body.model === 'string' ? body.model : 'gpt';
  const item =
    'text' in step
      ? {
          type: 'message',
          id: id('msg'),
          role: 'assistant',
          status: 'completed',
          content: [{ type: 'output_text', text: step.text, annotations: [] }],
        }
      : step.tool === 'apply_patch' && typeof step.args.input === 'string'
        ? { type: 'custom_tool_call', id: id('ctc'), call_id: id('call'), name: step.tool, input: step.args.input, status: 'completed' }
        : {
            type: 'function_call',
            id: id('fc'),
            call_id: id('call'),
            name: step.tool,
            arguments: JSON.stringify(step.args),
            status: 'completed',
          };
  const rid = id('resp');
  const usage = {
    input_tokens: 10,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: 5,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: 15,
  };
  sse(res, [
    ['response.created', { type: 'response.created', response: { id: rid, object: 'response', model, status: 'in_progress', output: [] } }],
    ['response.output_item.added', { type: 'response.output_item.added', output_index: 0, item }],
    ['response.output_item.done', { type: 'response.output_item.done', output_index: 0, item }],
    [
      'response.completed',
      { type: 'response.completed', response: { id: rid, object: 'response', model, status: 'completed', output: [item], usage } },
    ],
  ]);
}

function chat(res: http.ServerResponse, step: Step, body: Record<string, unknown>): void {
  const model = typeof body.model === 'string' ? body.model : 'gpt';
  const base = { id: id('chatcmpl'), object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model };
  const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };
  if (body.stream !== true) {
    const message =
      'text' in step
        ? { role: 'assistant', content: step.text }
        : {
            role: 'assistant',
            content: null,
            tool_calls: [{ id: id('call'), type: 'function', function: { name: step.tool, arguments: JSON.stringify(step.args) } }],
          };
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        ...base,
        object: 'chat.completion',
        choices: [{ index: 0, message, finish_reason: 'text' in step ? 'stop' : 'tool_calls' }],
        usage,
      }),
    );
    return;
  }
  const delta =
    'text' in step
      ? { role: 'assistant', content: step.text }
      : {
          role: 'assistant',
          tool_calls: [{ index: 0, id: id('call'), type: 'function', function: { name: step.tool, arguments: JSON.stringify(step.args) } }],
        };
  sse(
    res,
    [
      [null, { ...base, choices: [{ index: 0, delta, finish_reason: null }] }],
      [null, { ...base, choices: [{ index: 0, delta: {}, finish_reason: 'text' in step ? 'stop' : 'tool_calls' }], usage }],
    ],
    true,
  );
}

function gemini(res: http.ServerResponse, step: Step, url: string): void {
  const part = 'text' in step ? { text: step.text } : { functionCall: { name: step.tool, args: step.args } };
  const chunk = {
    candidates: [{ content: { role: 'model', parts: [part] }, finishReason: 'STOP', index: 0 }],
    usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 },
    modelVersion: 'gemini-2.5-flash',
  };
  if (url.includes(':streamGenerateContent')) sse(res, [[null, chunk]]);
  else {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(chunk));
  }
}

/** Starts the server; `script` is the conversation the agent's main loop gets, `sideText` the answer to any other request. */
export async function startModelServer(script: readonly Step[], sideText = 'ok'): Promise<ModelServer> {
  const requests: LoggedRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = req.url ?? '/';
      const text = Buffer.concat(chunks).toString('utf8');
      requests.push({ path: `${req.method} ${url}`, body: text });
      // MODEL_LOG_DIR=<folder> keeps every request body as a file, to read after a run.
      if (process.env.MODEL_LOG_DIR) fs.writeFileSync(path.join(process.env.MODEL_LOG_DIR, `${Date.now()}-${requests.length}.json`), text);
      if (req.method === 'GET' && /\/models/.test(url)) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({ object: 'list', data: [{ id: 'mock-model', object: 'model', created: 0, owned_by: 'test' }], models: [] }),
        );
        return;
      }
      if (url.includes('count_tokens')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ input_tokens: 100 }));
        return;
      }
      const wire = wireOf(url);
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(text) as Record<string, unknown>;
      } catch {
        // not JSON: answered as a side request
      }
      if (!wire) {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: `the scripted model does not serve ${url}` } }));
        return;
      }
      const tools = offersTools(body) || (wire === 'gemini' && Array.isArray(body.tools));
      const n = toolResults(wire, body);
      const step: Step = tools ? (script[Math.min(n, script.length - 1)] ?? { text: sideText }) : { text: sideText };
      if (wire === 'anthropic') anthropic(res, step, body);
      else if (wire === 'responses') responses(res, step, body);
      else if (wire === 'chat') chat(res, step, body);
      else gemini(res, step, url);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    seen: () => requests.map((r) => r.body).join('\n'),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
