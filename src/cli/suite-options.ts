// `--suite miniwob --tasks a,b --episodes K --miniwob-dir DIR` on train and eval: shorthands for
// config keys, turned into `--set` overrides (laid over the config like any other).
import { ConfigError } from '../config/index.js';

/** SUITE_OPTIONS as yargs parses them (the command's argv can be passed as it is). */
export interface SuiteArgs {
  suite?: string | undefined;
  tasks?: string | undefined;
  episodes?: number | undefined;
  'miniwob-dir'?: string | undefined;
  'miniwob-url'?: string | undefined;
}

/** The yargs options of both commands (`.options(SUITE_OPTIONS)`). */
export const SUITE_OPTIONS = {
  suite: {
    type: 'string',
    describe:
      'the task suite (env.suite): auto, miniarena, webarena, tti-jsonl, webvoyager, miniwob, or the path of a suite module',
  },
  tasks: { type: 'string', describe: 'MiniWoB++ tasks, a,b,c or all (env.miniwob.tasks)' },
  episodes: {
    type: 'number',
    describe: 'MiniWoB++ test episodes (seeds) per task (env.miniwob.eval_episodes)',
  },
  'miniwob-dir': {
    type: 'string',
    describe: "a local copy of MiniWoB++'s html/ folder (env.miniwob.dir)",
  },
  'miniwob-url': {
    type: 'string',
    describe: "a served copy of MiniWoB++'s html/ folder (env.miniwob.url)",
  },
} as const;

export function suiteSets(args: SuiteArgs): string[] {
  const sets: string[] = [];
  if (args.suite !== undefined) sets.push(`env.suite=${args.suite}`);
  if (args.tasks !== undefined) {
    const names = args.tasks
      .split(',')
      .map((t) => t.trim())
      .filter((t) => t !== '');
    if (names.length === 0)
      throw new ConfigError(`--tasks '${args.tasks}': expected task names, a,b,c, or all`);
    sets.push(
      names.length === 1 && names[0] === 'all'
        ? 'env.miniwob.tasks=all'
        : `env.miniwob.tasks=${JSON.stringify(names)}`,
    );
  }
  if (args.episodes !== undefined) {
    if (!Number.isInteger(args.episodes) || args.episodes < 1)
      throw new ConfigError(
        `--episodes ${args.episodes}: expected a whole number of episodes per task, 1 or more`,
      );
    sets.push(`env.miniwob.eval_episodes=${args.episodes}`);
  }
  const dir = args['miniwob-dir'];
  const url = args['miniwob-url'];
  if (dir !== undefined) sets.push(`env.miniwob.dir=${JSON.stringify(dir)}`);
  if (url !== undefined) sets.push(`env.miniwob.url=${JSON.stringify(url)}`);
  return sets;
}
