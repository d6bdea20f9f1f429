// MiniArena benchmark: how long a reset takes after episodes that changed state, and how long the
// server spends on a page (its `Server-Timing: app;dur=…` header), over real hosts; plus resets
// after real oracle episodes in Chromium that changed state.
import { performance } from 'node:perf_hooks';
import { type MiniArenaHost, resetMiniArenaOverHttp, startMiniArenaHost } from '../src/arena/index.js';
import {
  closeSlots,
  ORACLE_ENV,
  openSlots,
  readSplit,
  runOracleEpisode,
  selectTasks,
} from '../src/arena/oracle/index.js';

export interface Percentiles {
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
  samples: number;
}

export interface MiniArenaBenchOptions {
  /** Rounds of state-changing requests (1, 2 or 3 sites) each followed by a timed reset. */
  resetRounds?: number;
  /** Page requests timed by their Server-Timing header. */
  pageRequests?: number;
  /** Oracle episodes in Chromium that change state (program_html tasks), each followed by a timed reset; 0 skips. */
  browserEpisodes?: number;
}

export interface MiniArenaBenchResult {
  seed: number;
  /** host.reset() after rounds that changed state (1–3 sites touched by POSTs). */
  reset: Percentiles;
  /** The same, split by how many sites were touched. */
  resetByTouchedSites: Record<'1' | '2' | '3', Percentiles>;
  /** The token-guarded route `POST /__miniarena/reset` (client's view: HTTP round trip included). */
  resetOverHttp: Percentiles;
  /** host.reset() after a read-only round (nothing to restore). */
  resetAfterReadOnly: Percentiles;
  /** host.reset() after real oracle episodes in Chromium that changed state. */
  resetAfterBrowserEpisodes: Percentiles | null;
  /** Server time per page (Server-Timing app;dur), every site's pages the tasks visit. */
  pageServerTime: Percentiles;
  pageServerTimeBySite: Record<'shop' | 'forum' | 'tracker', Percentiles>;
  /** Client-side time per page request (fetch, localhost), for scale. */
  pageFetchTime: Percentiles;
  slowestPages: Array<{ path: string; p50Ms: number }>;
  durationMs: number;
}

function percentiles(xs: readonly number[]): Percentiles {
  const s = [...xs].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))] ?? 0;
  const r = (x: number) => Math.round(x * 1000) / 1000;
  return { p50Ms: r(at(0.5)), p95Ms: r(at(0.95)), maxMs: r(s.at(-1) ?? 0), samples: s.length };
}

function cookieHeader(host: MiniArenaHost): string {
  return host
    .storageState()
    .cookies.map((c) => `${c.name}=${c.value}`)
    .join('; ');
}

async function post(host: MiniArenaHost, path: string, form: Record<string, string>): Promise<void> {
  const res = await fetch(`${host.origin}${path}`, {
    method: 'POST',
    body: new URLSearchParams(form),
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: cookieHeader(host) },
    redirect: 'manual',
  });
  await res.arrayBuffer();
}

/** What an episode on each site typically changes: cart and review, a vote and a comment, an issue closed and commented. */
const MUTATIONS: Record<'shop' | 'forum' | 'tracker', (host: MiniArenaHost, i: number) => Promise<void>> = {
  shop: async (host, i) => {
    await post(host, '/shop/cart/add', { product_id: String(1 + (i % 200)), qty: '2' });
    await post(host, '/shop/checkout', {
      name: 'Emma Lopes',
      street: `${i} Main St`,
      city: 'Boise',
      state: 'ID',
      zip: '83702',
      shipping: 'standard',
    });
  },
  forum: async (host, i) => {
    await post(host, '/forum/submit', { forum: 'books', title: `Bench post ${i}`, body: 'Hello' });
  },
  tracker: async (host, i) => {
    await post(host, '/tracker/byteblaze/chat-widget/-/issues', {
      title: `Bench issue ${i}`,
      description: 'x',
    });
    await post(host, '/tracker/byteblaze/chat-widget/-/issues/1/notes', { note: `note ${i}` });
  },
};

/** Pages the tasks start on, check or cite, resolved on the host (each once). */
function taskPages(host: MiniArenaHost): string[] {
  const urls = new Set<string>();
  for (const t of readSplit('all')) {
    urls.add(t.start_url);
    for (const u of t.miniarena.evidence_urls) urls.add(u);
    if (t.eval.reference_url) urls.add(t.eval.reference_url);
    for (const p of t.eval.program_html) urls.add(p.url);
  }
  // sites take turns, so any number of requests samples all three
  const bySite = ['__SHOPPING__', '__REDDIT__', '__GITLAB__'].map((p) =>
    [...urls].filter((u) => u.startsWith(p)),
  );
  const out: string[] = [];
  for (let i = 0; out.length < urls.size; i++)
    for (const list of bySite) if (list[i] !== undefined) out.push(host.resolve(list[i]!));
  return out;
}

async function timePage(url: string, cookie: string): Promise<{ serverMs: number; fetchMs: number } | null> {
  const t0 = performance.now();
  const res = await fetch(url, { headers: { cookie }, redirect: 'manual' });
  await res.arrayBuffer();
  const fetchMs = performance.now() - t0;
  const m = /app;dur=([\d.]+)/.exec(res.headers.get('server-timing') ?? '');
  if (res.status !== 200 || !m) return null;
  return { serverMs: Number(m[1]), fetchMs };
}

export async function miniarenaBench(opts: MiniArenaBenchOptions = {}): Promise<MiniArenaBenchResult> {
  const started = performance.now();
  const host = await startMiniArenaHost();
  try {
    // resets after state changed on 1, 2 or 3 sites
    const rounds = opts.resetRounds ?? 150;
    const sites = ['shop', 'forum', 'tracker'] as const;
    const all: number[] = [];
    const byTouched: Record<'1' | '2' | '3', number[]> = { '1': [], '2': [], '3': [] };
    const overHttp: number[] = [];
    const readOnly: number[] = [];
    for (let i = 0; i < rounds; i++) {
      const touched = (i % 3) + 1;
      for (let k = 0; k < touched; k++) await MUTATIONS[sites[(i + k) % 3]!](host, i);
      if (i % 2 === 0) {
        const t0 = performance.now();
        await host.reset();
        const ms = performance.now() - t0;
        all.push(ms);
        byTouched[String(touched) as '1' | '2' | '3'].push(ms);
      } else {
        const t0 = performance.now();
        await resetMiniArenaOverHttp(host.origin, host.resetToken);
        overHttp.push(performance.now() - t0);
      }
      await timePage(`${host.urls.shopping}/`, '');
      const t1 = performance.now();
      await host.reset();
      readOnly.push(performance.now() - t1);
    }

    // server time per page
    const pages = taskPages(host);
    const cookie = cookieHeader(host);
    const n = opts.pageRequests ?? 1500;
    const server: number[] = [];
    const fetches: number[] = [];
    const bySite: Record<'shop' | 'forum' | 'tracker', number[]> = { shop: [], forum: [], tracker: [] };
    const byPath = new Map<string, number[]>();
    for (let i = 0; i < n; i++) {
      const url = pages[i % pages.length]!;
      const r = await timePage(url, cookie);
      if (!r) continue;
      server.push(r.serverMs);
      fetches.push(r.fetchMs);
      const path = new URL(url).pathname + new URL(url).search;
      const site = path.startsWith('/shop') ? 'shop' : path.startsWith('/forum') ? 'forum' : 'tracker';
      bySite[site].push(r.serverMs);
      byPath.set(path, [...(byPath.get(path) ?? []), r.serverMs]);
    }
    const slowestPages = [...byPath]
      .map(([path, xs]) => ({ path, p50Ms: percentiles(xs).p50Ms }))
      .sort((a, b) => b.p50Ms - a.p50Ms)
      .slice(0, 5);

    // resets after real episodes in Chromium (the oracle solving state-changing tasks)
    let browser: Percentiles | null = null;
    const episodes = opts.browserEpisodes ?? 12;
    if (episodes > 0) {
      const mutating = readSplit('test').filter((t) => t.require_reset);
      const chosen = selectTasks(mutating, { limit: episodes });
      const [slot] = await openSlots(1, { split: 'test', env: ORACLE_ENV });
      const times: number[] = [];
      try {
        for (const t of chosen) {
          await runOracleEpisode(slot!, t);
          const t0 = performance.now();
          await slot!.host.reset();
          times.push(performance.now() - t0);
        }
      } finally {
        await closeSlots([slot!]);
      }
      browser = percentiles(times);
    }

    return {
      seed: host.seed,
      reset: percentiles(all),
      resetByTouchedSites: {
        '1': percentiles(byTouched['1']),
        '2': percentiles(byTouched['2']),
        '3': percentiles(byTouched['3']),
      },
      resetOverHttp: percentiles(overHttp),
      resetAfterReadOnly: percentiles(readOnly),
      resetAfterBrowserEpisodes: browser,
      pageServerTime: percentiles(server),
      pageServerTimeBySite: {
        shop: percentiles(bySite.shop),
        forum: percentiles(bySite.forum),
        tracker: percentiles(bySite.tracker),
      },
      pageFetchTime: percentiles(fetches),
      slowestPages,
      durationMs: Math.round(performance.now() - started),
    };
  } finally {
    await host.close();
  }
}
