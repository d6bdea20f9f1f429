import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { projectRoot, SeededRandom } from '../util/index.js';
import {
  applyOracleLengths,
  carryOverLengths,
  type OracleLengths,
  readOracleLengths,
  suiteFingerprint,
  writeOracleLengths,
} from './oracle-lengths.js';
import { DEFAULT_SEED, pristineState } from './seed-data.js';
import { HELD_OUT_TEMPLATES, TEMPLATES } from './templates/index.js';
import { fill, type Instance, type MiniArenaTask, type Template, tierOf } from './templates/types.js';

export interface GenerateOptions {
  seed?: number;
  /** Measured oracle lengths to record in the tasks; default: tasks/miniarena/oracle-lengths.json when it
   *  exists (applied only if measured on this very suite); null: none. */
  oracleLengths?: OracleLengths | null;
  /** Most train tasks per template. */
  trainPerTemplate?: number;
  /** Most test tasks per template that also appears in train. */
  testPerTemplate?: number;
  /** Most test tasks per held-out template. */
  heldOutPerTemplate?: number;
  /** Keep each site-changing task's requests (`network`), for the WebArena-Verified export; the task files hold none. */
  withNetwork?: boolean;
}

export interface TaskSuite {
  train: MiniArenaTask[];
  test: MiniArenaTask[];
}

export const TASKS_DIR = path.join(projectRoot, 'tasks', 'miniarena');

function toTask(
  t: Template,
  inst: Instance,
  split: 'train' | 'test',
  seed: number,
  withNetwork = false,
): Omit<MiniArenaTask, 'task_id'> {
  const held = HELD_OUT_TEMPLATES.includes(t.key);
  return {
    sites: [t.site],
    require_login: true,
    storage_state: `./.auth/${t.site}_state.json`,
    start_url: inst.start_url,
    geolocation: null,
    intent_template: t.intent,
    instantiation_dict: inst.dict,
    intent: fill(t.intent, inst.dict),
    require_reset: inst.mutates === true,
    eval: inst.eval,
    intent_template_id: t.id,
    miniarena: {
      template: t.key,
      split,
      held_out_template: held,
      tier: tierOf(inst.steps),
      estimated_steps: inst.steps,
      oracle_steps: null,
      steps_source: 'estimate',
      features: [...new Set(inst.features ?? [])],
      evidence_urls: inst.evidence ?? [],
      seed,
    },
    ...(withNetwork && inst.network ? { network: inst.network } : {}),
  };
}

/** What a constant answer would have to say to pass an instance: its string_match references. */
function answerKey(inst: Instance): string | null {
  const ref = inst.eval.eval_types.includes('string_match') ? inst.eval.reference_answers : null;
  return ref ? JSON.stringify(ref) : null;
}

/**
 * The pool reordered so that reference answers take turns: the first instance of every answer (in
 * the shuffled order), then the second of every answer, and so on. Where the world gives most
 * instances one answer (most forum users posted once to a forum: 251 of 306 instances say "1"), a
 * plain draw let a constant answer solve most of a template's tasks, and TTI's filter kept those
 * guesses as successes. Instances without a string answer, and answers met once, keep their order.
 */
export function answersTakeTurns(pool: readonly Instance[]): Instance[] {
  const groups = new Map<string, Instance[]>();
  pool.forEach((inst, i) => {
    const key = answerKey(inst) ?? `#${i}`;
    const group = groups.get(key);
    if (group) group.push(inst);
    else groups.set(key, [inst]);
  });
  const out: Instance[] = [];
  for (let round = 0; out.length < pool.length; round++)
    for (const group of groups.values()) if (round < group.length) out.push(group[round]!);
  return out;
}

/** Builds the task suite from the seeded world. Deterministic: the same options give the same tasks. */
export function generateTasks(options: GenerateOptions = {}): TaskSuite {
  const seed = options.seed ?? DEFAULT_SEED;
  const trainCap = options.trainPerTemplate ?? 22;
  const testCap = options.testPerTemplate ?? 6;
  const heldCap = options.heldOutPerTemplate ?? 18;
  const world = pristineState(seed);
  const root = new SeededRandom(seed ^ 0x5eed7a5c);
  const train: Array<Omit<MiniArenaTask, 'task_id'>> = [];
  const test: Array<Omit<MiniArenaTask, 'task_id'>> = [];
  for (const t of TEMPLATES) {
    const rng = root.fork(t.key);
    const seen = new Set<string>();
    const pool = t.instances(world, rng.fork('instances')).filter((inst) => {
      const key = `${fill(t.intent, inst.dict)}\n${inst.start_url}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
    const shuffled = answersTakeTurns(rng.fork('split').shuffle(pool));
    if (HELD_OUT_TEMPLATES.includes(t.key)) {
      for (const inst of shuffled.slice(0, heldCap))
        test.push(toTask(t, inst, 'test', seed, options.withNetwork));
      continue;
    }
    // long-horizon templates are the scarcest: give them half as many tasks again
    const scale = t.tier === 3 ? 1.5 : 1;
    const nTest = Math.min(Math.round(testCap * scale), Math.max(1, Math.floor(shuffled.length * 0.2)));
    for (const inst of shuffled.slice(0, nTest))
      test.push(toTask(t, inst, 'test', seed, options.withNetwork));
    for (const inst of shuffled.slice(nTest, nTest + Math.round(trainCap * scale)))
      train.push(toTask(t, inst, 'train', seed, options.withNetwork));
  }
  const withIds = (tasks: Array<Omit<MiniArenaTask, 'task_id'>>, first: number): MiniArenaTask[] =>
    tasks.map((t, i) => {
      const { sites, ...rest } = t;
      return { sites, task_id: first + i, ...rest };
    });
  const suite = { train: withIds(train, 0), test: withIds(test, train.length) };
  const lengths = options.oracleLengths === undefined ? readOracleLengths() : options.oracleLengths;
  applyOracleLengths([...suite.train, ...suite.test], seed, lengths);
  return suite;
}

/** Train tasks beyond the task files' are numbered from here, clear of both splits' ids. */
export const MORE_TRAIN_ID_BASE = 100_000;
/** Ids a template's further tasks may take (its k-th is MORE_TRAIN_ID_BASE + index · this + k). */
const MORE_TRAIN_IDS_PER_TEMPLATE = 10_000;

/**
 * More train tasks of the train templates, for more demonstrations: the task files' train tasks
 * (their ids kept), then further instances of each template from the same pools, up to
 * `perTemplate` a template (fewer where a pool is smaller), numbered from MORE_TRAIN_ID_BASE by
 * template and place, so a task keeps its id whatever `perTemplate` is (a demo cache recorded
 * with a smaller N stays valid for a larger one).
 * The generator takes each template's test tasks from its pool first, so none of these is a test
 * task; an instance whose intent and start page a test task has is left out all the same.
 */
export function moreTrainTasks(
  perTemplate: number,
  files: { train: readonly MiniArenaTask[]; test: readonly MiniArenaTask[] },
  seed = DEFAULT_SEED,
): MiniArenaTask[] {
  const key = (t: MiniArenaTask) => `${t.intent}\n${t.start_url}`;
  const test = new Set(files.test.map(key));
  const inFiles = new Set(files.train.map(key));
  const perFile = new Map<string, number>();
  for (const t of files.train)
    perFile.set(t.miniarena.template, (perFile.get(t.miniarena.template) ?? 0) + 1);
  const taken = new Map<string, number>();
  const more: MiniArenaTask[] = [];
  for (const t of generateTasks({ seed, trainPerTemplate: perTemplate, oracleLengths: null }).train) {
    const template = t.miniarena.template;
    if (inFiles.has(key(t)) || test.has(key(t))) continue;
    const k = taken.get(template) ?? perFile.get(template) ?? 0;
    if (k >= perTemplate) continue;
    taken.set(template, k + 1);
    const place = k - (perFile.get(template) ?? 0);
    if (place >= MORE_TRAIN_IDS_PER_TEMPLATE) continue;
    const index = TEMPLATES.findIndex((x) => x.key === template);
    more.push({ ...t, task_id: MORE_TRAIN_ID_BASE + index * MORE_TRAIN_IDS_PER_TEMPLATE + place });
  }
  return [...files.train, ...more];
}

export function serializeTasks(tasks: MiniArenaTask[]): string {
  return `${JSON.stringify(tasks, null, 2)}\n`;
}

/**
 * Writes train.json and test.json (atomically: temp file, then rename). With no `oracleLengths`
 * given, the lengths are `dir`'s oracle-lengths.json (else the project's) when measured on this
 * very suite; when a template change made a new suite, the lengths of the tasks it left alone carry
 * over from the task files being replaced, by content, and `dir`'s oracle-lengths.json is rewritten
 * for the new suite. `unmeasured` counts the tasks left without a length
 * (`tti-run tasks check --unmeasured --write-lengths` measures just those).
 */
export function writeTaskFiles(options: GenerateOptions & { dir?: string } = {}): {
  train: string;
  test: string;
  counts: { train: number; test: number };
  unmeasured: number;
} {
  const dir = options.dir ?? TASKS_DIR;
  const out = { train: path.join(dir, 'train.json'), test: path.join(dir, 'test.json') };
  mkdirSync(dir, { recursive: true });
  const seed = options.seed ?? DEFAULT_SEED;
  const suite = generateTasks({ ...options, oracleLengths: null });
  const all = [...suite.train, ...suite.test];
  let oracleLengths = options.oracleLengths;
  if (oracleLengths === undefined) {
    const lengthsFile = path.join(dir, 'oracle-lengths.json');
    const onDisk = readOracleLengths(lengthsFile) ?? readOracleLengths();
    if (onDisk && onDisk.seed === seed && onDisk.suite === suiteFingerprint(all)) oracleLengths = onDisk;
    else {
      const previous = (['train', 'test'] as const).flatMap((split) =>
        existsSync(out[split]) ? (JSON.parse(readFileSync(out[split], 'utf8')) as MiniArenaTask[]) : [],
      );
      oracleLengths = carryOverLengths(all, previous, seed);
      if (Object.keys(oracleLengths.lengths).length > 0) writeOracleLengths(oracleLengths, lengthsFile);
    }
  }
  applyOracleLengths(all, seed, oracleLengths);
  for (const split of ['train', 'test'] as const) {
    const tmp = `${out[split]}.tmp-${process.pid}`;
    writeFileSync(tmp, serializeTasks(suite[split]));
    renameSync(tmp, out[split]);
  }
  const unmeasured = all.filter((t) => t.miniarena.oracle_steps === null).length;
  return { ...out, counts: { train: suite.train.length, test: suite.test.length }, unmeasured };
}
