// The lr study's table from its run folder: for each seed, the pretrained policy's eval on that
// seed's 78 tasks, then each lm_lr arm's collection (success and kept by iteration) and its eval
// after the third iteration (lucky passes are not successes; eval-summary.ts). Then each arm's
// median and spread over the seeds of its eval's change against the starting policy.
//   node experiments/fine-tune/count-lr.mjs OUT
import fs from 'node:fs';
import path from 'node:path';
import { readReplayLog } from '../../dist/src/replay/index.js';

const out = process.argv[2];
if (out === undefined) throw new Error('usage: count-lr.mjs OUT');
const tier3 = (e) => e.byTier?.['3']?.successes ?? 0;
const metrics = (file) =>
  fs
    .readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
const tasks = (split) => {
  const file = JSON.parse(
    fs.readFileSync(new URL(`../../tasks/miniarena/${split}.json`, import.meta.url), 'utf8'),
  );
  return Array.isArray(file) ? file : file.tasks;
};
const rows = [];
const change = {};
for (const name of fs.readdirSync(out).sort()) {
  const pre = name.match(/^pre-eval78-s(\d+)\.json$/);
  if (pre !== null) {
    const e = JSON.parse(fs.readFileSync(path.join(out, name), 'utf8'));
    rows.push({ seed: +pre[1], arm: 'pretrained', eval: e.successes, tier3: tier3(e), lucky: e.lucky });
    continue;
  }
  const arm = name.match(/^lr(.+)-s(\d+)$/);
  if (arm === null) continue;
  const file = path.join(out, name, 'metrics.jsonl');
  if (!fs.existsSync(file)) continue;
  const its = metrics(file);
  const last = its.findLast((m) => m.eval !== undefined && m.eval !== null);
  rows.push({
    seed: +arm[2],
    arm: `lm_lr ${arm[1]}`,
    collection: its.map((m) => `${(100 * m.train.success).toFixed(0)}%`).join(' '),
    kept: its.map((m) => m.train.kept).join(' '),
    eval: last?.eval.successes,
    tier3: last === undefined ? undefined : tier3(last.eval),
    lucky: last?.eval.lucky,
  });
}
rows.sort((a, b) => a.seed - b.seed);
console.table(rows);
for (const r of rows) {
  if (r.arm === 'pretrained' || r.eval === undefined) continue;
  const start = rows.find((p) => p.seed === r.seed && p.arm === 'pretrained');
  if (start === undefined) continue;
  change[r.arm] = [...(change[r.arm] ?? []), r.eval - start.eval];
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
for (const [arm, xs] of Object.entries(change)) {
  console.log(
    `${arm}: eval change against the pretrained policy ${xs.join(', ')}; median ${median(xs)} (${Math.min(...xs)} to ${Math.max(...xs)})`,
  );
}

// LONG=1: the whole quick preset with --preset finetune against the pretrained policy, whole split
const heldOut = new Set(
  tasks('test')
    .filter((t) => t.miniarena.held_out_template)
    .map((t) => t.miniarena.template),
);
// train task id → its template and tier, for the tier-3 templates collection kept
const trainTask = new Map(tasks('train').map((t) => [String(t.task_id), t.miniarena]));
const whole = (file) => {
  const e = JSON.parse(fs.readFileSync(file, 'utf8'));
  const held = Object.entries(e.byTemplate).filter(([t]) => heldOut.has(t));
  return {
    solved: e.successes,
    tiers: ['1', '2', '3'].map((k) => e.byTier[k]?.successes ?? 0).join(' / '),
    heldOut: held.reduce((n, [, v]) => n + v.successes, 0),
    lucky: e.lucky,
    byTemplate: e.byTemplate,
  };
};
const wholeRows = {};
if (fs.existsSync(path.join(out, 'pre-whole.json')))
  wholeRows.pretrained = whole(path.join(out, 'pre-whole.json'));
for (const name of fs.readdirSync(out).sort()) {
  const m = name.match(/^long-s(\d+)-whole\.json$/);
  if (m === null) continue;
  const its = metrics(path.join(out, `long-s${m[1]}`, 'metrics.jsonl'));
  const tier3Kept = {};
  // (the replay log stays with the run; the copy under runs/ has none)
  const replay = path.join(out, `long-s${m[1]}`, 'replay');
  for (const t of fs.existsSync(replay) ? readReplayLog(replay) : []) {
    const task = trainTask.get(String(t.taskId));
    if (task?.tier === 3) tier3Kept[task.template] = (tier3Kept[task.template] ?? 0) + 1;
  }
  wholeRows[`finetune preset, seed ${m[1]}`] = {
    tier3Kept: Object.entries(tier3Kept)
      .map(([k, n]) => `${k} ${n}`)
      .join(', '),
    ...whole(path.join(out, name)),
    collection: its.map((i) => `${(100 * i.train.success).toFixed(0)}%`).join(' '),
    evals78: its
      .filter((i) => i.eval)
      .map((i) => i.eval.successes)
      .join(' '),
  };
}
if (Object.keys(wholeRows).length > 0) {
  console.table(Object.fromEntries(Object.entries(wholeRows).map(([k, { byTemplate, ...v }]) => [k, v])));
  const first = Object.values(wholeRows)[0];
  for (const [name, r] of Object.entries(wholeRows).slice(1)) {
    const moved = Object.keys(first.byTemplate)
      .map((t) => [t, (r.byTemplate[t]?.successes ?? 0) - first.byTemplate[t].successes])
      .filter(([, d]) => d !== 0)
      .map(([t, d]) => `${t} ${d > 0 ? '+' : ''}${d}`);
    console.log(`${name} against the pretrained policy, by template: ${moved.join(', ')}`);
  }
}
