import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Route = string | ((req: IncomingMessage, res: ServerResponse, url: URL) => void);

export interface TestServer {
  origin: string;
  close(): Promise<void>;
}

/** Serves HTML pages on 127.0.0.1 (a free port): path → page, or a handler. */
export async function serve(routes: Record<string, Route>): Promise<TestServer> {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const route = routes[url.pathname];
    if (route === undefined) {
      res.writeHead(404, { 'content-type': 'text/html' }).end('<title>Not found</title><h1>Not found</h1>');
      return;
    }
    if (typeof route === 'function') return route(req, res, url);
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(route);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function page(title: string, body: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body>${body}</body></html>`;
}
