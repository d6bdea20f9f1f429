// A block of consecutive free loopback ports for a run that listens (`--listen tcp://…:PORT` puts
// its sockets at PORT…PORT+n−1). A base picked from the test's pid collided between test files
// run side by side; this one is checked by binding every port of the block.
import { createServer } from 'node:net';

function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** The first port of `count` consecutive ports free on 127.0.0.1 now, in 20000–44999. */
export async function freePortBlock(count = 20): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const base = 20_000 + Math.floor(Math.random() * (25_000 - count));
    let free = true;
    for (let p = base; p < base + count && free; p++) free = await bindable(p);
    if (free) return base;
  }
  throw new Error(`no ${count} consecutive free ports on 127.0.0.1 after 50 tries`);
}
