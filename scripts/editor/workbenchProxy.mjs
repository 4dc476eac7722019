// A loopback proxy in front of the VS Code server that adds construction options to the workbench page: VS Code's
// web workbench takes them from its embedder (IWorkbenchConstructionOptions, e.g. `defaultLayout`, the views a new
// workspace opens on), and the bundled server has no flag for them. Everything else (files, the extension host's
// WebSocket) passes through unchanged. Used by scripts/editor/serve-demo.mjs so the demo opens on the AgentSync view.
import { request as httpRequest, createServer } from 'node:http';
import { connect } from 'node:net';

const unescape = (s) =>
  s
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
const escape = (s) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The workbench page with `options` merged into its web configuration; the page unchanged when it has none. */
export function withWorkbenchOptions(html, options) {
  const attr = /(id="vscode-workbench-web-configuration"\s+data-settings=")([^"]*)(")/;
  const m = attr.exec(html);
  if (!m) return html;
  const settings = { ...JSON.parse(unescape(m[2])), ...options };
  return html.replace(attr, (_all, before, _value, after) => `${before}${escape(JSON.stringify(settings))}${after}`);
}

/**
 * @param {{ upstreamPort: number, port?: number, options: object }} opts
 * @returns {Promise<{ port: number, close: () => void }>}
 */
export function startWorkbenchProxy({ upstreamPort, port = 0, options }) {
  const server = createServer((req, res) => {
    const page = new URL(req.url ?? '/', 'http://x').pathname === '/';
    const headers = { ...req.headers };
    if (page) delete headers['accept-encoding']; // the page is rewritten: ask for it uncompressed
    const up = httpRequest({ host: '127.0.0.1', port: upstreamPort, method: req.method, path: req.url, headers }, (upRes) => {
      const type = String(upRes.headers['content-type'] ?? '');
      if (!page || !type.startsWith('text/html')) {
        res.writeHead(upRes.statusCode ?? 502, upRes.headers);
        upRes.pipe(res);
        return;
      }
      const chunks = [];
      upRes.on('data', (c) => chunks.push(c));
      upRes.on('end', () => {
        const body = Buffer.from(withWorkbenchOptions(Buffer.concat(chunks).toString('utf8'), options));
        res.writeHead(upRes.statusCode ?? 200, { ...upRes.headers, 'content-length': body.length });
        res.end(body);
      });
    });
    up.on('error', (e) => {
      res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`the VS Code server did not answer: ${e.message}`);
    });
    req.pipe(up);
  });
  // WebSockets (the remote extension host's connection): the raw bytes both ways after the upgrade request.
  server.on('upgrade', (req, socket, head) => {
    const up = connect(upstreamPort, '127.0.0.1', () => {
      const lines = [`${req.method} ${req.url} HTTP/${req.httpVersion}`];
      for (let i = 0; i < req.rawHeaders.length; i += 2) lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
      up.write(`${lines.join('\r\n')}\r\n\r\n`);
      if (head.length) up.write(head);
      socket.pipe(up).pipe(socket);
    });
    const end = () => {
      socket.destroy();
      up.destroy();
    };
    up.on('error', end);
    socket.on('error', end);
  });
  return new Promise((ok, fail) => {
    server.once('error', fail);
    server.listen(port, '127.0.0.1', () => ok({ port: server.address().port, close: () => server.close() }));
  });
}
