// Which suite a run uses (`env.suite`): one of the built-in ones by name, one a user wrote (a path
// to a module whose default export is a TaskSuite, as BrowserGym's register_task lets a benchmark
// add its tasks), or `auto`, the suite the configured task files and host imply.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Config } from '../config/index.js';
import { taskFileFormat } from '../envs/index.js';
import { miniArenaSuite } from './miniarena/index.js';
import { miniwobSuite } from './miniwob/index.js';
import type { TaskSuite } from './suite.js';
import { ttiJsonlSuite } from './tti-jsonl/index.js';
import { webArenaSuite } from './webarena/index.js';
import { isVerifiedFile, webArenaVerifiedSuite } from './webarena-verified/index.js';
import { webVoyagerSuite } from './webvoyager/index.js';

export const BUILT_IN_SUITES: Readonly<Record<string, TaskSuite>> = {
  miniarena: miniArenaSuite,
  webarena: webArenaSuite,
  'webarena-verified': webArenaVerifiedSuite,
  'tti-jsonl': ttiJsonlSuite,
  webvoyager: webVoyagerSuite,
  miniwob: miniwobSuite,
};

export class SuiteError extends Error {
  override name = 'SuiteError';
}

/**
 * `auto`: a WebVoyager or TTI task file says its suite; WebArena's raw files run on WebArena at
 * `webarena_host`, or on the embedded MiniArena when no host is set (MiniArena's own files by default).
 */
export function autoSuiteName(config: Config): string {
  const file = config.tasks.test ?? config.tasks.train;
  if (file !== null && isVerifiedFile(file)) return 'webarena-verified';
  const format = file === null || !existsSync(file) ? 'webarena-raw' : taskFileFormat(file);
  if (format === 'webvoyager') return 'webvoyager';
  if (format === 'tti-webarena') return 'tti-jsonl';
  return config.webarena_host === null ? 'miniarena' : 'webarena';
}

/** A module's suite: its default export, or its export named `suite`; what is missing is named. */
function suiteOf(module: Record<string, unknown>, file: string): TaskSuite {
  const candidate = (module.default ?? module.suite) as Partial<TaskSuite> | undefined;
  const missing: string[] = [];
  if (candidate === undefined || candidate === null || typeof candidate !== 'object')
    throw new SuiteError(
      `env.suite ${file}: the module exports no suite (a default export, or one named suite)`,
    );
  if (typeof candidate.name !== 'string' || candidate.name === '') missing.push('name (a string)');
  if (typeof candidate.tasks !== 'function') missing.push('tasks(ctx, wants)');
  if (typeof candidate.start !== 'function') missing.push('start(ctx)');
  if (missing.length > 0)
    throw new SuiteError(`env.suite ${file}: the suite it exports has no ${missing.join(', no ')}`);
  return candidate as TaskSuite;
}

/** The run's suite; a path names a module (relative paths from the working directory). */
export async function loadSuite(config: Config): Promise<TaskSuite> {
  const name = config.env.suite === 'auto' ? autoSuiteName(config) : config.env.suite;
  const builtIn = BUILT_IN_SUITES[name];
  if (builtIn) return builtIn;
  const looksLikePath = /[\\/]/.test(name) || /\.[cm]?js$/.test(name);
  if (!looksLikePath)
    throw new SuiteError(
      `env.suite ${JSON.stringify(name)}: no such suite; the built-in ones are auto, ${Object.keys(BUILT_IN_SUITES).join(', ')}, or give the path of a suite module (./my-suite.js)`,
    );
  const file = path.resolve(name);
  if (!existsSync(file)) throw new SuiteError(`env.suite ${name}: no module at ${file}`);
  let module: Record<string, unknown>;
  try {
    module = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  } catch (e) {
    throw new SuiteError(`env.suite ${name}: ${file} did not load: ${(e as Error).message}`);
  }
  return suiteOf(module, name);
}
