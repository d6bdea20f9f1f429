// How likely is the untrained policy to walk the oracle's way to each task's goal, under the
// uniform prior, a prior fitted to demos, and lexical priors that favour the elements whose words
// the task has (hand-set θ on general facts, no template named)? The goal is the page the last
// stop is taken on: with stop probes (collect.stop_probes) the stop is found by probing, so the
// probability that matters for collection is the path's without its final ANSWER.
// `node dist/experiments/action-tasks/path-probability.js DEMOS.jsonl`
import { fitPrior, logPrior, type Prior, padBatch, UNIFORM_PRIOR } from '../../src/model/index.js';
import { demoSteps, encodedSteps, readDemos } from '../policy/demos.js';

const [file = 'runs/action-tasks-demos/demos.jsonl'] = process.argv.slice(2);
const set = encodedSteps(demoSteps(readDemos(file).filter((d) => d.success)));
const lastIndex = new Map<number, number>();
for (const x of set) lastIndex.set(x.s.demo.taskId, Math.max(lastIndex.get(x.s.demo.taskId) ?? 0, x.s.index));

const lexical = (theta: number): Prior => ({
  kindWeights: UNIFORM_PRIOR.kindWeights,
  factWeights: { self_in_task: theta, argument_inside_task: theta, acted_before: -theta },
});
const fitted = fitPrior(set.filter((x) => x.target >= 0)).prior;
const priors: [string, Prior][] = [
  ['uniform', UNIFORM_PRIOR],
  ['fitted on these demos', fitted],
  ['lexical θ=2', lexical(2)],
  ['lexical θ=4', lexical(4)],
  ['lexical θ=6', lexical(6)],
];

for (const [name, prior] of priors) {
  const byDemo = new Map<number, { tier: number; template: string; lp: number }>();
  for (const x of set) {
    const d = byDemo.get(x.s.demo.taskId) ?? { tier: x.s.demo.tier, template: x.s.demo.template, lp: 0 };
    const final = x.s.index === lastIndex.get(x.s.demo.taskId) && x.s.action.startsWith('ANSWER');
    if (!final) d.lp += x.target < 0 ? -Infinity : logPrior(padBatch([x.encoded]), prior)[x.target]!;
    byDemo.set(x.s.demo.taskId, d);
  }
  const byTemplate = new Map<string, { tier: number; p: number[] }>();
  for (const d of byDemo.values()) {
    const t = byTemplate.get(d.template) ?? { tier: d.tier, p: [] };
    t.p.push(Math.exp(d.lp));
    byTemplate.set(d.template, t);
  }
  const rows = [...byTemplate].map(([template, t]) => ({
    template,
    tier: t.tier,
    p: t.p.reduce((a, b) => a + b, 0) / t.p.length,
  }));
  // tasks a template's collection episodes would reach: ≈ 30 episodes a template over the quick preset
  const reachable = rows.filter((r) => 1 - (1 - r.p) ** 30 > 0.5).map((r) => r.template);
  const tiers = [1, 2, 3].map((tier) => {
    const ps = rows.filter((r) => r.tier === tier).map((r) => r.p);
    return `tier ${tier} mean P ${(ps.reduce((a, b) => a + b, 0) / Math.max(1, ps.length)).toExponential(1)}`;
  });
  process.stdout.write(
    `${name}: ${tiers.join(', ')}; templates likely found in 30 episodes: ${reachable.length}\n`,
  );
  process.stdout.write(
    `   ${rows
      .sort((a, b) => b.p - a.p)
      .map((r) => `${r.template} ${r.p.toExponential(0)}`)
      .join(', ')}\n`,
  );
}
process.exit(0);
