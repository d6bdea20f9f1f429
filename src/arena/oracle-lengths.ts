import { createHash } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../util/index.js';
import { type MiniArenaTask, tierOf } from './templates/types.js';

/**
 * The oracle's measured solution lengths, kept beside the task files so that generating tasks
 * stays a pure function of the seed and this file (no browser needed to regenerate):
 * `tasks/miniarena/oracle-lengths.json` = { seed, suite, lengths: { task_id: steps } }.
 * `suite` fingerprints what the lengths were measured on (ids, templates, intents, start URLs,
 * evaluators); lengths from another suite are not applied.
 */
export interface OracleLengths {
  seed: number;
  suite: string;
  lengths: Record<string, number>;
}

export const ORACLE_LENGTHS_FILE = path.join(projectRoot, 'tasks', 'miniarena', 'oracle-lengths.json');

export function suiteFingerprint(tasks: readonly MiniArenaTask[]): string {
  const h = createHash('sha256');
  for (const t of [...tasks].sort((a, b) => a.task_id - b.task_id))
    h.update(JSON.stringify([t.task_id, t.miniarena.template, t.intent, t.start_url, t.eval]));
  return h.digest('hex').slice(0, 16);
}

export function readOracleLengths(file = ORACLE_LENGTHS_FILE): OracleLengths | null {
  if (!existsSync(file)) return null;
  return JSON.parse(readFileSync(file, 'utf8')) as OracleLengths;
}

export function serializeOracleLengths(l: OracleLengths): string {
  const ids = Object.keys(l.lengths).sort((a, b) => Number(a) - Number(b));
  const lengths = Object.fromEntries(ids.map((id) => [id, l.lengths[id]!]));
  return `${JSON.stringify({ seed: l.seed, suite: l.suite, lengths }, null, 1)}\n`;
}

export function writeOracleLengths(l: OracleLengths, file = ORACLE_LENGTHS_FILE): void {
  const tmp = `${file}.tmp-${process.pid}`;
  writeFileSync(tmp, serializeOracleLengths(l));
  renameSync(tmp, file);
}

/** What a measured length belongs to: a task's template, intent, start URL and evaluator — not its id. */
function contentKey(t: MiniArenaTask): string {
  return JSON.stringify([t.miniarena.template, t.intent, t.start_url, t.eval]);
}

/**
 * Lengths for a changed suite: each task of `tasks` takes the oracle length measured for the task of
 * the same content in `measured` (an older suite's tasks, as written), whatever its id now is. So a
 * template change costs a re-measure of the tasks it changed, not of all 1,006.
 */
export function carryOverLengths(
  tasks: readonly MiniArenaTask[],
  measured: readonly MiniArenaTask[],
  seed: number,
): OracleLengths {
  const known = new Map<string, number>();
  for (const t of measured)
    if (t.miniarena.oracle_steps !== null) known.set(contentKey(t), t.miniarena.oracle_steps);
  const lengths: Record<string, number> = {};
  for (const t of tasks) {
    const steps = known.get(contentKey(t));
    if (steps !== undefined) lengths[String(t.task_id)] = steps;
  }
  return { seed, suite: suiteFingerprint(tasks), lengths };
}

/**
 * Sets `oracle_steps` (and the tier it falls in) on every task the lengths cover, in place, when
 * they were measured on this very suite; returns how many tasks got a measured length.
 */
export function applyOracleLengths(tasks: MiniArenaTask[], seed: number, l: OracleLengths | null): number {
  if (!l || l.seed !== seed || l.suite !== suiteFingerprint(tasks)) return 0;
  let n = 0;
  for (const t of tasks) {
    const steps = l.lengths[String(t.task_id)];
    if (steps === undefined) continue;
    t.miniarena.oracle_steps = steps;
    t.miniarena.steps_source = 'oracle';
    t.miniarena.tier = tierOf(steps);
    n++;
  }
  return n;
}
