// Adam benchmark (`node dist/bench/run.js adam`): the trainer's update with tfjs's Adam
// (src/model/optimizer.ts) against the hand-written one it replaced (test/helpers/hand-written-adam.ts),
// on the real network (default options) and the learner bench's pages, batch 32. Rounds alternate
// between the two so a busy machine slows both alike; each reports the whole update and the
// optimizer's step within it (the step is synchronous on cpu and wasm, so its wall time is its
// cost). Last, what a dense tfjs Adam would cost on the embedding table, which the lazy row
// update avoids.
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  BcTrainer,
  loadBackend,
  PolicyAdam,
  type PolicyOptimizer,
  seededRandom,
  TfjsPolicy,
  type TrainingStep,
} from '../src/model/index.js';
import { tf } from '../src/model/tf.js';
import { HandWrittenAdam } from '../test/helpers/hand-written-adam.js';
import { DEMOS_CACHE, demoTrainingSteps, readDemosCache } from './demos-cache.js';
import { syntheticSteps } from './learner.bench.js';

interface Round {
  updateMs: number;
  stepMs: number;
  /** this process's CPU time, which a busy shared machine disturbs less than the wall clock */
  updateCpuMs: number;
  stepCpuMs: number;
}

interface Side {
  /** medians over rounds of the mean per update: the whole update, and the optimizer's step in it */
  updateMs: number;
  stepMs: number;
  updateCpuMs: number;
  stepCpuMs: number;
  rounds: Round[];
}

export interface AdamBenchResult {
  backend: string;
  source: 'demos' | 'synthetic';
  parameters: number;
  batchSize: number;
  updatesPerRound: number;
  tfjs: Side;
  handWritten: Side;
  /** tfjs / hand-written, medians of the per-round ratios of CPU time */
  updateRatio: number;
  stepRatio: number;
  /** tf.train.adam on the [buckets × embedDim] table as one dense variable, CPU ms per step */
  denseEmbeddingStepMs: number;
}

/** Times each step() of the optimizer it wraps. */
class Timed implements PolicyOptimizer {
  ms = 0;
  cpuMs = 0;
  constructor(private readonly inner: PolicyOptimizer) {}
  get steps() {
    return this.inner.steps;
  }
  step(...args: Parameters<PolicyOptimizer['step']>) {
    const t0 = performance.now();
    const cpu = process.cpuUsage();
    this.inner.step(...args);
    const used = process.cpuUsage(cpu);
    this.ms += performance.now() - t0;
    this.cpuMs += (used.user + used.system) / 1000;
  }
  exportState() {
    return this.inner.exportState();
  }
  importState(...args: Parameters<PolicyOptimizer['importState']>) {
    return this.inner.importState(...args);
  }
  dispose() {
    this.inner.dispose();
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

export async function adamBench(o: { rounds?: number; samples?: number } = {}): Promise<AdamBenchResult> {
  const backend = await loadBackend('auto');
  const rounds = o.rounds ?? 7;
  const samples = o.samples ?? 128;
  const batchSize = 32;
  let steps: TrainingStep[];
  let source: AdamBenchResult['source'] = 'synthetic';
  if (existsSync(DEMOS_CACHE)) {
    steps = demoTrainingSteps(readDemosCache(DEMOS_CACHE)).slice(0, samples);
    source = 'demos';
  } else steps = syntheticSteps(samples);
  const make = (which: 'tfjs' | 'handWritten') => {
    const made: { timed?: Timed } = {};
    const trainer = new BcTrainer(
      TfjsPolicy.create({ seed: 1 }),
      { learningRate: 1e-3, clipNorm: 1 },
      (p, a) => {
        made.timed = new Timed(which === 'tfjs' ? new PolicyAdam(p, a) : new HandWrittenAdam(p, a));
        return made.timed;
      },
    );
    return { which, trainer, timed: made.timed! };
  };
  const sides = [make('tfjs'), make('handWritten')];
  for (const s of sides)
    s.trainer.train(steps.slice(0, batchSize * 2), { epochs: 1, batchSize, random: seededRandom(1) });
  const per: Record<'tfjs' | 'handWritten', Round[]> = { tfjs: [], handWritten: [] };
  for (let r = 0; r < rounds; r++) {
    // alternate which goes first
    for (const s of r % 2 === 0 ? sides : [...sides].reverse()) {
      s.timed.ms = 0;
      s.timed.cpuMs = 0;
      const t0 = performance.now();
      const cpu = process.cpuUsage();
      const report = s.trainer.train(steps, { epochs: 1, batchSize, random: seededRandom(10 + r) });
      const used = process.cpuUsage(cpu);
      const n = report.updates;
      per[s.which].push({
        updateMs: (performance.now() - t0) / n,
        stepMs: s.timed.ms / n,
        updateCpuMs: (used.user + used.system) / 1000 / n,
        stepCpuMs: s.timed.cpuMs / n,
      });
    }
  }
  const side = (rs: Round[]): Side => ({
    updateMs: median(rs.map((x) => x.updateMs)),
    stepMs: median(rs.map((x) => x.stepMs)),
    updateCpuMs: median(rs.map((x) => x.updateCpuMs)),
    stepCpuMs: median(rs.map((x) => x.stepCpuMs)),
    rounds: rs,
  });
  const policy = sides[0]!.trainer.policy;
  const { buckets, embedDim } = policy.options;
  const result: AdamBenchResult = {
    backend,
    source,
    parameters: policy.parameterCount(),
    batchSize,
    updatesPerRound: Math.ceil(steps.length / batchSize),
    tfjs: side(per.tfjs),
    handWritten: side(per.handWritten),
    updateRatio: median(per.tfjs.map((x, i) => x.updateCpuMs / per.handWritten[i]!.updateCpuMs)),
    stepRatio: median(per.tfjs.map((x, i) => x.stepCpuMs / per.handWritten[i]!.stepCpuMs)),
    denseEmbeddingStepMs: denseEmbeddingStep(buckets, embedDim),
  };
  for (const s of sides) {
    s.trainer.dispose();
    s.trainer.policy.dispose();
  }
  return result;
}

/** CPU ms per tf.train.adam step on the whole embedding table, its gradient uploaded each step. */
function denseEmbeddingStep(buckets: number, embedDim: number): number {
  const table = tf.variable(tf.randomNormal([buckets, embedDim]));
  const adam = tf.train.adam(1e-3, 0.9, 0.999, 1e-8);
  const gradient = new Float32Array(buckets * embedDim);
  // a batch touches a few hundred rows
  for (let r = 0; r < 400; r++)
    gradient.fill(0.01, ((r * 41) % buckets) * embedDim, (((r * 41) % buckets) + 1) * embedDim);
  const step = () =>
    tf.tidy(() =>
      adam.applyGradients([{ name: table.name, tensor: tf.tensor2d(gradient, [buckets, embedDim]) }]),
    );
  for (let k = 0; k < 3; k++) step();
  const times: number[] = [];
  for (let k = 0; k < 15; k++) {
    const cpu = process.cpuUsage();
    step();
    table.dataSync();
    const used = process.cpuUsage(cpu);
    times.push((used.user + used.system) / 1000);
  }
  adam.dispose();
  table.dispose();
  return median(times);
}

/** For `npm run bench` (bench/run.ts): runs the benchmark, writes bench/results/adam.json, prints a line. */
export async function runAdamBench(
  resultsDir: string,
  machine: Record<string, unknown>,
): Promise<AdamBenchResult> {
  const r = await adamBench();
  writeFileSync(path.join(resultsDir, 'adam.json'), `${JSON.stringify({ machine, ...r }, null, 2)}\n`);
  process.stdout.write(
    `adam (${r.backend}, ${r.source} steps, ${r.parameters} parameters, batch ${r.batchSize}), CPU ms per update: ` +
      `${r.tfjs.updateCpuMs.toFixed(1)} with tfjs's Adam, ${r.handWritten.updateCpuMs.toFixed(1)} hand-written ` +
      `(×${r.updateRatio.toFixed(3)}); the optimizer's step in it ${r.tfjs.stepCpuMs.toFixed(2)} vs ` +
      `${r.handWritten.stepCpuMs.toFixed(2)} (×${r.stepRatio.toFixed(3)}); wall ${r.tfjs.updateMs.toFixed(0)} vs ` +
      `${r.handWritten.updateMs.toFixed(0)} ms; a dense tfjs Adam on the embedding table ` +
      `${r.denseEmbeddingStepMs.toFixed(1)} CPU ms a step\n`,
  );
  return r;
}
