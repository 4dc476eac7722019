// A TCP proxy in front of `git daemon` that loses a conversation's reply: it forwards the client's request, the
// server's first answer (the ref advertisement) and whatever the client sends next (a push's commands and pack, a
// fetch's wants), then drops the connection as the server starts its reply, so the server has acted (a push's ref is
// updated before its report is sent) while the client never hears of it. Real sockets; no git is faked.
import * as net from 'node:net';

/**
 * `pass`: forward everything. `cut-push`: lose the reply of every push (receive-pack), forward fetches. `cut-all`:
 * lose every conversation's reply (a fetch fails too). `hang-push`: swallow a push's reply and keep the connection
 * open, so the client waits until its own timeout. `blackhole`: accept every connection and never answer (a remote
 * that does not respond).
 */
export type CutMode = 'pass' | 'cut-push' | 'cut-all' | 'hang-push' | 'blackhole';

export interface CutProxy {
  port: number;
  mode: CutMode;
  /** How many replies were lost so far. */
  cuts(): number;
  /** How many connections are open now. */
  open(): number;
  close(): Promise<void>;
}

export async function cutProxy(target: number, mode: CutMode): Promise<CutProxy> {
  let cuts = 0;
  const sockets = new Set<net.Socket>();
  const state: CutProxy = {
    port: 0,
    mode,
    cuts: () => cuts,
    open: () => sockets.size,
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise((r) => server.close(() => r()));
    },
  };
  const server = net.createServer((client) => {
    if (state.mode === 'blackhole') {
      sockets.add(client);
      client.on('error', () => undefined);
      client.on('close', () => sockets.delete(client));
      client.resume(); // read and drop whatever comes; answer nothing
      return;
    }
    const upstream = net.connect(target, '127.0.0.1');
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => undefined);
      s.on('close', () => sockets.delete(s));
    }
    let service = '';
    let serverSpoke = false;
    let clientSpokeAfter = false;
    let cut = false;
    client.on('data', (d: Buffer) => {
      if (!service) service = /git-receive-pack/.test(d.toString('latin1')) ? 'push' : 'fetch';
      if (serverSpoke) clientSpokeAfter = true;
      if (!upstream.destroyed) upstream.write(d);
    });
    client.on('end', () => upstream.end());
    client.on('close', () => {
      // The server keeps the connection until its reply is read; once the client is gone it may end.
      if (!cut) upstream.destroy();
    });
    upstream.on('data', (d: Buffer) => {
      if (cut) return; // the server's reply is read and thrown away: the server finishes as if it was heard
      const cutting = clientSpokeAfter && (state.mode === 'cut-all' || (service === 'push' && state.mode !== 'pass'));
      if (cutting) {
        cut = true;
        cuts++;
        if (state.mode !== 'hang-push') client.destroy();
        return;
      }
      serverSpoke = true;
      client.write(d);
    });
    upstream.on('end', () => {
      if (!cut) client.end();
    });
    upstream.on('close', () => {
      if (!cut) client.destroy();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  state.port = (server.address() as net.AddressInfo).port;
  return state;
}
