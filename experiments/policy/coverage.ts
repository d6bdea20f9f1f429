// Coverage of the oracle's steps by the policy's candidates, by template and action kind, with
// the uncovered actions listed. `node dist/experiments/policy/coverage.js DEMOS.jsonl [--list]`
import { buildCandidates } from '../../src/model/index.js';
import { alignAnswers, demoSteps, readDemos } from './demos.js';

const file = process.argv[2] ?? '/work/data/demos.jsonl';
const raw = readDemos(file).filter((d) => d.success);
const { demos, aligned } = await alignAnswers(raw);
const steps = demoSteps(demos);
const kindOf = (a: string) => /^(\w+)/.exec(a)?.[1] ?? '?';
const byTemplate = new Map<string, { steps: number; covered: number }>();
const byKind = new Map<string, { steps: number; covered: number }>();
let covered = 0;
let candidates = 0;
const misses: string[] = [];
for (const s of steps) {
  const cands = buildCandidates(s.input);
  candidates += cands.length;
  const ok = cands.some((c) => c.action === s.action);
  if (ok) covered += 1;
  else misses.push(`${s.demo.template} #${s.demo.taskId} step ${s.index}: ${s.action.slice(0, 120)}`);
  for (const [map, key] of [
    [byTemplate, s.demo.template],
    [byKind, kindOf(s.action)],
  ] as const) {
    const v = map.get(key) ?? { steps: 0, covered: 0 };
    v.steps += 1;
    if (ok) v.covered += 1;
    map.set(key, v);
  }
}
process.stdout.write(
  `${raw.length} demos, ${steps.length} steps: ${covered} covered (${((100 * covered) / steps.length).toFixed(1)}%), ${aligned} answers aligned; ${(candidates / steps.length).toFixed(0)} candidates a step\n`,
);
process.stdout.write(`by kind: ${[...byKind].map(([k, v]) => `${k} ${v.covered}/${v.steps}`).join(', ')}\n`);
process.stdout.write(
  `uncovered by template: ${[...byTemplate]
    .filter(([, v]) => v.covered < v.steps)
    .map(([k, v]) => `${k} ${v.steps - v.covered}/${v.steps}`)
    .join(', ')}\n`,
);
if (process.argv.includes('--list')) for (const m of misses) process.stdout.write(`${m}\n`);
