import { generateTasks, writeTaskFiles } from '../generate-tasks.js';
import {
  ORACLE_LENGTHS_FILE,
  type OracleLengths,
  readOracleLengths,
  suiteFingerprint,
  writeOracleLengths,
} from '../oracle-lengths.js';
import { DEFAULT_SEED } from '../seed-data.js';

export interface RecordLengthsResult {
  file: string;
  /** Tasks with a measured length after merging. */
  measured: number;
  /** Tasks of the suite still without one (the oracle failed on them, or they were not run). */
  unmeasured: number;
  train: string;
  test: string;
}

/**
 * `tti-run tasks check --write-lengths`: merges the oracle's measured lengths (task_id → steps,
 * e.g. `checkTasks(...).lengths`) into tasks/miniarena/oracle-lengths.json, then regenerates the
 * task files so each task records `oracle_steps` and the tier it falls in. Lengths measured on an
 * older suite are dropped. The generator stays deterministic: it reads the lengths file, it never
 * runs a browser.
 */
export function recordOracleLengths(
  lengths: Readonly<Record<string, number>>,
  opts: { file?: string; dir?: string; seed?: number } = {},
): RecordLengthsResult {
  const seed = opts.seed ?? DEFAULT_SEED;
  const file = opts.file ?? ORACLE_LENGTHS_FILE;
  const suite = generateTasks({ seed, oracleLengths: null });
  const all = [...suite.train, ...suite.test];
  const fp = suiteFingerprint(all);
  const prev = readOracleLengths(file);
  const merged: OracleLengths = {
    seed,
    suite: fp,
    lengths: { ...(prev && prev.seed === seed && prev.suite === fp ? prev.lengths : {}), ...lengths },
  };
  const ids = new Set(all.map((t) => String(t.task_id)));
  for (const id of Object.keys(merged.lengths)) if (!ids.has(id)) delete merged.lengths[id];
  writeOracleLengths(merged, file);
  const written = writeTaskFiles({ seed, dir: opts.dir, oracleLengths: merged });
  const measured = Object.keys(merged.lengths).length;
  return { file, measured, unmeasured: all.length - measured, train: written.train, test: written.test };
}
