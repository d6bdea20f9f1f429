// `tti-run view`'s server: node:http on 127.0.0.1 only. It serves the page (src/viewer/page/), a
// read-only JSON API over the run directory and the step screenshots. The page polls for new
// episodes, so it follows a live run; nothing here writes to the run directory.
//
//   GET /api/run                        the run: name, state.json, a few config keys, counts
//   GET /api/episodes?since=N           summaries from the N-th on (the page keeps what it has)
//   GET /api/episodes/ID                the episode's record.json as written
//   GET /api/episodes/ID/step-NNN.jpg   a step's screenshot

import { existsSync, readFileSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { projectRoot, runSuiteLabel } from '../util/index.js';
import { EpisodeIndex } from './episode-index.js';

export interface ViewerOptions {
  runDir: string;
  /** 0 = any free port. */
  port: number;
  /** How often the page asks for new episodes. Default 2000 ms. */
  pollMs?: number;
}

export interface Viewer {
  url: string;
  port: number;
  index: EpisodeIndex;
  close(): Promise<void>;
}

export const PAGE_DIR = path.join(projectRoot, 'src', 'viewer', 'page');
const STATIC: Record<string, { file: string; type: string }> = {
  '/': { file: 'index.html', type: 'text/html; charset=utf-8' },
  '/app.js': { file: 'app.js', type: 'text/javascript; charset=utf-8' },
  '/app.css': { file: 'app.css', type: 'text/css; charset=utf-8' },
};

// The page renders text from web pages and model replies; it only ever sets textContent, and
// this policy stops anything that slips through from running or calling out.
const SECURITY_HEADERS = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; " +
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};

/** A rescan at most this often, however many pages poll. */
const SCAN_INTERVAL_MS = 500;

const RunState = z.looseObject({
  state: z.string().nullish().catch(null),
  reason: z.string().nullish().catch(null),
  iteration: z.number().nullish().catch(null),
  policyVersion: z.number().nullish().catch(null),
  horizon: z.number().nullish().catch(null),
});
const RunConfig = z.looseObject({
  run_name: z.string().nullish().catch(null),
  iterations: z.number().nullish().catch(null),
  horizon_schedule: z.array(z.number()).nullish().catch(null),
  eval_horizon: z.number().nullish().catch(null),
  webarena_host: z.string().nullish().catch(null),
  tasks: z
    .looseObject({ train: z.string().nullish().catch(null), test: z.string().nullish().catch(null) })
    .nullish()
    .catch(null),
  env: z
    .looseObject({
      screenshot: z.union([z.boolean(), z.string()]).nullish().catch(null),
      suite: z.string().nullish().catch(null),
      miniwob: z
        .looseObject({ dir: z.string().nullish().catch(null), url: z.string().nullish().catch(null) })
        .nullish()
        .catch(null),
    })
    .nullish()
    .catch(null),
});

function readJson(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

function readYaml(file: string): unknown {
  try {
    return parseYaml(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

/** What the page's header shows about the run; every part may be missing (an eval folder, a new run). */
function runInfo(runDir: string, index: EpisodeIndex, pollMs: number) {
  const state = RunState.safeParse(readJson(path.join(runDir, 'state.json')));
  const config = RunConfig.safeParse(readYaml(path.join(runDir, 'config.yaml')));
  const c = config.success ? config.data : null;
  return {
    runDir,
    name: c?.run_name ?? path.basename(runDir),
    state: state.success
      ? {
          state: state.data.state ?? null,
          reason: state.data.reason ?? null,
          iteration: state.data.iteration ?? null,
          policyVersion: state.data.policyVersion ?? null,
          horizon: state.data.horizon ?? null,
        }
      : null,
    config: c
      ? {
          iterations: c.iterations ?? null,
          horizonSchedule: c.horizon_schedule ?? null,
          evalHorizon: c.eval_horizon ?? null,
          tasks: runSuiteLabel(c),
          screenshot: c.env?.screenshot ?? null,
        }
      : null,
    episodes: index.summaries.length,
    pollMs,
  };
}

export async function startViewer(options: ViewerOptions): Promise<Viewer> {
  const runDir = path.resolve(options.runDir);
  if (!existsSync(runDir) || !statSync(runDir).isDirectory())
    throw new Error(`${runDir} is not a directory: pass a run directory (or an eval's --out-dir)`);
  const pollMs = options.pollMs ?? 2000;
  const index = new EpisodeIndex(runDir);
  const pages = new Map(
    Object.entries(STATIC).map(([route, s]) => [
      route,
      { body: readFileSync(path.join(PAGE_DIR, s.file)), type: s.type },
    ]),
  );
  let lastScan = 0;
  const scan = () => {
    if (Date.now() - lastScan < SCAN_INTERVAL_MS) return;
    lastScan = Date.now();
    index.scan();
  };
  let allowedHosts: Set<string> = new Set();

  const send = (res: ServerResponse, status: number, type: string, body: string | Buffer) => {
    res.writeHead(status, { 'content-type': type, ...SECURITY_HEADERS }).end(body);
  };
  const json = (res: ServerResponse, value: unknown, status = 200) =>
    send(res, status, 'application/json; charset=utf-8', JSON.stringify(value));
  const notFound = (res: ServerResponse, what: string) => json(res, { error: `${what} not found` }, 404);

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    // Loopback only, and only under the names loopback has: a page elsewhere that rebinds its
    // own host name to 127.0.0.1 (DNS rebinding) gets nothing.
    if (!allowedHosts.has(req.headers.host ?? '')) return json(res, { error: 'unknown host' }, 403);
    if (req.method !== 'GET' && req.method !== 'HEAD') return json(res, { error: 'read-only' }, 405);
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const page = pages.get(url.pathname);
    if (page) return send(res, 200, page.type, page.body);
    if (url.pathname === '/favicon.ico') return send(res, 204, 'image/x-icon', '');
    if (url.pathname === '/api/run') {
      scan();
      return json(res, runInfo(runDir, index, pollMs));
    }
    if (url.pathname === '/api/episodes') {
      scan();
      const since = Math.max(0, Math.floor(Number(url.searchParams.get('since') ?? 0)) || 0);
      return json(res, {
        total: index.summaries.length,
        episodes: index.summaries.slice(since),
        warnings: index.warnings.map((w) => w.text),
      });
    }
    let parts: string[];
    try {
      parts = url.pathname.split('/').map((p) => decodeURIComponent(p));
    } catch {
      return notFound(res, url.pathname); // a malformed escape names nothing here
    }
    if (parts[1] === 'api' && parts[2] === 'episodes' && parts.length === 4) {
      const file = index.recordFile(parts[3]!);
      if (file === null) return notFound(res, 'episode');
      return send(res, 200, 'application/json; charset=utf-8', await readFile(file));
    }
    if (parts[1] === 'api' && parts[2] === 'episodes' && parts.length === 5) {
      const file = index.screenshotFile(parts[3]!, parts[4]!);
      if (file === null) return notFound(res, 'screenshot');
      return send(res, 200, 'image/jpeg', await readFile(file));
    }
    return notFound(res, url.pathname);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) json(res, { error: (error as Error).message }, 500);
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  allowedHosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
  index.scan();
  lastScan = Date.now();
  return {
    url: `http://127.0.0.1:${port}/`,
    port,
    index,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
