// A browser-free stand-in for TTI's online loop, to choose the learner's settings in seconds rather
// than in 15-minute runs: each iteration draws `episodes` train-split demo tasks, counts a task as
// solved with the policy's probability of sampling the oracle's whole trajectory (a lower bound on
// its success: other paths succeed too), keeps those, and trains on everything kept so far as the
// learner role does. After each iteration it reports, on the test-split demos, the mean
// oracle-path probability (≈ collection success) and how many demos the greedy policy gets
// entirely right (≈ greedy eval success), by tier.
// `node dist/experiments/score-penalty/online-sim.js DEMOS.json '{"lr":5e-3,"minUpdates":50}' …`
import {
  BcTrainer,
  loadBackend,
  seededRandom,
  TfjsPolicy,
  type TrainingStep,
} from '../../src/model/index.js';
import { accuracy, alignAnswers } from '../bc-on-demos/measure.js';
import { type Demo, loadDemos } from '../oracle-demos/demos.js';

export interface SimSettings {
  lr: number;
  batch: number;
  /** passes repeat until this many updates (the learner's min_updates) */
  minUpdates: number;
  /** but never more passes than this over the kept steps (0: no cap) */
  maxPasses: number;
  /** passes always made (actor_epochs) */
  epochs: number;
  episodes: number;
  iterations: number;
  /** BcTrainer's scorePenalty */
  scorePenalty: number;
  /** share of collection episodes sampled from the fixed prior alone (exploration) */
  explore: number;
  /** retrain from a fresh init on everything kept, every iteration */
  fromScratch: boolean;
  seed: number;
}

const DEFAULTS: SimSettings = {
  lr: 5e-3,
  batch: 8,
  minUpdates: 50,
  maxPasses: 0,
  epochs: 2,
  episodes: 48,
  iterations: 6,
  explore: 0,
  scorePenalty: 0,
  fromScratch: false,
  seed: 1,
};

/** log P(oracle trajectory) under the policy at temperature 1; null when a step is no candidate. */
function pathLogProb(policy: TfjsPolicy, demo: Demo): number | null {
  const { features, logits } = policy.scoreBatch(demo.steps.map((s) => s.input));
  let logp = 0;
  for (let i = 0; i < demo.steps.length; i++) {
    const l = logits[i]!;
    const k = features[i]!.candidates.findIndex((c) => c.action === demo.steps[i]!.action);
    if (k < 0) return null;
    let max = -Infinity;
    for (const x of l) max = Math.max(max, x);
    let z = 0;
    for (const x of l) z += Math.exp(x - max);
    logp += l[k]! - max - Math.log(z);
  }
  return logp;
}

/**
 * By tier, and `fresh`: the test demos of templates nothing was kept of yet, whose path probability
 * is what discovers new templates (a policy that learned one template must not lose the others).
 */
function testReport(policy: TfjsPolicy, test: Demo[], keptTemplates: ReadonlySet<string>) {
  const byTier: Record<string, { demos: number; pathProb: number; greedy: number }> = {};
  for (const d of test) {
    const lp = pathLogProb(policy, d);
    if (lp === null) continue;
    const keys = [`t${d.tier}`, 'all', ...(keptTemplates.has(d.template) ? [] : ['fresh'])];
    for (const key of keys) {
      byTier[key] ??= { demos: 0, pathProb: 0, greedy: 0 };
      byTier[key].demos += 1;
      byTier[key].pathProb += Math.exp(lp);
    }
    if (accuracy(policy, [d]).episodesAllCorrect === 1) for (const key of keys) byTier[key]!.greedy += 1;
  }
  return Object.fromEntries(
    Object.entries(byTier).map(([k, v]) => [
      k,
      `${((100 * v.pathProb) / v.demos).toFixed(2)}% path, greedy ${v.greedy}/${v.demos}`,
    ]),
  );
}

export function simulate(demos: Demo[], s: SimSettings, log: (line: string) => void): void {
  const usable = (d: Demo) => d.success && d.steps.every((x) => x.action !== null);
  const train = demos.filter((d) => d.split === 'train' && usable(d));
  const test = demos.filter((d) => d.split === 'test' && usable(d));
  const random = seededRandom(s.seed);
  let policy = TfjsPolicy.create({ seed: s.seed });
  // The untrained policy is the prior (its learned score starts ≈0): the exploration episodes' policy.
  const prior = TfjsPolicy.create({ seed: s.seed });
  let trainer = new BcTrainer(policy, { learningRate: s.lr, clipNorm: 1, scorePenalty: s.scorePenalty });
  const kept: Demo[] = [];
  log(`untrained: ${JSON.stringify(testReport(policy, test, new Set()))}`);
  for (let it = 1; it <= s.iterations; it++) {
    let solved = 0;
    const templates = new Map<string, number>();
    for (let e = 0; e < s.episodes; e++) {
      const d = train[Math.floor(random() * train.length)]!;
      const lp = pathLogProb(random() < s.explore ? prior : policy, d);
      if (lp !== null && random() < Math.exp(lp)) {
        solved += 1;
        kept.push(d);
        templates.set(d.template, (templates.get(d.template) ?? 0) + 1);
      }
    }
    if (s.fromScratch) {
      policy.dispose();
      policy = TfjsPolicy.create({ seed: s.seed + it });
      trainer = new BcTrainer(policy, { learningRate: s.lr, clipNorm: 1, scorePenalty: s.scorePenalty });
    }
    const steps: TrainingStep[] = kept.flatMap((d) =>
      d.steps.map((x) => ({ input: x.input, action: x.action! })),
    );
    let updates = 0;
    if (steps.length > 0) {
      const perPass = Math.ceil(steps.length / s.batch);
      let passes = Math.max(s.epochs, Math.ceil(s.minUpdates / perPass));
      if (s.maxPasses > 0) passes = Math.min(passes, Math.max(s.epochs, s.maxPasses));
      const r = trainer.train(steps, { epochs: passes, batchSize: s.batch, random });
      updates = r.updates;
    }
    log(
      `it ${it}: solved ${solved}/${s.episodes} (${[...templates].map(([t, n]) => `${t}×${n}`).join(' ')}), ` +
        `kept ${kept.length} (${steps.length} steps), ${updates} updates → ${JSON.stringify(testReport(policy, test, new Set(kept.map((d) => d.template))))}`,
    );
  }
  policy.dispose();
  prior.dispose();
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await loadBackend('auto');
  const { demos } = alignAnswers(loadDemos(process.argv[2] ?? '/tmp/tti-demos.json'));
  for (const variant of process.argv.slice(3).length ? process.argv.slice(3) : ['{}']) {
    const settings: SimSettings = { ...DEFAULTS, ...(JSON.parse(variant) as Partial<SimSettings>) };
    process.stdout.write(`== ${JSON.stringify(settings)}\n`);
    simulate(demos, settings, (line) => process.stdout.write(`${line}\n`));
  }
}
