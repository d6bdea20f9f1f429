import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
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
