// How a confined context is kept to its sites without intercepting its requests: Chromium sends
// every request for another origin to this proxy, which refuses it (and says whose it was), while
// the allowed origins bypass it. Intercepting (Playwright's route) costs a round trip per request
// and turns the HTTP cache off, so every episode fetched its pages' scripts again
// (docs/benchmarks.md, the step bench against a bare loop). The proxy is ours, on loopback: a refusal can be
// neither answered nor forwarded by anything else.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RefusingProxy {
  /** Playwright's `proxy` option: this proxy, bypassed by the allowed origins only. */
  readonly settings: { server: string; bypass: string };
  close(): Promise<void>;
}

/** The page a refused navigation shows: the agent reads why, and nothing of the other site. */
const refusal = (url: string): string =>
  `<!doctype html><title>Blocked</title><p>Blocked: ${url.replace(/[<>&"]/g, '')} is outside the sites of this task.</p>`;

/**
 * A proxy on 127.0.0.1 that answers every request with 403 and reports its URL (for https and
 * sockets only the host and port are seen: `https://host:port`). `<-loopback>` keeps Chromium from
 * sending other loopback ports around it.
 */
export async function startRefusingProxy(
  allowedOrigins: readonly string[],
  onBlocked: (url: string) => void,
): Promise<RefusingProxy> {
  const server: Server = createServer((req, res) => {
    const url = req.url ?? '';
    onBlocked(url);
    res.writeHead(403, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    res.end(refusal(url));
  });
  server.on('connect', (req, socket) => {
    onBlocked(`https://${req.url ?? ''}`);
    socket.on('error', () => undefined);
    socket.end('HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n');
  });
  server.on('clientError', (_e, socket) => socket.destroy());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  // A kept context's connections would hold close() open: they carry nothing worth finishing.
  server.unref();
  const { port } = server.address() as AddressInfo;
  const hosts = allowedOrigins.map((o) => new URL(o).host);
  return {
    settings: { server: `http://127.0.0.1:${port}`, bypass: ['<-loopback>', ...hosts].join(',') },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
