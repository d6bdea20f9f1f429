// The oracle as a teacher: each task's scripted solve recorded as a demonstration, one record per
// task, in the trajectory form the learner trains on (intent, horizon, reward, steps of URL, node
// columns, note and reply), plus the task's labels. `tti-run pretrain --demos oracle` records with it.
import {
  type Action,
  type BrowserEnvConfig,
  errorMessage,
  luckyPass,
  type ObservationColumns,
  observationColumns,
  stringMatch,
  VIEWPORT,
} from '../../envs/index.js';
import { MORE_TRAIN_ID_BASE } from '../generate-tasks.js';
import type { MiniArenaTask, Tier } from '../templates/types.js';
import { ORACLE_ENV, ORACLE_HORIZON } from './check.js';
import { type ArenaSlot, closeSlots, openSlots, runOnSlots } from './pool.js';
import { SOLVERS } from './solvers/index.js';
import { watchedSolve } from './watched-solve.js';

export interface OracleDemoStep {
  url: string;
  /** the node columns the env worker sends for this observation */
  nodes: ObservationColumns;
  note: string | null;
  /** "Action: <TTI action>" (the oracle's JSON action when TTI has no such action) */
  reply: string;
  /** the TTI action, or null when the oracle did something a policy cannot (a scroll inside an element) */
  action: string | null;
  /** the oracle's own action, as JSON */
  oracle: string;
}

export interface OracleDemo {
  taskId: number;
  template: string;
  split: 'train' | 'test';
  heldOut: boolean;
  tier: Tier;
  intent: string;
  /** the horizon the policy sees in its inputs (an eval's, not the oracle's own cap) */
  horizon: number;
  success: boolean;
  reward: number;
  /** why the solve stopped, when it failed */
  error?: string;
  steps: OracleDemoStep[];
}

const oneLine = (text: string) => text.replace(/[[\]]/g, ' ').replace(/\s+/g, ' ').trim();

/**
 * An env action as the TTI action a policy would reply, or null for what TTI cannot express.
 * `emptyAnswer` stands for a bare stop (a navigation task's end): the policy's word for "done".
 */
export function ttiActionOf(action: Action, emptyAnswer: string): string | null {
  switch (action.type) {
    case 'click':
      return `Click [${action.elementId}]`;
    case 'hover':
      return `Hover [${action.elementId}]`;
    case 'type':
      return `Type [${action.elementId}] [${oneLine(action.text)}]`;
    case 'select_option':
      return `Select [${action.elementId}] [${oneLine(action.option)}]`;
    case 'scroll':
      return action.elementId ? null : `Scroll [${action.direction}]`;
    case 'go_back':
      return 'GoBack';
    case 'stop':
      return `ANSWER [${oneLine(action.answer) || emptyAnswer}]`;
    default:
      return null;
  }
}

export interface DemoRecordOptions {
  /** the horizon written into each demo (what the policy will be run with) */
  horizon: number;
  /** the policy's answer for a bare stop (the model's DONE_ANSWER) */
  emptyAnswer: string;
  /**
   * reset the host before every demo, not only after one that sent a request that may change a
   * site (or failed); default false
   */
  resetEvery?: boolean;
}

/** One task solved by the oracle on a freshly reset instance, every acting step recorded. */
export async function recordOracleDemo(
  slot: ArenaSlot,
  raw: MiniArenaTask,
  o: DemoRecordOptions,
): Promise<OracleDemo> {
  const steps: OracleDemoStep[] = [];
  const demo = (success: boolean, error?: string): OracleDemo => ({
    taskId: raw.task_id,
    template: raw.miniarena.template,
    split: raw.miniarena.split,
    heldOut: raw.miniarena.held_out_template,
    tier: raw.miniarena.tier,
    intent: raw.intent,
    horizon: o.horizon,
    success,
    reward: success ? 1 : 0,
    ...(error !== undefined ? { error } : {}),
    steps,
  });
  const task = slot.tasks.get(String(raw.task_id));
  const solver = SOLVERS[raw.miniarena.template];
  if (!task) return demo(false, `task ${raw.task_id} is not in the loaded task files`);
  if (!solver) return demo(false, `no oracle solver for template ${raw.miniarena.template}`);
  // Only a solve that may have changed a site (a POST, say) leaves the host to reset: the env
  // says per step whether it sent such a request, and a failed solve is not trusted.
  if (o.resetEvery || !slot.pristine) await slot.host.reset();
  slot.pristine = false;
  let unsafe = false;
  const env = slot.env;
  try {
    const first = await env.reset(task, { horizon: ORACLE_HORIZON });
    const d = await watchedSolve(env, first, raw, (action, page, result) => {
      if (result.sentUnsafeRequest ?? action.type !== 'stop') unsafe = true;
      const tti = ttiActionOf(action, o.emptyAnswer);
      const oracle = JSON.stringify(action);
      steps.push({
        url: page.url,
        nodes: observationColumns(page.nodes, VIEWPORT),
        note: page.notes.length > 0 ? page.notes.join('\n') : null,
        reply: `Action: ${tti ?? oracle}`,
        action: tti,
        oracle,
      });
    });
    const verdict = d.result?.record?.verdict;
    if (!verdict) {
      await env.abandon();
      return demo(false, 'the solver finished without answering');
    }
    slot.pristine = !unsafe && verdict.success;
    return demo(verdict.success, verdict.success ? undefined : verdict.why);
  } catch (e) {
    await env.abandon();
    return demo(false, errorMessage(e));
  }
}

export interface RecordDemosOptions extends DemoRecordOptions {
  /** MiniArena instances (and browsers) side by side, one per env worker of the run; default 2 */
  concurrency?: number;
  /** over the oracle's own settings (a run's env.reuse_context and env.typing, say) */
  env?: BrowserEnvConfig;
  /** each demo as it is recorded, with how many of the tasks are done */
  onDemo?: (demo: OracleDemo, done: number) => void;
}

/** The oracle's demos of the given tasks (pool.ts's readSplit, selectTasks), in task order. */
export async function recordOracleDemos(
  tasks: readonly MiniArenaTask[],
  o: RecordDemosOptions,
): Promise<OracleDemo[]> {
  if (tasks.length === 0) return [];
  const slots = await openSlots(Math.min(o.concurrency ?? 2, tasks.length), {
    split: 'all',
    env: { ...ORACLE_ENV, ...o.env },
    more: tasks.filter((t) => t.task_id >= MORE_TRAIN_ID_BASE),
  });
  try {
    return await runOnSlots(slots, tasks, (slot, raw) => recordOracleDemo(slot, raw, o), o.onDemo);
  } finally {
    await closeSlots(slots);
  }
}

/**
 * Whether an answer passes a MiniArena task's string_match (WebArena's evaluator, no judge), or
 * null for a task that has none. Pretraining aligns the oracle's computed answers with it.
 */
export function answerCheck(task: MiniArenaTask): ((answer: string) => Promise<boolean>) | null {
  if (!task.eval.eval_types.includes('string_match') || task.eval.reference_answers === null) return null;
  // string_match reads only the references and the note; the page checks stay with the episode
  const ev = { ...task.eval, program_html: [] };
  return async (answer) => {
    try {
      // a lucky substring (a whole column holding the answer) would teach listing, not answering
      return (
        (await stringMatch(ev, task.intent, answer, undefined)).score === 1 &&
        luckyPass(ev.reference_answers, answer) === undefined
      );
    } catch {
      // a reference that needs a judge (fuzzy_match) cannot vouch for an answer here
      return false;
    }
  };
}
