// On MiniArena's oracle demos: does 'argument_after_field_word' mark the field the oracle types
// into, and not the others? A training-free check of the scalar (src/model/encode.ts) on the
// second suite's pages. Usage: node dist/experiments/field-word/check.js DEMOS.json
import { readFileSync } from 'node:fs';
import { encodeObservation, type PolicyInput, SCALAR_SIZE, SCALARS } from '../../src/model/index.js';

interface Demo {
  template: string;
  steps: { input: PolicyInput; action: string }[];
}

const FEATURE = SCALARS.indexOf('argument_after_field_word');
const demos = JSON.parse(readFileSync(process.argv[2] ?? '/tmp/tti-demos.json', 'utf8')) as Demo[];
let typeSteps = 0;
let oracleMarked = 0;
let othersSameText = 0;
let othersSameTextMarked = 0;
let typeCandidates = 0;
let typeCandidatesMarked = 0;
const byTemplate = new Map<string, { steps: number; marked: number; rivalsMarked: number }>();
for (const demo of demos) {
  for (const step of demo.steps) {
    const e = encodeObservation(step.input, { buckets: 1024 });
    const at = (k: number) => e.scalars[k * SCALAR_SIZE + FEATURE]!;
    e.candidates.forEach((c, k) => {
      if (c.kind !== 'type') return;
      typeCandidates += 1;
      typeCandidatesMarked += at(k);
    });
    const chosen = e.candidates.findIndex((c) => c.action === step.action);
    if (chosen < 0 || e.candidates[chosen]!.kind !== 'type') continue;
    typeSteps += 1;
    const row = byTemplate.get(demo.template) ?? { steps: 0, marked: 0, rivalsMarked: 0 };
    row.steps += 1;
    row.marked += at(chosen);
    oracleMarked += at(chosen);
    const text = e.candidates[chosen]!.text;
    e.candidates.forEach((c, k) => {
      if (k === chosen || c.kind !== 'type' || c.text !== text) return;
      othersSameText += 1;
      othersSameTextMarked += at(k);
      row.rivalsMarked += at(k);
    });
    byTemplate.set(demo.template, row);
  }
}
console.log(
  JSON.stringify(
    {
      demos: demos.length,
      typeSteps,
      oracleMarked,
      othersSameText,
      othersSameTextMarked,
      typeCandidates,
      typeCandidatesMarked,
      byTemplate: Object.fromEntries(byTemplate),
    },
    null,
    2,
  ),
);
