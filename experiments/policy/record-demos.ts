// Records MiniArena's oracle on whole splits as JSON lines, one demo per task: each step the
// PolicyInput the env worker sends (plus boxes and AX states, for features the wire may carry)
// and the oracle's canonical action. Resumable: tasks already in OUT are skipped.
// `node dist/experiments/policy/record-demos.js OUT.jsonl [split=all] [concurrency=2]`
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import type { MiniArenaTask } from '../../src/arena/index.js';
import {
  closeSlots,
  Driver,
  ORACLE_ENV,
  ORACLE_HORIZON,
  openSlots,
  readSplit,
  runOnSlots,
  SOLVERS,
} from '../../src/arena/index.js';
import type { Action, BrowserEnv, Observation } from '../../src/envs/index.js';
import { canonicalAction, nodeColumns } from '../oracle-demos/demos.js';

const STATES = ['checked', 'selected', 'expanded', 'pressed', 'disabled', 'focused', 'required'];

function extraColumns(obs: Observation) {
  const r = (v: number | undefined) => Math.round(v ?? 0);
  return {
    x: obs.nodes.map((n) => r(n.bounds?.[0])),
    y: obs.nodes.map((n) => r(n.bounds?.[1])),
    w: obs.nodes.map((n) => r(n.bounds?.[2])),
    h: obs.nodes.map((n) => r(n.bounds?.[3])),
    states: obs.nodes.map((n) =>
      STATES.filter((s) => {
        const v = (n.properties[s] ?? '').toLowerCase();
        return v === 'true' || v === '1' || v === 'mixed';
      }).join(' '),
    ),
  };
}

async function recordOne(slot: Awaited<ReturnType<typeof openSlots>>[number], raw: MiniArenaTask) {
  const base = {
    taskId: raw.task_id,
    template: raw.miniarena.template,
    split: raw.miniarena.split,
    heldOut: raw.miniarena.held_out_template,
    tier: raw.miniarena.tier,
    intent: raw.intent,
  };
  const steps: unknown[] = [];
  const task = slot.tasks.get(String(raw.task_id));
  const solver = SOLVERS[raw.miniarena.template];
  if (!task || !solver) return { ...base, success: false, steps };
  await slot.host.reset();
  const env = slot.env;
  try {
    let obs = await env.reset(task, { horizon: ORACLE_HORIZON });
    const history: string[] = [];
    const recorder = Object.create(env) as BrowserEnv;
    recorder.step = async (action: Action | string) => {
      if (typeof action !== 'string' && action.type !== 'wait') {
        const canonical = canonicalAction(action);
        steps.push({
          url: obs.url,
          nodes: { ...nodeColumns(obs), ...extraColumns(obs) },
          note: obs.notes.length > 0 ? obs.notes.join('\n') : null,
          history: [...history],
          action: canonical,
          oracle: JSON.stringify(action),
        });
        history.push(canonical ?? JSON.stringify(action));
      }
      const r = await env.step(action);
      if (r.observation) obs = r.observation;
      return r;
    };
    const d = new Driver(recorder, obs);
    await solver(d, {
      taskId: String(raw.task_id),
      template: raw.miniarena.template,
      intent: raw.intent,
      dict: raw.instantiation_dict,
    });
    return { ...base, success: d.result?.record?.verdict.success ?? false, steps };
  } catch (e) {
    await env.abandon();
    return { ...base, success: false, error: String(e), steps };
  }
}

const out = process.argv[2] ?? '/tmp/tti-demos.jsonl';
const split = (process.argv[3] ?? 'all') as 'train' | 'test' | 'all';
const concurrency = Number(process.argv[4] ?? 2);
const done = new Set<number>();
if (existsSync(out))
  for (const line of readFileSync(out, 'utf8').split('\n'))
    if (line.trim()) done.add((JSON.parse(line) as { taskId: number }).taskId);
const tasks = readSplit(split).filter((t) => !done.has(t.task_id));
const started = Date.now();
const slots = await openSlots(concurrency, { split: 'all', env: ORACLE_ENV });
let n = 0;
try {
  await runOnSlots(
    slots,
    tasks,
    (slot, raw) => recordOne(slot, raw),
    (d) => {
      appendFileSync(out, `${JSON.stringify(d)}\n`);
      n += 1;
      if (n % 20 === 0 || n === tasks.length)
        process.stdout.write(
          `${n}/${tasks.length} ${d.template} ${d.success ? 'ok' : 'FAIL'} ${((Date.now() - started) / 1000).toFixed(0)} s\n`,
        );
    },
  );
} finally {
  await closeSlots(slots);
}
process.exit(0);
