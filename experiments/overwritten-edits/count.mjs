// How many steps of a run's kept successes, or of a demos file, filtered BC would leave out as
// edits typed over later (src/model/overwritten.ts), by template. After `npm run build`:
//   node experiments/overwritten-edits/count.mjs runs/X/episodes     (a run's collection episodes)
//   node experiments/overwritten-edits/count.mjs demos.jsonl          (trajectories, one per line)
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { overwrittenEdits } from '../../dist/src/model/index.js';

const where = process.argv[2];
if (!where) throw new Error('usage: count.mjs RUN_DIR/episodes | FILE.jsonl');
const by = {};
const count = (template, trajectory) => {
  by[template] ??= { trajectories: 0, steps: 0, typedOver: 0 };
  const row = by[template];
  row.trajectories += 1;
  row.steps += trajectory.steps.length;
  row.typedOver += overwrittenEdits(trajectory).size;
};
if (where.endsWith('.jsonl')) {
  for await (const line of readline.createInterface({ input: fs.createReadStream(where) })) {
    if (!line.trim()) continue;
    const t = JSON.parse(line);
    count(t.template ?? '(none)', t);
  }
} else {
  for (const e of fs.readdirSync(where)) {
    const dir = path.join(where, e);
    const summary = JSON.parse(fs.readFileSync(path.join(dir, 'summary.json'), 'utf8'));
    // Collection episodes that succeeded: what filtered BC keeps.
    if (summary.mode !== 'collect' || !summary.success) continue;
    const record = JSON.parse(fs.readFileSync(path.join(dir, 'record.json'), 'utf8'));
    count(summary.template, { intent: record.task.intent, horizon: record.horizon, steps: record.steps });
  }
}
console.table(by);
