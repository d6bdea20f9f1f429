// How likely the untrained policy is to sample the oracle's own trajectory: the product of its
// probabilities of the oracle's actions along the demo. A lower bound on its success rate through
// that path (others succeed too), and a cheap, browser-free way to compare exploration priors.
// `node dist/experiments/exploration/exploration.js DEMOS.json [priorWeight…]`
import { loadBackend, TfjsPolicy } from '../../src/model/index.js';
import { alignAnswers } from '../bc-on-demos/measure.js';
import { type Demo, loadDemos } from '../oracle-demos/demos.js';

/** P(oracle trajectory) over a group of demos: the mean (ruled by the likeliest demo) and the mean log10. */
export interface PathProbability {
  demos: number;
  meanProb: number;
  meanLog10Prob: number;
  meanStepProb: number;
}

export interface ExplorationResult {
  /** per tier ("tier 1"…) and overall ("all") */
  byTier: Record<string, PathProbability>;
  /** per template, with the tiers its demos have (a template's long instances are tier 3) */
  byTemplate: Record<string, PathProbability & { tiers: number[] }>;
  /** mean probability of the oracle's action, per kind */
  kinds: Record<string, number>;
}

export function exploration(policy: TfjsPolicy, demos: Demo[]): ExplorationResult {
  type Sums = {
    demos: number;
    sum: number;
    log10Sum: number;
    stepSum: number;
    steps: number;
    tiers: Set<number>;
  };
  const tiers: Record<string, Sums> = {};
  const templates: Record<string, Sums> = {};
  const empty = (): Sums => ({ demos: 0, sum: 0, log10Sum: 0, stepSum: 0, steps: 0, tiers: new Set() });
  const at = (table: Record<string, Sums>, key: string): Sums => {
    table[key] ??= empty();
    return table[key];
  };
  const group = (d: Demo): Sums[] => {
    const g = [at(tiers, `tier ${d.tier}`), at(tiers, 'all'), at(templates, d.template)];
    for (const s of g) s.tiers.add(d.tier);
    return g;
  };
  const kinds: Record<string, { n: number; p: number }> = {};
  for (const d of demos) {
    if (!d.success || d.steps.some((s) => s.action === null)) continue;
    const { features, logits } = policy.scoreBatch(d.steps.map((s) => s.input));
    let logp = 0;
    let covered = true;
    d.steps.forEach((s, i) => {
      const l = logits[i]!;
      const max = Math.max(...l);
      const z = l.reduce((a, x) => a + Math.exp(x - max), 0);
      const k = features[i]!.candidates.findIndex((c) => c.action === s.action);
      if (k < 0) {
        covered = false;
        return;
      }
      const p = Math.exp(l[k]! - max) / z;
      logp += Math.log(p);
      const kind = features[i]!.candidates[k]!.kind;
      kinds[kind] ??= { n: 0, p: 0 };
      kinds[kind].n += 1;
      kinds[kind].p += p;
      for (const g of group(d)) {
        g.stepSum += p;
        g.steps += 1;
      }
    });
    if (!covered) continue;
    for (const g of group(d)) {
      g.demos += 1;
      g.sum += Math.exp(logp);
      g.log10Sum += logp / Math.LN10;
    }
  }
  const summary = (v: Sums): PathProbability => ({
    demos: v.demos,
    meanProb: v.sum / Math.max(1, v.demos),
    meanLog10Prob: v.log10Sum / Math.max(1, v.demos),
    meanStepProb: v.stepSum / Math.max(1, v.steps),
  });
  return {
    byTier: Object.fromEntries(Object.entries(tiers).map(([k, v]) => [k, summary(v)])),
    byTemplate: Object.fromEntries(
      Object.entries(templates)
        .map(([k, v]) => [k, { ...summary(v), tiers: [...v.tiers].sort((a, b) => a - b) }] as const)
        .sort((a, b) => a[1].tiers[0]! - b[1].tiers[0]! || a[0].localeCompare(b[0])),
    ),
    kinds: Object.fromEntries(Object.entries(kinds).map(([k, v]) => [k, v.p / v.n])),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await loadBackend('auto');
  const { demos } = alignAnswers(loadDemos(process.argv[2] ?? '/tmp/tti-demos.json'));
  const weights = process.argv.slice(3).map(Number);
  for (const w of weights.length ? weights : [0, 1]) {
    const policy = TfjsPolicy.create({ seed: 1, priorWeight: w });
    const r = exploration(policy, demos);
    process.stdout.write(`priorWeight ${w}: ${JSON.stringify({ byTier: r.byTier, kinds: r.kinds })}\n`);
    for (const [template, t] of Object.entries(r.byTemplate)) {
      const line =
        t.demos === 0
          ? 'no demo whose every step is a candidate'
          : `mean log10 P ${t.meanLog10Prob.toFixed(1)}  mean P ${t.meanProb.toExponential(1)}`;
      process.stdout.write(
        `  tier ${t.tiers.join(',').padEnd(3)} ${template.padEnd(38)} ${String(t.demos).padStart(3)} demos  ${line}\n`,
      );
    }
    policy.dispose();
  }
  process.exit(0);
}
