// Records MiniArena's oracle on whole splits as JSON lines, one demo per task (src/arena's
// recorder, as `tti-run pretrain --demos oracle` does). Resumable: tasks already in OUT are skipped.
// `node dist/experiments/policy/record-demos.js OUT.jsonl [split=all] [concurrency=2]`
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { readSplit, recordOracleDemos } from '../../src/arena/index.js';
import { DONE_ANSWER } from '../../src/model/index.js';

const out = process.argv[2] ?? '/tmp/tti-demos.jsonl';
const split = (process.argv[3] ?? 'all') as 'train' | 'test' | 'all';
const concurrency = Number(process.argv[4] ?? 2);
const done = new Set<number>();
if (existsSync(out))
  for (const line of readFileSync(out, 'utf8').split('\n'))
    if (line.trim()) done.add((JSON.parse(line) as { taskId: number }).taskId);
const tasks = readSplit(split).filter((t) => !done.has(t.task_id));
const started = Date.now();
await recordOracleDemos(tasks, {
  horizon: 30,
  emptyAnswer: DONE_ANSWER,
  concurrency,
  onDemo: (d, n) => {
    appendFileSync(out, `${JSON.stringify(d)}\n`);
    if (n % 20 === 0 || n === tasks.length)
      process.stdout.write(
        `${n}/${tasks.length} ${d.template} ${d.success ? 'ok' : 'FAIL'} ${((Date.now() - started) / 1000).toFixed(0)} s\n`,
      );
  },
});
process.exit(0);
