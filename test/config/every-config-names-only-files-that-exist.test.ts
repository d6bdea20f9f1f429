// Every config in configs/ (and its presets) names only files that exist: the task files, the
// chat and judge prompts, checkpoints, priors, demos, MiniWoB++'s folder, and the scripts in
// learner.command (with {project} filled as the external learner fills it). The one exception is
// TTI's own task files, which a user copies into tasks/tti/: those must be named in its README.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { parse } from 'yaml';
import { promptFile } from '../../src/chat/index.js';
import { resolveConfig } from '../../src/config/index.js';
import { projectRoot } from '../../src/util/index.js';

const configsDir = path.join(projectRoot, 'configs');
const REAL_MINIWOB = path.join(projectRoot, '..', 'shared', 'data', 'miniwob', 'html');
const userCopied = path.join(projectRoot, 'tasks', 'tti');
const userCopiedReadme = readFileSync(path.join(userCopied, 'README.md'), 'utf8');

function configFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? configFiles(path.join(dir, e.name))
      : /\.ya?ml$/.test(e.name)
        ? [path.join(dir, e.name)]
        : [],
  );
}

/** A learner.command argument that names a file of the checkout (a script), filled as the learner does. */
function scriptArg(arg: string): string | null {
  const filled = arg.replaceAll('{project}', projectRoot);
  if (/\{\w+\}/.test(filled)) return null; // a run's own value ({data}, {out}, …)
  return /\.(py|sh|js|mjs|ts)$/.test(filled) ? path.resolve(projectRoot, filled) : null;
}

/**
 * A preset for MiniWoB++ leaves its folder to the user (`--miniwob-dir`): given the one beside the
 * clone here, as a user gives theirs.
 */
function withUserMiniwob(tree: Record<string, unknown> | null): Record<string, unknown> | null {
  const env = (tree?.env ?? {}) as { suite?: string; miniwob?: Record<string, unknown> };
  if (env.suite !== 'miniwob' || env.miniwob?.dir !== undefined || env.miniwob?.url !== undefined)
    return tree;
  return { ...tree, env: { ...env, miniwob: { ...env.miniwob, dir: REAL_MINIWOB } } };
}

/** The files a config names, by key. */
function namedFiles(file: string): { key: string; file: string }[] {
  const tree = parse(readFileSync(file, 'utf8')) as Record<string, unknown> | null;
  const c = resolveConfig(withUserMiniwob(tree), file);
  const out: { key: string; file: string }[] = [];
  const add = (key: string, value: string | null) => {
    if (value !== null) out.push({ key, file: path.resolve(projectRoot, value) });
  };
  add('tasks.train', c.tasks.train);
  add('tasks.test', c.tasks.test);
  out.push({ key: 'chat.prompt', file: promptFile(c.chat.prompt, '.json') });
  out.push({ key: 'judge.prompt', file: promptFile(c.judge.prompt, '.txt') });
  add('model.checkpoint', c.model.checkpoint);
  add('model.prior', c.model.prior);
  add('learner.demos', c.learner.demos);
  add('env.miniwob.dir', c.env.miniwob.dir);
  if (/[/.]/.test(c.env.suite)) add('env.suite', c.env.suite);
  c.learner.command.forEach((arg, i) => {
    const script = scriptArg(arg);
    if (script !== null) out.push({ key: `learner.command[${i}]`, file: script });
  });
  return out;
}

test('no config under configs/ names a file that does not exist', () => {
  const files = configFiles(configsDir);
  assert.ok(files.length >= 6, 'the configs and presets are found');
  const missing: string[] = [];
  let checked = 0;
  for (const file of files) {
    for (const named of namedFiles(file)) {
      checked++;
      if (existsSync(named.file)) continue;
      const copied =
        path.dirname(named.file) === userCopied && userCopiedReadme.includes(path.basename(named.file));
      if (!copied) missing.push(`${path.relative(projectRoot, file)}: ${named.key}: ${named.file}`);
    }
  }
  assert.deepEqual(missing, []);
  assert.ok(checked > files.length * 2);
});

test('the learner command of the WebArena training config is the trainer in scripts/', () => {
  const file = path.join(configsDir, 'webarena_rl.yaml');
  const scripts = namedFiles(file).filter((n) => n.key.startsWith('learner.command'));
  assert.deepEqual(
    scripts.map((s) => s.file),
    [path.join(projectRoot, 'scripts', 'train_sft.py')],
  );
  // a path relative to the checkout would be looked up in the run directory, where it runs
  const tree = parse(readFileSync(file, 'utf8')) as { learner: { command: string[] } };
  assert.ok(tree.learner.command.some((a) => a.startsWith('{project}/')));
});
