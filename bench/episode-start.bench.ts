// Episode overhead on MiniArena: what an env worker spends around the steps of a short episode.
//   start   host reset + BrowserEnv.reset (context, tab, start URL, first observation) + an ANSWER
//           step that ends and scores the episode — a new context per episode (WebArena) against
//           the last episode's cleaned context (env.reuse_context)
//   type    one search typed into the shop's search box and submitted: a key per character
//           (WebArena's keyboard.type) against one input event (env.typing: insert)
// Sides alternate round by round in one run; medians compared as ratios.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { startMiniArenaHost, TASKS_DIR, WEBARENA_SITES, type WebArenaSite } from '../src/arena/index.js';
import { BrowserEnv, loadTaskFile, type Task } from '../src/envs/index.js';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export async function episodeStartBench(options: { rounds?: number; episodesPerRound?: number } = {}) {
  const rounds = options.rounds ?? 12;
  const perRound = options.episodesPerRound ?? 4;
  const loadBefore = loadavg();
  const dir = mkdtempSync(path.join(tmpdir(), 'tti-episode-bench-'));
  const arena = await startMiniArenaHost({});
  mkdirSync(path.join(dir, '.auth'), { recursive: true });
  for (const site of Object.keys(WEBARENA_SITES) as WebArenaSite[])
    writeFileSync(path.join(dir, '.auth', `${site}_state.json`), JSON.stringify(arena.storageState([site])));
  // Tasks of every site and template, as a collection iteration draws them.
  const tasks = loadTaskFile(path.join(TASKS_DIR, 'train.json'), {
    hosts: arena.placeholders,
    authDir: dir,
  }).filter((_, i) => i % 7 === 0);
  const common = { actionFormat: 'tti' as const, allowedOrigins: [arena.origin], horizon: 10 };
  const sides = {
    fresh: await BrowserEnv.launch(common),
    reused: await BrowserEnv.launch({ ...common, reuseContext: true }),
  };
  const typing = {
    keys: await BrowserEnv.launch({ ...common, typing: 'keys' }),
    insert: await BrowserEnv.launch({ ...common, typing: 'insert' }),
  };
  let next = 0;
  const episode = async (env: BrowserEnv, task: Task) => {
    const t0 = performance.now();
    await arena.reset();
    await env.reset(task);
    const end = await env.step('Thought: answer.\nAction: ANSWER [nothing]');
    if (!end.done) throw new Error('the answer did not end the episode');
    return performance.now() - t0;
  };
  const search = async (env: BrowserEnv) => {
    const obs = await env.reset(shopHome(arena.urls.shopping));
    const box = obs.nodes.find((n) => n.role === 'searchbox');
    if (!box) throw new Error('no search box on the shop page');
    const t0 = performance.now();
    const r = await env.step(`Thought: search.\nAction: Type [${box.id}] [espresso machine grinder]`);
    const ms = performance.now() - t0;
    if (!r.observation?.url.includes('q=espresso'))
      throw new Error(`the search did not run: ${r.observation?.url}`);
    await env.abandon();
    return ms;
  };
  const start: Record<'fresh' | 'reused', number[]> = { fresh: [], reused: [] };
  const type: Record<'keys' | 'insert', number[]> = { keys: [], insert: [] };
  try {
    for (const env of Object.values(sides)) await episode(env, tasks[0]!); // warm-up
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 0 ? (['fresh', 'reused'] as const) : (['reused', 'fresh'] as const);
      const batch = Array.from({ length: perRound }, () => tasks[next++ % tasks.length]!);
      for (const side of order) {
        let ms = 0;
        for (const task of batch) ms += await episode(sides[side], task);
        start[side].push(ms / perRound);
      }
      for (const side of round % 2 === 0 ? (['keys', 'insert'] as const) : (['insert', 'keys'] as const))
        type[side].push(await search(typing[side]));
    }
    return {
      method:
        "medians over rounds alternating the sides in one run; start = host reset + BrowserEnv.reset + an ANSWER step that ends and scores the episode, mean of each round's episodes (tasks of every template, in turn)",
      rounds,
      episodesPerRound: perRound,
      start: {
        freshMs: median(start.fresh),
        reusedMs: median(start.reused),
        speedup: median(start.fresh) / median(start.reused),
        contexts: { fresh: sides.fresh.contexts, reused: sides.reused.contexts },
      },
      type: {
        keysMs: median(type.keys),
        insertMs: median(type.insert),
        speedup: median(type.keys) / median(type.insert),
      },
      rawRounds: { start, type },
      loadAverage: { before: loadBefore, after: loadavg() },
    };
  } finally {
    for (const env of [...Object.values(sides), ...Object.values(typing)]) await env.close();
    await arena.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

function shopHome(url: string): Task {
  return {
    kind: 'webarena',
    confined: true,
    id: 'bench-search',
    intent: 'search',
    sites: ['shopping'],
    startUrls: [`${url}/`],
    requireLogin: false,
    storageState: null,
    eval: null,
    intentTemplateId: null,
    source: { file: 'bench', entry: 0, format: 'webarena-raw' },
  };
}
