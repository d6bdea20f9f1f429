// No prior, feature, candidate or rule may name a MiniWoB++ task: every page name of the real
// folder (miniwob/<name>.html) is looked for in all of src/, the suite's own folder included (it
// keeps no table of tasks: what a task needs is read from its page at run time). A
// hyphenated name counts wherever it stands as a whole token; a one-word name that is also an
// English word ("terminal") only as a quoted string, which is how code would name the task.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { projectRoot } from '../../src/util/paths.js';
import { REAL_HTML } from './helpers.js';

const SRC = path.join(projectRoot, 'src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const file = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(file);
    return /\.(ts|js|mjs|html|css|json|ya?ml|md)$/.test(e.name) ? [file] : [];
  });
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A name as a token: no word character or hyphen on either side (click-test is not in click-test-2). */
function pattern(name: string): RegExp {
  const token = `(?<![\\w-])${escapeRegExp(name)}(?![\\w-])`;
  return name.includes('-') ? new RegExp(token) : new RegExp(`(['"\`])${escapeRegExp(name)}\\1`);
}

test('the folder has its 115 task pages, so the check below is not empty', () => {
  const names = readdirSync(path.join(REAL_HTML, 'miniwob')).filter((f) => f.endsWith('.html'));
  assert.ok(names.length >= 100, `${names.length} pages in ${REAL_HTML}/miniwob`);
});

test('no file in src/ names a task of the MiniWoB++ folder', () => {
  const names = readdirSync(path.join(REAL_HTML, 'miniwob'))
    .filter((f) => f.endsWith('.html'))
    .map((f) => f.slice(0, -'.html'.length));
  const found: string[] = [];
  for (const file of sourceFiles(SRC)) {
    const lines = readFileSync(file, 'utf8').split('\n');
    for (const name of names) {
      const re = pattern(name);
      for (const [i, line] of lines.entries())
        if (re.test(line))
          found.push(`${path.relative(projectRoot, file)}:${i + 1}: ${name}: ${line.trim()}`);
    }
  }
  assert.deepEqual(found, [], `task names in src/:\n${found.join('\n')}`);
});

test('the check finds a name where one is (it is not blind)', () => {
  assert.ok(pattern('drag-items').test('const x = "drag-items";'));
  assert.ok(pattern('drag-items').test('// as on drag-items, the list'));
  assert.ok(!pattern('click-test').test('click-test-2'));
  assert.ok(pattern('terminal').test("if (name === 'terminal')"));
  assert.ok(!pattern('terminal').test('// a terminal Ctrl-C'));
});
