// How many steps of a run's kept trajectories `learner.cut_detours` removes (src/model/detours.ts),
// with a few before/after examples. After `npm run build`:
//   node experiments/cut-detours/count.mjs RUN_DIR...
import { actionOfReply, withoutDetours } from '../../dist/src/model/index.js';
import { readReplayLog } from '../../dist/src/replay/index.js';

const path = (t) => t.steps.map((s) => `${new URL(s.url).pathname} ${actionOfReply(s.reply)}`).join(' | ');
for (const run of process.argv.slice(2)) {
  let kept = 0;
  let steps = 0;
  let cut = 0;
  let shortened = 0;
  const shown = [];
  for (const t of readReplayLog(`${run}/replay`)) {
    if (t.reward <= 0) continue;
    const r = withoutDetours(t);
    kept += 1;
    steps += t.steps.length;
    cut += r.cut;
    if (r.cut > 0) shortened += 1;
    if (r.cut > 0 && shown.length < 3)
      shown.push(`${t.intent}\n  kept: ${path(t)}\n  cut:  ${path(r.trajectory)}`);
  }
  console.log(
    `${run}: ${kept} kept trajectories, ${steps} steps; ${shortened} shortened, ${cut} steps cut (${((100 * cut) / Math.max(steps, 1)).toFixed(1)}%)`,
  );
  for (const s of shown) console.log(s);
}
