// What the encoder reads of the observation as a whole, beside its candidates: the task's tokens
// with where each is found (the page, the URL, the title, the trail), the URL's, title's and
// trail's bags, and how far along the episode and the task are.
import { BagBuilder, hashed, special } from './bag-builder.js';
import { BAG_CAP, type Bags, OBSERVATION_BAGS, OBSERVATION_SCALAR_SIZE, TOKEN_FLAG_SIZE } from './layout.js';
import { memoKeys } from './match-words.js';
import type { TaskText } from './task-text.js';
import type { TrailAct } from './trail-acts.js';
import type { PolicyInput } from './types.js';

/** A URL's path and query as words ("/forum/f/books?sort=new" → forum f books sort new). */
export function urlWords(url: string): string {
  try {
    const u = new URL(url);
    return `${u.pathname} ${[...u.searchParams].map(([k, v]) => `${k} ${v}`).join(' ')}`.replace(
      /[/_=&?-]/g,
      ' ',
    );
  } catch {
    return url.replace(/[/_=&?:.-]/g, ' ');
  }
}

/** The task's tokens and flags, the observation's bags and its scalar facts. */
export function observationFacts(
  input: PolicyInput,
  task: TaskText,
  trail: readonly TrailAct[],
  /** the page's node count */
  N: number,
  buckets: number,
): {
  taskTok: Int32Array;
  taskFlags: Float32Array;
  observationBags: Record<(typeof OBSERVATION_BAGS)[number], Bags>;
  observationScalars: Float32Array;
} {
  const nodes = input.nodes;
  const T = task.words.length;
  const obs = Object.fromEntries(
    OBSERVATION_BAGS.map((k) => [k, new BagBuilder(buckets, BAG_CAP[k])]),
  ) as Record<(typeof OBSERVATION_BAGS)[number], BagBuilder>;
  const taskTok = new Int32Array(T);
  const taskFlags = new Float32Array(T * TOKEN_FLAG_SIZE);
  const observationScalars = new Float32Array(OBSERVATION_SCALAR_SIZE);

  // The page's words, the URL's, the title's and the trail's: what task tokens are found in.
  const pageWords = new Set<string>();
  for (let i = 0; i < N; i++) for (const w of memoKeys.get(nodes.names[i] ?? '')) pageWords.add(w);
  const urlText = urlWords(input.url);
  const urlSet = new Set(memoKeys.get(urlText));
  const rootIndex = nodes.roles.indexOf('RootWebArea');
  const title = rootIndex >= 0 ? (nodes.names[rootIndex] ?? '') : '';
  const titleSet = new Set(memoKeys.get(title));
  const trailWords = new Set<string>();
  const pastUrlWords = new Set<string>();
  for (const t of trail) {
    for (const w of memoKeys.get(`${t.name} ${t.text}`)) trailWords.add(w);
    if (t.url && t.url !== input.url) for (const w of memoKeys.get(urlWords(t.url))) pastUrlWords.add(w);
  }

  task.words.forEach((word, j) => {
    const w = task.keys[j]!;
    taskTok[j] = hashed(word, buckets);
    const [quoted, capital, numeric, content] = task.flags[j]!;
    taskFlags.set(
      [
        quoted!,
        capital!,
        numeric!,
        content!,
        pageWords.has(w) ? 1 : 0,
        urlSet.has(w) ? 1 : 0,
        titleSet.has(w) ? 1 : 0,
        trailWords.has(w) ? 1 : 0,
        pastUrlWords.has(w) ? 1 : 0,
      ],
      j * TOKEN_FLAG_SIZE,
    );
  });

  obs.url.words(urlText);
  obs.url.end();
  obs.title.words(title);
  obs.title.end();
  for (let k = trail.length - 1; k >= 0; k--) {
    const t = trail[k]!;
    obs.history.add(special('kind', t.kind));
    obs.history.words(`${t.name} ${t.text}`);
  }
  obs.history.end();
  const last = trail[trail.length - 1];
  if (last) {
    obs.last.add(special('kind', last.kind));
    if (last.role) obs.last.add(special('role', last.role));
    if (last.url === input.url) obs.last.add(special('last', 'same-page'));
    obs.last.words(`${last.name} ${last.text}`);
  } else obs.last.add(special('last', 'none'));
  obs.last.end();
  let contentWords = 0;
  let contentDone = 0;
  let quotedWords = 0;
  let quotedDone = 0;
  let contentOnPage = 0;
  task.keys.forEach((w, j) => {
    const [quoted, , , content] = task.flags[j]!;
    if (!content) return;
    contentWords += 1;
    if (trailWords.has(w)) contentDone += 1;
    if (pageWords.has(w)) contentOnPage += 1;
    if (quoted) {
      quotedWords += 1;
      if (trailWords.has(w)) quotedDone += 1;
    }
  });
  observationScalars.set([
    input.step / Math.max(1, input.horizon),
    input.step === 0 ? 1 : 0,
    Math.min(1, (input.horizon - input.step) / 10),
    input.note ? 1 : 0,
    Math.min(1, trail.length / 20),
    contentWords > 0 ? contentDone / contentWords : 0,
    quotedWords > 0 ? quotedDone / quotedWords : 0,
    contentWords > 0 ? contentOnPage / contentWords : 0,
  ]);
  return {
    taskTok,
    taskFlags,
    observationBags: Object.fromEntries(OBSERVATION_BAGS.map((k) => [k, obs[k].build()])) as Record<
      (typeof OBSERVATION_BAGS)[number],
      Bags
    >,
    observationScalars,
  };
}
