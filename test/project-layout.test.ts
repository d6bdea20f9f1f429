import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { projectRoot } from '../src/util/paths.js';

test('the design card folders exist', () => {
  for (const dir of [
    'src/actors',
    'src/protocol',
    'src/model',
    'src/envs',
    'src/arena',
    'src/curriculum',
    'src/util',
    'experiments',
    'configs',
    'tasks',
    'prompts',
    'bin',
  ]) {
    assert.ok(existsSync(`${projectRoot}/${dir}`), dir);
  }
});

// A file is one idea: the two adapters stay thin and no source file grows past 500 lines, except
// data tables (word lists, seed data), which are named here.
const DATA_TABLES = new Set(['src/arena/words.ts']);
const THIN = { 'src/actors/roles/env-role.ts': 250, 'src/actors/supervisor/supervisor.ts': 250 };

test('no source file in src/ is longer than 500 lines, and the env role and supervisor at most 250', () => {
  const tooLong: string[] = [];
  for (const entry of readdirSync(`${projectRoot}/src`, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.ts')) continue;
    const file = relative(projectRoot, join(entry.parentPath, entry.name));
    if (DATA_TABLES.has(file)) continue;
    const lines = readFileSync(join(projectRoot, file), 'utf8').split('\n').length - 1;
    const limit = THIN[file as keyof typeof THIN] ?? 500;
    if (lines > limit) tooLong.push(`${file}: ${lines} lines (at most ${limit})`);
  }
  assert.deepEqual(tooLong, []);
});
