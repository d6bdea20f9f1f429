// The browser env, the env worker, the supervisor and TTI's loop know suites only through src/suites'
// interface (BrowserGym's core/env.py names no benchmark): none of their files names a suite, reads
// a suite's settings, branches on a task's kind, or imports a suite's own folder.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { BUILT_IN_SUITES } from '../../src/suites/index.js';
import { projectRoot } from '../../src/util/paths.js';

const SUITE_FREE = [
  'src/envs/browser-env.ts',
  'src/envs/episode-hooks.ts',
  'src/envs/browser',
  'src/envs/observation',
  'src/envs/actions',
  'src/actors/roles/env-role.ts',
  'src/actors/roles/env-browser.ts',
  'src/episode',
  'src/strategies',
  'src/actors/supervisor',
  'src/loop',
];

function files(rel: string): string[] {
  const full = path.join(projectRoot, rel);
  if (statSync(full).isFile()) return [rel];
  return readdirSync(full).flatMap((name) => files(path.join(rel, name)));
}

/** Suite names and what only a suite would say: the built-in suites' names (bar WebArena's, which is also the name of the env's action and text formats) and their spellings, their settings, kind checks. */
const FORBIDDEN: [string, RegExp][] = [
  ['a suite name', /mini-?wob|mini-?arena|web-?voyager|tti-jsonl|webarena-?verified/i],
  ['a suite setting', /webarena_host|env\.miniwob|suite_options/],
  ['a branch on the task kind', /task\.kind\s*[!=]==/],
  ["an import of a suite's own folder", /from\s+['"][^'"]*\/suites\/[^'"]+\/[^'"]*['"]/],
];

test('the browser env, env worker and supervisor name no suite', () => {
  const names = Object.keys(BUILT_IN_SUITES).filter((n) => n !== 'webarena');
  assert.ok(names.length >= 4, 'the check knows the built-in suites');
  for (const name of names) assert.match(name, FORBIDDEN[0]![1], `the check covers ${name}`);
  const found: string[] = [];
  for (const file of SUITE_FREE.flatMap(files)) {
    readFileSync(path.join(projectRoot, file), 'utf8')
      .split('\n')
      .forEach((line, i) => {
        for (const [what, re] of FORBIDDEN)
          if (re.test(line)) found.push(`${file}:${i + 1}: ${what}: ${line.trim()}`);
      });
  }
  assert.deepEqual(found, []);
});
