import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { parseQs, parseUrl, urlMatch } from '../../src/envs/evaluators/url-match.js';
import { loadTaskFile } from '../../src/envs/index.js';
import { projectRoot } from '../../src/util/paths.js';

const hosts = { gitlab: 'http://gitlab.test:8023', reddit: 'http://reddit.test:9999' };
const tasks = loadTaskFile(path.resolve(projectRoot, '../shared/data/webarena/test.raw.json'), { hosts });
const refOf = (id: number) => tasks.find((t) => t.id === String(id))!.eval!.reference_url!;

test('parse_qs drops blank values and decodes + and %XX', () => {
  assert.deepEqual(
    [...parseQs('a=1&b=&c&a=x+y&d=%C3%A9')],
    [
      ['a', ['1', 'x y']],
      ['d', ['é']],
    ],
  );
  assert.equal(parseUrl('http://h:1/p/q;params?x=1#frag').base, 'h:1/p/q');
});

test('GOLD in PRED: the reference base is a substring of the page base, scheme and trailing slash ignored', () => {
  assert.equal(urlMatch('https://h.test/a/b/', 'http://h.test/a/b').score, 1);
  assert.equal(urlMatch('http://h.test/a/b/c/d', 'http://h.test/a/b').score, 1);
  assert.equal(urlMatch('http://h.test/a', 'http://h.test/a/b').score, 0);
});

test('real task 45: query parameters must carry one of the allowed values, in any order, extras allowed', () => {
  const ref = refOf(45);
  assert.equal(
    ref,
    'http://gitlab.test:8023/a11yproject/a11yproject.com/-/issues/?sort=created_asc&state=opened',
  );
  const base = 'http://gitlab.test:8023/a11yproject/a11yproject.com/-/issues/';
  assert.equal(urlMatch(`${base}?state=opened&sort=created_asc&page=2`, ref).score, 1);
  // WebArena strips "/" only at the end of the whole URL, so this reference's path keeps "issues/".
  assert.equal(urlMatch(`${base.slice(0, -1)}?state=opened&sort=created_asc`, ref).score, 0);
  const v = urlMatch(`${base}?sort=created_asc&state=closed`, ref);
  assert.equal(v.score, 0);
  assert.match(v.why, /query lacks state=opened/);
  assert.equal(urlMatch(`${base}?sort=created_asc`, ref).score, 0);
});

test('real task 604: |OR| accepts any of the references', () => {
  const ref = refOf(604);
  assert.equal(urlMatch('http://reddit.test:9999/f/MachineLearning/', ref).score, 1);
  assert.equal(urlMatch('http://reddit.test:9999/f/singularity/12345/some-post', ref).score, 1);
  const v = urlMatch('http://reddit.test:9999/f/technology', ref);
  assert.equal(v.score, 0);
  assert.match(v.why, /contains none of/);
});

test('an unknown matching rule is an error, not a guess', () => {
  assert.throws(() => urlMatch('http://a', 'http://a', 'PRED in GOLD'), /Unknown matching rule/);
});
