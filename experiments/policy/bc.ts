// BC on the oracle's demos: train on the train split, then greedy step accuracy and whole-demo
// accuracy (every step right, ≈ a greedy success) on test demos of seen and held-out templates.
// `node dist/experiments/policy/bc.js DEMOS.jsonl '{"hidden":64}' EPOCHS [SAVE_DIR] [lr] [batch]`
import {
  BcTrainer,
  CheckpointStore,
  DONE_ANSWER,
  loadBackend,
  loadModelCheckpoint,
  saveModelCheckpoint,
  seededRandom,
  TfjsPolicy,
} from '../../src/model/index.js';
import { alignAnswers, demoSteps, type LabelledStep, readDemos } from './demos.js';

const [file = '/work/data/demos.jsonl', optionsJson = '{}', epochsArg = '10', saveDir, lrArg, batchArg] =
  process.argv.slice(2);
const backend = await loadBackend('auto', (m) => process.stderr.write(`${m}\n`));
const demos = (await alignAnswers(readDemos(file).filter((d) => d.success))).demos;
// VALID=0.2 holds out a fifth of the train demos as a seen-template test (before test demos exist)
const valid = Number(process.env.VALID ?? 0);
const isValid = (d: (typeof demos)[number]) =>
  valid > 0 && d.split === 'train' && (d.taskId * 2654435761) % 1000 < valid * 1000;
// FRACTION=0.5 trains on about that share of the train demos (a learning curve over data)
const fraction = Number(process.env.FRACTION ?? 1);
const inFraction = (d: (typeof demos)[number]) =>
  fraction >= 1 || (d.taskId * 2246822519) % 1000 < fraction * 1000;
const trainDemos = demos.filter((d) => d.split === 'train' && !isValid(d) && inFraction(d));
// SUFFIXES=k: also each demo started from k later steps (its trail and history cut): an episode
// can begin where a demo was midway (a task that starts on the product page)
const suffixes = Number(process.env.SUFFIXES ?? 0);
const suffixRandom = seededRandom(7);
// SUFFIX_ONLY=answer: cut only demos that end in an answer (not Done): nothing they did changed
// the site, so the page at a cut is what a task starting there would see
const suffixOnlyAnswers = process.env.SUFFIX_ONLY === 'answer';
const endsInAnswer = (d: (typeof trainDemos)[number]) => {
  const last = d.steps.at(-1)?.action ?? '';
  return last.startsWith('ANSWER') && last !== `ANSWER [${DONE_ANSWER}]`;
};
const train = demoSteps([
  ...trainDemos,
  ...trainDemos.flatMap((d) =>
    d.steps.length < 2 || (suffixOnlyAnswers && !endsInAnswer(d))
      ? []
      : Array.from({ length: suffixes }, () => ({
          ...d,
          steps: d.steps.slice(1 + Math.floor(suffixRandom() * (d.steps.length - 1))),
        })),
  ),
]);
const test = demoSteps(demos.filter((d) => d.split === 'test' || isValid(d)));
const options = JSON.parse(optionsJson) as Record<string, unknown>;
const seed = Number(options.seed ?? 1);
// LOAD=CHECKPOINT evaluates a saved policy (with EPOCHS 0) instead of a fresh one
const policy = process.env.LOAD
  ? loadModelCheckpoint(process.env.LOAD).policy
  : TfjsPolicy.create({ ...options, seed });
const trainer = new BcTrainer(policy, {
  learningRate: Number(lrArg ?? 3e-3),
  clipNorm: 1,
  scorePenalty: Number(options.scorePenalty ?? 0),
  wordDropout: Number(options.wordDropout ?? 0),
});
process.stdout.write(
  `backend ${backend}; ${policy.parameterCount()} parameters; train steps ${train.length} (${demos.filter((d) => d.split === 'train').length} demos), test steps ${test.length}\n`,
);

function accuracy(steps: LabelledStep[]) {
  const right = new Array<boolean>(steps.length);
  for (let from = 0; from < steps.length; from += 32) {
    const chunk = steps.slice(from, from + 32);
    const decisions = policy.act(
      chunk.map((s) => s.input),
      { greedy: true, temperature: 1, random: Math.random },
    );
    decisions.forEach((d, k) => {
      right[from + k] = d.action === chunk[k]!.action;
    });
  }
  const byTemplate = new Map<
    string,
    { steps: number; right: number; demos: Set<number>; wrong: Set<number> }
  >();
  steps.forEach((s, k) => {
    const t = byTemplate.get(s.demo.template) ?? { steps: 0, right: 0, demos: new Set(), wrong: new Set() };
    t.steps += 1;
    if (right[k]) t.right += 1;
    t.demos.add(s.demo.taskId);
    if (!right[k]) t.wrong.add(s.demo.taskId);
    byTemplate.set(s.demo.template, t);
  });
  let demosAll = 0;
  let demosRight = 0;
  for (const t of byTemplate.values()) {
    demosAll += t.demos.size;
    demosRight += t.demos.size - t.wrong.size;
  }
  const acc = right.filter(Boolean).length / Math.max(1, steps.length);
  return { acc, demosAll, demosRight, byTemplate, right };
}

const random = seededRandom(seed + 100);
const epochs = Number(epochsArg);
const started = Date.now();
for (let e = 0; e < epochs; e++) {
  const report = trainer.train(train, { epochs: 1, batchSize: Number(batchArg ?? 16), random });
  process.stdout.write(
    `epoch ${e + 1}: loss ${report.loss.toFixed(4)} skipped ${report.skipped} ${report.samplesPerSec.toFixed(1)} samples/s ${((Date.now() - started) / 1000).toFixed(0)} s\n`,
  );
}
const seen = test.filter((s) => !s.demo.heldOut);
const held = test.filter((s) => s.demo.heldOut);
const tr = process.env.SKIP_TRAIN_ACC ? accuracy([]) : accuracy(train);
const se = accuracy(seen);
const he = accuracy(held);
const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
process.stdout.write(
  `train ${pct(tr.acc)} (${tr.demosRight}/${tr.demosAll} demos) | seen ${pct(se.acc)} (${se.demosRight}/${se.demosAll}) | held-out ${pct(he.acc)} (${he.demosRight}/${he.demosAll})\n`,
);
for (const [name, r] of [
  ['seen', se],
  ['held-out', he],
  ['train', tr],
] as const) {
  const rows = [...r.byTemplate].sort((a, b) => a[0].localeCompare(b[0]));
  process.stdout.write(
    `${name}: ${rows.map(([t, v]) => `${t} ${v.right}/${v.steps} (${v.demos.size - v.wrong.size}/${v.demos.size})`).join('; ')}\n`,
  );
}
if (process.env.SHOW_WRONG) {
  const shown = process.env.SHOW_WRONG === 'held' ? held : seen;
  const marks = process.env.SHOW_WRONG === 'held' ? he : se;
  shown.forEach((s, k) => {
    if (!marks.right[k]) {
      const d = policy.act([s.input], { greedy: true, temperature: 1, random: Math.random })[0]!;
      process.stdout.write(
        `WRONG ${s.demo.template} #${s.demo.taskId} step ${s.index}: want ${s.action.slice(0, 90)} got ${d.action.slice(0, 90)} @ ${s.input.url.replace(/^https?:\/\/[^/]+/, '')}\n`,
      );
    }
  });
}
if (saveDir) {
  const version = saveModelCheckpoint(new CheckpointStore(saveDir, 3), 1, policy, trainer, { iteration: 0 });
  process.stdout.write(`saved ${version}\n`);
}
process.exit(0);
