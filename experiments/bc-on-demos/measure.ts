// Measurements behind docs/model.md, on cached oracle demos (demos.ts):
//   coverage      share of oracle steps whose action is one of the policy's candidates
//   candidates    per step (mean, p50, p95, max)
//   init          the untrained policy's expected mass per action kind
//   accuracy      greedy step accuracy after BC on train-split demos, on test-split demos of
//                 seen templates and of held-out templates (and on the training demos)
//   speed         training samples/s, act latency for batch 1 and 16
// `node dist/experiments/bc-on-demos/measure.js DEMOS.json [variant JSON] [epochs]`
import {
  BcTrainer,
  buildCandidateSet,
  CheckpointStore,
  type KINDS,
  loadBackend,
  type PolicyInput,
  type PolicyOptions,
  saveModelCheckpoint,
  seededRandom,
  TfjsPolicy,
  type TrainingStep,
} from '../../src/model/index.js';
import { answerKeys, type Demo, type DemoStep, loadDemos, passes } from '../oracle-demos/demos.js';

type Kind = (typeof KINDS)[number];

const kindOf = (action: string): string => /^(\w+)/.exec(action)?.[1] ?? '?';

function quantile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? 0;
}

/**
 * The oracle computes some answers ("$3.99 - $96.99", "437.95, complete", a count) that are no
 * candidate string, while a candidate that passes the same evaluator exists (the row or column
 * joined, a part of a text). TTI keeps a trajectory for its success, not its wording, so such a
 * step is representable: retarget it to the shortest passing candidate. Returns how many were.
 */
export function alignAnswers(demos: Demo[]): { demos: Demo[]; aligned: number } {
  const keys = answerKeys();
  let aligned = 0;
  const out = demos.map((d) => {
    const key = keys.get(d.taskId);
    if (!key || !d.success) return d;
    const steps = d.steps.map((s) => {
      if (!s.action?.startsWith('ANSWER')) return s;
      const cands = buildCandidateSet(s.input).candidates;
      if (cands.some((c) => c.action === s.action)) return s;
      const ok = cands
        .filter((c) => c.kind === 'answer' && passes(c.text, key))
        .sort((a, b) => a.text.length - b.text.length);
      if (ok.length === 0) return s;
      aligned += 1;
      return { ...s, action: ok[0]!.action };
    });
    return { ...d, steps };
  });
  return { demos: out, aligned };
}

export interface Coverage {
  steps: number;
  covered: number;
  rate: number;
  byKind: Record<string, { steps: number; covered: number }>;
  byTemplate: Record<string, { steps: number; covered: number }>;
  uncovered: { template: string; oracle: string; action: string | null }[];
  candidates: { mean: number; p50: number; p95: number; max: number };
}

export function coverage(demos: Demo[]): Coverage {
  const byKind: Coverage['byKind'] = {};
  const byTemplate: Coverage['byTemplate'] = {};
  const uncovered: Coverage['uncovered'] = [];
  const counts: number[] = [];
  let steps = 0;
  let covered = 0;
  for (const d of demos) {
    if (!d.success) continue;
    for (const s of d.steps) {
      const { candidates } = buildCandidateSet(s.input);
      counts.push(candidates.length);
      const ok = s.action !== null && candidates.some((c) => c.action === s.action);
      const kind = s.action ? kindOf(s.action) : 'none';
      const k = byKind[kind] ?? { steps: 0, covered: 0 };
      const t = byTemplate[d.template] ?? { steps: 0, covered: 0 };
      byKind[kind] = k;
      byTemplate[d.template] = t;
      k.steps += 1;
      t.steps += 1;
      steps += 1;
      if (ok) {
        covered += 1;
        k.covered += 1;
        t.covered += 1;
      } else if (uncovered.length < 400)
        uncovered.push({ template: d.template, oracle: s.oracle, action: s.action });
    }
  }
  return {
    steps,
    covered,
    rate: steps ? covered / steps : 0,
    byKind,
    byTemplate,
    uncovered,
    candidates: {
      mean: counts.reduce((a, b) => a + b, 0) / Math.max(1, counts.length),
      p50: quantile(counts, 0.5),
      p95: quantile(counts, 0.95),
      max: Math.max(0, ...counts),
    },
  };
}

/** Expected probability mass per kind under the policy, averaged over steps. */
export function kindMass(policy: TfjsPolicy, inputs: PolicyInput[]): Record<string, number> {
  const mass: Record<string, number> = {};
  for (let i = 0; i < inputs.length; i += 16) {
    const { features, logits } = policy.scoreBatch(inputs.slice(i, i + 16));
    features.forEach((f, b) => {
      const l = logits[b]!;
      const max = Math.max(...l);
      const e = Array.from(l, (x) => Math.exp(x - max));
      const total = e.reduce((a, x) => a + x, 0);
      f.candidates.forEach((c, k) => {
        mass[c.kind] = (mass[c.kind] ?? 0) + e[k]! / total / inputs.length;
      });
    });
  }
  return mass;
}

export interface Accuracy {
  steps: number;
  correct: number;
  rate: number;
  /** Demos whose every step the greedy policy gets right. */
  episodes: number;
  episodesAllCorrect: number;
  byKind: Record<string, { steps: number; correct: number }>;
}

export function accuracy(policy: TfjsPolicy, demos: Demo[]): Accuracy {
  const byKind: Accuracy['byKind'] = {};
  let steps = 0;
  let correct = 0;
  let episodesAllCorrect = 0;
  let episodes = 0;
  for (const d of demos) {
    if (!d.success) continue;
    episodes += 1;
    let all = true;
    const inputs = d.steps.map((s) => s.input);
    const decisions: string[] = [];
    for (let i = 0; i < inputs.length; i += 16)
      decisions.push(
        ...policy
          .act(inputs.slice(i, i + 16), { greedy: true, temperature: 1, random: () => 0 })
          .map((x) => x.action),
      );
    d.steps.forEach((s: DemoStep, i) => {
      const kind = s.action ? kindOf(s.action) : 'none';
      const k = byKind[kind] ?? { steps: 0, correct: 0 };
      byKind[kind] = k;
      k.steps += 1;
      steps += 1;
      if (decisions[i] === s.action) {
        correct += 1;
        k.correct += 1;
      } else all = false;
    });
    if (all) episodesAllCorrect += 1;
  }
  return { steps, correct, rate: steps ? correct / steps : 0, episodes, episodesAllCorrect, byKind };
}

export function trainingStepsOf(demos: Demo[]): TrainingStep[] {
  return demos
    .filter((d) => d.success)
    .flatMap((d) =>
      d.steps.filter((s) => s.action !== null).map((s) => ({ input: s.input, action: s.action! })),
    );
}

export interface LatencyResult {
  batch1Ms: number;
  batch16Ms: number;
  batch16PerInputMs: number;
  featurizeMsPerInput: number;
}

export function actLatency(policy: TfjsPolicy, inputs: PolicyInput[], reps = 30): LatencyResult {
  const opts = { greedy: false, temperature: 1, random: seededRandom(1) };
  const time = (batch: PolicyInput[]) => {
    const t0 = performance.now();
    policy.act(batch, opts);
    return performance.now() - t0;
  };
  for (let k = 0; k < 3; k++) time(inputs.slice(0, 16));
  const one: number[] = [];
  const sixteen: number[] = [];
  const feat: number[] = [];
  for (let k = 0; k < reps; k++) {
    const at = (k * 16) % Math.max(1, inputs.length - 16);
    one.push(time([inputs[at]!]));
    const batch = inputs.slice(at, at + 16);
    sixteen.push(time(batch));
    const t0 = performance.now();
    for (const i of batch) policy.featurizeOne(i);
    feat.push((performance.now() - t0) / batch.length);
  }
  const b16 = quantile(sixteen, 0.5);
  return {
    batch1Ms: quantile(one, 0.5),
    batch16Ms: b16,
    batch16PerInputMs: b16 / 16,
    featurizeMsPerInput: quantile(feat, 0.5),
  };
}

export interface VariantResult {
  variant: Partial<PolicyOptions>;
  parameters: number;
  backend: string;
  epochs: number;
  trainSamples: number;
  skipped: number;
  trainSeconds: number;
  samplesPerSec: number;
  finalLoss: number;
  initKindMass: Record<string, number>;
  accuracy: {
    train: Accuracy;
    seen: Accuracy;
    heldOut: Accuracy;
    untrainedSeen: Accuracy;
    untrainedHeldOut: Accuracy;
  };
  latency: LatencyResult;
}

export async function measureVariant(
  demos: Demo[],
  variant: Partial<PolicyOptions>,
  o: {
    epochs: number;
    batchSize: number;
    learningRate: number;
    seed: number;
    backend?: 'auto' | 'cpu' | 'wasm';
    /** a CheckpointStore directory to save the trained policy in */
    saveTo?: string;
  },
): Promise<VariantResult> {
  const backend = await loadBackend(o.backend ?? 'auto');
  const train = demos.filter((d) => d.split === 'train');
  const seen = demos.filter((d) => d.split === 'test' && !d.heldOut);
  const heldOut = demos.filter((d) => d.split === 'test' && d.heldOut);
  const policy = TfjsPolicy.create({ ...variant, seed: o.seed });
  const allInputs = trainingStepsOf(train).map((s) => s.input);
  const initKindMass = kindMass(policy, allInputs);
  const untrainedSeen = accuracy(policy, seen);
  const untrainedHeldOut = accuracy(policy, heldOut);
  const trainer = new BcTrainer(policy, { learningRate: o.learningRate, clipNorm: 1 });
  const steps = trainingStepsOf(train);
  const t0 = performance.now();
  const random = seededRandom(o.seed + 1);
  let report = trainer.train(steps, { epochs: 1, batchSize: o.batchSize, random });
  let trained = report.samples;
  for (let e = 1; e < o.epochs; e++) {
    report = trainer.train(steps, { epochs: 1, batchSize: o.batchSize, random });
    trained += report.samples;
  }
  const trainSeconds = (performance.now() - t0) / 1000;
  const result: VariantResult = {
    variant,
    parameters: policy.parameterCount(),
    backend,
    epochs: o.epochs,
    trainSamples: report.samples,
    skipped: report.skipped,
    trainSeconds,
    samplesPerSec: trained / trainSeconds,
    finalLoss: report.loss,
    initKindMass,
    accuracy: {
      train: accuracy(policy, train),
      seen: accuracy(policy, seen),
      heldOut: accuracy(policy, heldOut),
      untrainedSeen,
      untrainedHeldOut,
    },
    latency: actLatency(policy, allInputs),
  };
  if (o.saveTo)
    saveModelCheckpoint(new CheckpointStore(o.saveTo, 3), Date.now() % 1e8, policy, trainer, {
      epochs: o.epochs,
    });
  policy.dispose();
  trainer.dispose();
  return result;
}

function pct(x: number): string {
  return `${(100 * x).toFixed(1)}%`;
}

export function summarize(r: VariantResult): string {
  const a = r.accuracy;
  return [
    `variant ${JSON.stringify(r.variant)} params ${r.parameters} backend ${r.backend}`,
    `  train ${r.trainSamples} samples (skipped ${r.skipped}) × ${r.epochs} epochs in ${r.trainSeconds.toFixed(1)} s = ${r.samplesPerSec.toFixed(0)} samples/s, final loss ${r.finalLoss.toFixed(3)}`,
    `  step accuracy: train ${pct(a.train.rate)}  seen ${pct(a.seen.rate)} (untrained ${pct(a.untrainedSeen.rate)})  held-out ${pct(a.heldOut.rate)} (untrained ${pct(a.untrainedHeldOut.rate)})`,
    `  all-steps-right episodes: seen ${a.seen.episodesAllCorrect}/${a.seen.episodes}  held-out ${a.heldOut.episodesAllCorrect}/${a.heldOut.episodes}`,
    `  by kind (seen): ${Object.entries(a.seen.byKind)
      .map(([k, v]) => `${k} ${v.correct}/${v.steps}`)
      .join(', ')}`,
    `  by kind (held-out): ${Object.entries(a.heldOut.byKind)
      .map(([k, v]) => `${k} ${v.correct}/${v.steps}`)
      .join(', ')}`,
    `  init kind mass: ${Object.entries(r.initKindMass)
      .map(([k, v]) => `${k} ${v.toFixed(3)}`)
      .join(', ')}`,
    `  act latency: batch 1 ${r.latency.batch1Ms.toFixed(1)} ms, batch 16 ${r.latency.batch16Ms.toFixed(1)} ms (${r.latency.batch16PerInputMs.toFixed(2)} ms/input; featurize ${r.latency.featurizeMsPerInput.toFixed(2)} ms/input)`,
  ].join('\n');
}

export type { Kind };

if (import.meta.url === `file://${process.argv[1]}`) {
  const raw = loadDemos(process.argv[2] ?? '/tmp/tti-demos.json');
  const mode = process.argv[3] ?? 'coverage';
  const exact = mode === 'coverage' ? coverage(raw) : null;
  const { demos, aligned } = alignAnswers(raw);
  if (mode === 'coverage' && exact) {
    process.stdout.write(
      `exact coverage ${exact.covered}/${exact.steps} = ${pct(exact.rate)}; ${aligned} answers aligned to a passing candidate\n`,
    );
    const c = coverage(demos);
    process.stdout.write(
      `coverage ${c.covered}/${c.steps} = ${pct(c.rate)}; candidates mean ${c.candidates.mean.toFixed(0)} p50 ${c.candidates.p50} p95 ${c.candidates.p95} max ${c.candidates.max}\n`,
    );
    process.stdout.write(`by kind: ${JSON.stringify(c.byKind)}\n`);
    for (const [t, v] of Object.entries(c.byTemplate))
      if (v.covered < v.steps) process.stdout.write(`  ${t}: ${v.covered}/${v.steps}\n`);
    const shown = new Map<string, number>();
    for (const u of c.uncovered) {
      const n = shown.get(u.template) ?? 0;
      if (n < 3) process.stdout.write(`  - ${u.template}: ${u.action ?? u.oracle}\n`);
      shown.set(u.template, n + 1);
    }
  } else {
    const variant = JSON.parse(mode) as Partial<PolicyOptions>;
    const epochs = Number(process.argv[4] ?? 8);
    const backend = (process.argv[5] ?? 'auto') as 'auto' | 'cpu' | 'wasm';
    const r = await measureVariant(demos, variant, {
      epochs,
      batchSize: 32,
      learningRate: 3e-3,
      seed: 1,
      backend,
      saveTo: process.argv[6],
    });
    process.stdout.write(`${summarize(r)}\n`);
    process.stdout.write(`RESULT ${JSON.stringify(r)}\n`);
  }
  process.exit(0);
}
