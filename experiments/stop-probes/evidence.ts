// How often the oracle's own answers stand by what the task names (src/model/evidence.ts), by
// template: the answers a stop probe can keep. `node dist/experiments/stop-probes/evidence.js DEMOS.jsonl`
import { smallCount } from '../../src/envs/index.js';
import { candidatesWithEvidence } from '../../src/model/index.js';
import { alignAnswers, demoSteps, readDemos } from '../policy/demos.js';

const file = process.argv[2] ?? '/work/data/demos.jsonl';
const { demos } = await alignAnswers(readDemos(file).filter((d) => d.success && d.split === 'train'));
const by = new Map<
  string,
  { answers: number; row: number; section: number; counted: number; counts: number; missing: number }
>();
for (const s of demoSteps(demos)) {
  if (!s.action.startsWith('ANSWER') || s.action === 'ANSWER [Done]') continue;
  const b = by.get(s.demo.template) ?? {
    answers: 0,
    row: 0,
    section: 0,
    counted: 0,
    counts: 0,
    missing: 0,
  };
  b.answers++;
  const c = candidatesWithEvidence(s.input).find((x) => x.action === s.action);
  if (!c) b.missing++;
  else if (smallCount(c.text)) {
    // probed only in the task's row, read from a text that names what the task counts
    if (c.evidence === 'row' && c.counted) b.counted++;
    else b.counts++;
  } else if (c.evidence === 'row') b.row++;
  else if (c.evidence === 'section') b.section++;
  by.set(s.demo.template, b);
}
console.log(
  'template | answers | probe keeps: row | section | count in its row, naming what it counts | other counts (left to the policy) | no candidate',
);
for (const [t, b] of [...by].sort())
  console.log(`${t} | ${b.answers} | ${b.row} | ${b.section} | ${b.counted} | ${b.counts} | ${b.missing}`);
