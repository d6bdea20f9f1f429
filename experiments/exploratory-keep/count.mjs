// What `collect.search_keep: exploratory` adds to a run's kept trajectories: how many carry a dead
// end and the way back from it (GoBack steps), and how many steps those add; then what the trained
// policy did in its eval episodes. A scroll back is not told apart from the policy's own scrolls
// here; the first metrics row's train.search (successes, afterDeadEnds, backSteps) counts both
// kinds of step back. After `npm run build`:
//   node experiments/exploratory-keep/count.mjs RUN_DIR [RUN_DIR...]
import fs from 'node:fs';
import path from 'node:path';
import { readReplayLog } from '../../dist/src/replay/index.js';

const dirs = process.argv.slice(2);
if (dirs.length === 0) throw new Error('usage: count.mjs RUN_DIR [RUN_DIR...]');
const action = (reply) => reply.match(/Action: (.*)/)?.[1] ?? reply.slice(-40);
const rows = {};
for (const dir of dirs) {
  const metrics = fs.readFileSync(path.join(dir, 'metrics.jsonl'), 'utf8').split('\n')[0];
  const search = JSON.parse(metrics).train.search ?? {};
  const kept = readReplayLog(path.join(dir, 'replay'));
  const row = {
    successes: search.successes,
    afterDeadEnds: search.successesAfterDeadEnds,
    backSteps: search.backSteps,
    kept: kept.length,
    steps: 0,
    withDeadEnds: 0,
    goBacks: 0,
    stepsBeforeLastGoBack: 0,
  };
  for (const t of kept) {
    const acts = t.steps.map((s) => action(s.reply));
    row.steps += acts.length;
    const last = acts.findLastIndex((a) => a.startsWith('GoBack'));
    if (last < 0) continue;
    row.withDeadEnds += 1;
    row.goBacks += acts.filter((a) => a.startsWith('GoBack')).length;
    // the dead ends and the ways back: every step up to the last GoBack (an upper bound on what
    // from_start would not hold, since a dead end may share its first steps with the success)
    row.stepsBeforeLastGoBack += last + 1;
    console.log(`${path.basename(dir)} task ${t.taskId}: ${acts.join(' | ')}`);
  }
  // what the trained policy then did greedily: its eval episodes' successes and GoBacks
  Object.assign(row, { evalEpisodes: 0, evalSuccesses: 0, evalSteps: 0, evalGoBacks: 0 });
  const episodes = path.join(dir, 'episodes');
  for (const id of fs.existsSync(episodes) ? fs.readdirSync(episodes) : []) {
    const summary = JSON.parse(fs.readFileSync(path.join(episodes, id, 'summary.json'), 'utf8'));
    if (summary.mode !== 'eval') continue;
    const record = JSON.parse(fs.readFileSync(path.join(episodes, id, 'record.json'), 'utf8'));
    row.evalEpisodes += 1;
    row.evalSuccesses += summary.success ? 1 : 0;
    row.evalSteps += record.steps.length;
    row.evalGoBacks += record.steps.filter((s) => action(s.reply).startsWith('GoBack')).length;
  }
  rows[path.basename(dir)] = row;
}
console.table(rows);
