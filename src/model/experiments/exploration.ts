// How likely the untrained policy is to sample the oracle's own trajectory: the product of its
// probabilities of the oracle's actions along the demo. A lower bound on its success rate through
// that path (others succeed too), and a cheap, browser-free way to compare exploration priors.
// `node dist/src/model/experiments/exploration.js DEMOS.json [priorWeight…]`
import { loadBackend } from '../backend.js';
import { TfjsPolicy } from '../policy.js';
import { type Demo, loadDemos } from './demos.js';
import { alignAnswers } from './measure.js';

export interface ExplorationResult {
  priorWeight: number;
  /** mean over demos of P(oracle trajectory), per tier and overall */
  byTier: Record<string, { demos: number; meanProb: number; meanStepProb: number }>;
  /** mean probability of the oracle's action, per kind */
  byKind: Record<string, number>;
}

export function exploration(
  policy: TfjsPolicy,
  demos: Demo[],
): ExplorationResult['byTier'] & { kinds: Record<string, number> } {
  const tiers: Record<string, { demos: number; sum: number; stepSum: number; steps: number }> = {};
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
      for (const key of [`tier ${d.tier}`, 'all']) {
        tiers[key] ??= { demos: 0, sum: 0, stepSum: 0, steps: 0 };
        tiers[key].stepSum += p;
        tiers[key].steps += 1;
      }
    });
    if (!covered) continue;
    for (const key of [`tier ${d.tier}`, 'all']) {
      tiers[key] ??= { demos: 0, sum: 0, stepSum: 0, steps: 0 };
      tiers[key].demos += 1;
      tiers[key].sum += Math.exp(logp);
    }
  }
  const out: Record<string, { demos: number; meanProb: number; meanStepProb: number }> & {
    kinds: Record<string, number>;
  } = {
    kinds: Object.fromEntries(Object.entries(kinds).map(([k, v]) => [k, v.p / v.n])),
  } as never;
  for (const [k, v] of Object.entries(tiers))
    out[k] = {
      demos: v.demos,
      meanProb: v.sum / Math.max(1, v.demos),
      meanStepProb: v.stepSum / Math.max(1, v.steps),
    };
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await loadBackend('auto');
  const { demos } = alignAnswers(loadDemos(process.argv[2] ?? '/tmp/tti-demos.json'));
  const weights = process.argv.slice(3).map(Number);
  for (const w of weights.length ? weights : [0, 1]) {
    const policy = TfjsPolicy.create({ seed: 1, priorWeight: w });
    const r = exploration(policy, demos);
    process.stdout.write(`priorWeight ${w}: ${JSON.stringify(r)}\n`);
    policy.dispose();
  }
  process.exit(0);
}
