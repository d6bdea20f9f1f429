// Oracle demonstrations as the policy sees them: each step of MiniArena's oracle recorded as the
// PolicyInput the env worker would send (node columns, URL, note, history) and the oracle's action
// in the policy's canonical form. They measure the candidate set's coverage (is the oracle's
// action a candidate?) and give a supervised proxy for the TTI loop: train BC on train-split demos,
// score greedy step accuracy on test-split demos of seen and held-out templates.
import { readFileSync, writeFileSync } from 'node:fs';
import {
  closeSlots,
  type MiniArenaTask,
  ORACLE_ENV,
  ORACLE_HORIZON,
  openSlots,
  readSplit,
  runOnSlots,
  SOLVERS,
  selectTasks,
  ttiActionOf,
  watchedSolve,
} from '../../src/arena/index.js';
import { type Action, type Observation, observationColumns, VIEWPORT } from '../../src/envs/index.js';
import { DONE_ANSWER, type NodeColumns, type PolicyInput } from '../../src/model/index.js';

export interface DemoStep {
  input: PolicyInput;
  /** The oracle's action, WebArena form (describeAction). */
  oracle: string;
  /** The oracle's action as the policy's canonical action string, or null if it has none. */
  action: string | null;
}

export interface Demo {
  taskId: number;
  template: string;
  split: 'train' | 'test';
  heldOut: boolean;
  tier: number;
  success: boolean;
  steps: DemoStep[];
}

/** The node columns the env worker sends (src/actors/roles/env-role.ts), on WebArena's viewport. */
export function nodeColumns(observation: Observation): NodeColumns {
  return observationColumns(observation.nodes, VIEWPORT);
}

/** The canonical TTI action string of an env action, or null for what the policy never does. */
export function canonicalAction(action: Action): string | null {
  return ttiActionOf(action, DONE_ANSWER);
}

async function recordOne(
  slot: Awaited<ReturnType<typeof openSlots>>[number],
  raw: MiniArenaTask,
  horizon: number,
): Promise<Demo> {
  const base = {
    taskId: raw.task_id,
    template: raw.miniarena.template,
    split: raw.miniarena.split as 'train' | 'test',
    heldOut: raw.miniarena.held_out_template,
    tier: raw.miniarena.tier,
  };
  const steps: DemoStep[] = [];
  const task = slot.tasks.get(String(raw.task_id));
  const solver = SOLVERS[raw.miniarena.template];
  if (!task || !solver) return { ...base, success: false, steps };
  await slot.host.reset();
  const env = slot.env;
  try {
    const first = await env.reset(task, { horizon: ORACLE_HORIZON });
    const history: string[] = [];
    const d = await watchedSolve(env, first, raw, (action, page) => {
      const canonical = canonicalAction(action);
      steps.push({
        input: {
          intent: raw.intent,
          url: page.url,
          nodes: nodeColumns(page),
          history: [...history],
          step: history.length,
          horizon,
          note: page.notes.length > 0 ? page.notes.join('\n') : null,
        },
        oracle: describe(action),
        action: canonical,
      });
      history.push(canonical ?? describe(action));
    });
    return { ...base, success: d.result?.record?.verdict.success ?? false, steps };
  } catch {
    await env.abandon();
    return { ...base, success: false, steps };
  }
}

function describe(a: Action): string {
  return JSON.stringify(a);
}

export interface RecordOptions {
  trainPerTemplate: number;
  testPerTemplate: number;
  concurrency: number;
  horizon: number;
  onDemo?: (d: Demo, done: number, total: number) => void;
}

/** Records oracle demos on the first tasks of each template of both splits. */
export async function recordDemos(o: RecordOptions): Promise<Demo[]> {
  const train = selectTasks(readSplit('train'), { perTemplate: o.trainPerTemplate });
  const test = selectTasks(readSplit('test'), { perTemplate: o.testPerTemplate });
  const tasks = [...train, ...test];
  const slots = await openSlots(o.concurrency, { split: 'all', env: ORACLE_ENV });
  try {
    return await runOnSlots(
      slots,
      tasks,
      (slot, raw) => recordOne(slot, raw, o.horizon),
      (d, done) => o.onDemo?.(d, done, tasks.length),
    );
  } finally {
    await closeSlots(slots);
  }
}

export function saveDemos(file: string, demos: Demo[]): void {
  writeFileSync(file, JSON.stringify(demos));
}

export function loadDemos(file: string): Demo[] {
  return JSON.parse(readFileSync(file, 'utf8')) as Demo[];
}

// `node dist/experiments/oracle-demos/demos.js OUT.json [trainPerTemplate] [testPerTemplate]`
if (import.meta.url === `file://${process.argv[1]}`) {
  const out = process.argv[2] ?? '/tmp/tti-demos.json';
  const trainPer = Number(process.argv[3] ?? 8);
  const testPer = Number(process.argv[4] ?? 5);
  const started = Date.now();
  const demos = await recordDemos({
    trainPerTemplate: trainPer,
    testPerTemplate: testPer,
    concurrency: 2,
    horizon: 30,
    onDemo: (d, done, total) => {
      if (done % 10 === 0 || done === total)
        process.stdout.write(
          `${done}/${total} ${d.template} ${d.success ? 'ok' : 'FAIL'} ${((Date.now() - started) / 1000).toFixed(0)} s\n`,
        );
    },
  });
  saveDemos(out, demos);
  process.stdout.write(`wrote ${demos.length} demos to ${out}\n`);
  process.exit(0);
}
