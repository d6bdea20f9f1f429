// What a test-time search's eval chose: per task, the greedy rollout's verdict (rollout 0), the
// verdict reported (the rollout the policy rated highest), and whether any rollout succeeded (the
// ceiling a perfect verifier would reach at this budget). Reads an eval's out-dir.
// `node experiments/test-time-search/analyze.mjs RUNS/EVAL_DIR`
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const dir = process.argv[2];
if (!dir) throw new Error('usage: analyze.mjs EVAL_OUT_DIR');
const reported = new Map();
for (const f of readdirSync(path.join(dir, 'logs')).filter((f) => f.startsWith('env-'))) {
  for (const line of readFileSync(path.join(dir, 'logs', f), 'utf8').split('\n')) {
    const m = /episode (\S+-eval-\d+) \(task ([^,]*), [^)]*\): \S+ after \d+ steps, reward (\d)/.exec(line);
    if (m) reported.set(m[1], { task: m[2], reward: Number(m[3]) });
  }
}
const episodes = readdirSync(path.join(dir, 'episodes'));
const summary = (ep) => {
  const f = path.join(dir, 'episodes', ep, 'summary.json');
  return existsSync(f) ? JSON.parse(readFileSync(f, 'utf8')) : null;
};
let greedy = 0;
let picked = 0;
let ceiling = 0;
const changed = [];
for (const [ep, r] of reported) {
  const g = summary(ep)?.success === true ? 1 : 0;
  const any = g === 1 || episodes.some((e) => e.startsWith(`${ep}~`) && summary(e)?.success === true);
  greedy += g;
  picked += r.reward;
  ceiling += any ? 1 : 0;
  if (g !== r.reward) changed.push(`${r.task}: greedy ${g} → picked ${r.reward}`);
}
console.log(
  JSON.stringify(
    { tasks: reported.size, greedyRollout: greedy, picked, anyRolloutSucceeded: ceiling, changed },
    null,
    1,
  ),
);
