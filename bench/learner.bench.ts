// Learner benchmark: BcTrainer.train samples per second and TfjsPolicy.act latency (batch 1 and
// 16) on the backend loadBackend('auto') picks, on realistic observations. With `demos` (a cache
// from experiments/oracle-demos, bench/demos-cache.ts) it uses recorded MiniArena steps; otherwise synthetic shop
// and tracker pages of the same size (≈250–350 nodes, 20 list rows, a form, a pager).
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  BcTrainer,
  buildCandidates,
  loadBackend,
  type NodeColumns,
  type PolicyInput,
  seededRandom,
  TfjsPolicy,
  type TrainingStep,
} from '../src/model/index.js';
import { DEMOS_CACHE, demoTrainingSteps, readDemosCache } from './demos-cache.js';

export interface LearnerBenchOptions {
  /** Cached oracle demos; synthetic steps when absent or missing. */
  demos?: string;
  /** Training samples per timed round. Default 256. */
  samples?: number;
  /** Timed training rounds (median reported). Default 5. */
  rounds?: number;
  batchSize?: number;
  /** Timed act calls per batch size. Default 40. */
  actReps?: number;
}

export interface LearnerBenchResult {
  backend: string;
  source: 'demos' | 'synthetic';
  parameters: number;
  candidatesPerStep: { mean: number; max: number };
  /** samplesPerSec is wall clock (median round); samplesPerCpuSec counts this process's CPU time, which
   *  a busy shared machine disturbs less. */
  train: { batchSize: number; samplesPerSec: number; samplesPerCpuSec: number; rounds: number[] };
  act: { batch1Ms: number; batch16Ms: number; perInputMsAt16: number };
  heapMB: number;
}

const WORDS = ['Blue', 'Smart', 'Compact', 'Deluxe', 'Travel', 'Eco', 'Classic', 'Ultra', 'Plus', 'Mini'];
const THINGS = ['Mug', 'Kettle', 'Jump Rope', 'Hair Dryer', 'Stapler', 'Planter', 'Beanie', 'Toaster'];

function syntheticPage(seed: number): { nodes: NodeColumns; names: string[]; prices: string[] } {
  const r = seededRandom(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)]!;
  const rows: [string, string, number, number][] = [
    ['RootWebArea', 'One Stop Market', 0, 1],
    ['link', 'One Stop Market', 1, 1],
    ['link', 'My Account', 1, 1],
    ['link', 'My Cart', 1, 1],
    ['searchbox', 'Search products', 1, 1],
    ['button', 'Search', 1, 1],
    ['navigation', 'Categories', 1, 1],
  ];
  for (const c of ['Kitchen', 'Garden', 'Pet Supplies', 'Beauty', 'Office', 'Sports'])
    rows.push(['link', c, 2, 1]);
  rows.push(['heading', 'Search results', 1, 1], ['combobox', 'Sort by', 1, 1]);
  const names: string[] = [];
  const prices: string[] = [];
  for (let i = 0; i < 20; i++) {
    const name = `${pick(WORDS)} ${pick(WORDS)} ${pick(THINGS)}`;
    const price = `$${(5 + r() * 200).toFixed(2)}`;
    names.push(name);
    prices.push(price);
    const v = i < 5 ? 1 : 0;
    rows.push(
      ['listitem', '', 2, v],
      ['img', name, 3, v],
      ['link', name, 3, v],
      ['StaticText', price, 3, v],
      ['StaticText', `Rating: ${1 + Math.floor(r() * 5)} out of 5 (${Math.floor(r() * 40)} reviews)`, 3, v],
      ['button', 'Add to Cart', 3, v],
      ['button', 'Add to Wish List', 3, v],
      ['generic', '', 3, v],
      ['StaticText', 'In stock', 4, v],
      ['LineBreak', '', 3, v],
      ['separator', '', 3, v],
      ['StaticText', '', 3, v],
      ['link', 'Compare', 3, v],
    );
  }
  for (const p of ['Previous', '1', '2', '3', 'Next']) rows.push(['link', p, 1, 0]);
  rows.push(['contentinfo', '', 1, 0], ['StaticText', 'Copyright 2024', 2, 0]);
  return {
    nodes: {
      ids: rows.map((_, i) => 100 + i),
      roles: rows.map((x) => x[0]),
      names: rows.map((x) => x[1]),
      depths: rows.map((x) => x[2]),
      inViewport: rows.map((x) => x[3]),
    },
    names,
    prices,
  };
}

export function syntheticSteps(n: number): TrainingStep[] {
  const out: TrainingStep[] = [];
  for (let k = 0; k < n; k++) {
    const page = syntheticPage(k);
    const j = k % 5;
    const input: PolicyInput = {
      intent: `What is the price of the ${page.names[j]}?`,
      url: `http://127.0.0.1:7770/shop/search?q=${k}`,
      nodes: page.nodes,
      history: k % 2 ? ['Type [104] [x]'] : [],
      step: k % 2,
      horizon: 30,
      note: null,
    };
    out.push({ input, action: `ANSWER [${page.prices[j]}]` });
  }
  return out;
}

export async function learnerBench(o: LearnerBenchOptions = {}): Promise<LearnerBenchResult> {
  const backend = await loadBackend('auto');
  const samples = o.samples ?? 256;
  const rounds = o.rounds ?? 5;
  const batchSize = o.batchSize ?? 32;
  let steps: TrainingStep[];
  let source: LearnerBenchResult['source'] = 'synthetic';
  if (o.demos && existsSync(o.demos)) {
    steps = demoTrainingSteps(readDemosCache(o.demos));
    source = 'demos';
  } else steps = syntheticSteps(samples);
  const counts = steps.map((s) => buildCandidates(s.input).length);
  const policy = TfjsPolicy.create({ seed: 1 });
  const trainer = new BcTrainer(policy, { learningRate: 1e-3, clipNorm: 1 });
  const random = seededRandom(2);
  const slice = (k: number) => {
    const from = (k * samples) % Math.max(1, steps.length - samples + 1);
    return steps.slice(from, from + samples);
  };
  trainer.train(slice(0).slice(0, batchSize * 2), { epochs: 1, batchSize, random }); // warm-up
  const perRound: number[] = [];
  const perCpu: number[] = [];
  for (let k = 0; k < rounds; k++) {
    const before = process.cpuUsage();
    const report = trainer.train(slice(k), { epochs: 1, batchSize, random });
    const used = process.cpuUsage(before);
    perRound.push(report.samplesPerSec);
    perCpu.push(report.samples / ((used.user + used.system) / 1e6));
  }
  const inputs = steps.map((s) => s.input);
  const greedy = { greedy: false, temperature: 1, random: seededRandom(3) };
  const time = (batch: PolicyInput[]) => {
    const t0 = performance.now();
    policy.act(batch, greedy);
    return performance.now() - t0;
  };
  for (let k = 0; k < 3; k++) time(inputs.slice(0, 16));
  const reps = o.actReps ?? 40;
  const one: number[] = [];
  const sixteen: number[] = [];
  for (let k = 0; k < reps; k++) {
    const at = (k * 16) % Math.max(1, inputs.length - 16);
    one.push(time([inputs[at]!]));
    sixteen.push(time(inputs.slice(at, at + 16)));
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
  const result: LearnerBenchResult = {
    backend,
    source,
    parameters: policy.parameterCount(),
    candidatesPerStep: { mean: counts.reduce((a, b) => a + b, 0) / counts.length, max: Math.max(...counts) },
    train: { batchSize, samplesPerSec: median(perRound), samplesPerCpuSec: median(perCpu), rounds: perRound },
    act: { batch1Ms: median(one), batch16Ms: median(sixteen), perInputMsAt16: median(sixteen) / 16 },
    heapMB: process.memoryUsage().heapUsed / 2 ** 20,
  };
  policy.dispose();
  trainer.dispose();
  return result;
}

/** For `npm run bench` (bench/run.ts): runs the benchmark, writes bench/results/learner.json, prints a line. */
export async function runLearnerBench(
  resultsDir: string,
  machine: Record<string, unknown>,
): Promise<LearnerBenchResult> {
  const demos = DEMOS_CACHE;
  const r = await learnerBench({ demos });
  writeFileSync(path.join(resultsDir, 'learner.json'), `${JSON.stringify({ machine, ...r }, null, 2)}\n`);
  process.stdout.write(
    `learner (${r.backend}, ${r.source} steps, ${r.candidatesPerStep.mean.toFixed(0)} candidates/step, ${r.parameters} parameters): ` +
      `train ${r.train.samplesPerSec.toFixed(0)} samples/s (${r.train.samplesPerCpuSec.toFixed(0)} per CPU-second, batch ${r.train.batchSize}); act batch 1 ${r.act.batch1Ms.toFixed(1)} ms, ` +
      `batch 16 ${r.act.batch16Ms.toFixed(1)} ms\n`,
  );
  return r;
}
