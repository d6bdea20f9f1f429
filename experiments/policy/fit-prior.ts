// Fits the policy's prior (prior.ts) to demos and measures what it does to exploration: the
// probability that the untrained policy samples the oracle's whole path (a lower bound on its
// success through that path), uniform prior against the fitted one, by tier.
// `node dist/experiments/policy/fit-prior.js FIT.jsonl [MEASURE.jsonl] [OUT.json]`
import { writeFileSync } from 'node:fs';
import { fitPrior, logPrior, type Prior, padBatch, UNIFORM_PRIOR } from '../../src/model/index.js';
import { alignAnswers, demoSteps, encodedSteps, readDemos } from './demos.js';

const [fitFile = '/tmp/demos-train.jsonl', measureFile, out] = process.argv.slice(2);
const load = async (f: string) =>
  demoSteps((await alignAnswers(readDemos(f).filter((d) => d.success))).demos);
const fitSet = encodedSteps(await load(fitFile));
const report = fitPrior(fitSet.filter((x) => x.target >= 0));
process.stdout.write(
  `fitted on ${report.steps} steps: mean log-likelihood ${report.before.toFixed(3)} (uniform) → ${report.after.toFixed(3)}\n${JSON.stringify(report.prior, (_, v) => (typeof v === 'number' ? Number(v.toFixed(3)) : v))}\n`,
);
if (out) writeFileSync(out, `${JSON.stringify(report.prior, null, 2)}\n`);

function pathLog10(set: typeof fitSet, prior: Prior) {
  const byDemo = new Map<number, { tier: number; template: string; lp: number }>();
  for (const x of set) {
    const lp = x.target < 0 ? -Infinity : logPrior(padBatch([x.encoded]), prior)[x.target]!;
    const d = byDemo.get(x.s.demo.taskId) ?? { tier: x.s.demo.tier, template: x.s.demo.template, lp: 0 };
    d.lp += lp;
    byDemo.set(x.s.demo.taskId, d);
  }
  const tiers = new Map<number, number[]>();
  for (const d of byDemo.values()) tiers.set(d.tier, [...(tiers.get(d.tier) ?? []), d.lp / Math.LN10]);
  return [...tiers]
    .sort((a, b) => a[0] - b[0])
    .map(([t, v]) => {
      const finite = v.filter(Number.isFinite);
      const mean = finite.reduce((a, b) => a + b, 0) / Math.max(1, finite.length);
      const p = finite.reduce((a, b) => a + 10 ** b, 0) / v.length;
      return `tier ${t}: mean log10 P ${mean.toFixed(1)}, mean P ${(100 * p).toExponential(2)}% (${v.length} demos)`;
    })
    .join('; ');
}
const measure = measureFile ? encodedSteps(await load(measureFile)) : fitSet;
process.stdout.write(
  `uniform: ${pathLog10(measure, UNIFORM_PRIOR)}\nfitted:  ${pathLog10(measure, report.prior)}\n`,
);
process.exit(0);
