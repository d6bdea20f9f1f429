// The periodic eval's fixed subset: `per_template` takes as many tasks from every template (on
// MiniArena's real test split and its labels), `uniform` draws tasks; both are fixed by the seed
// and keep the file's order.
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { evalSubset } from '../../src/curriculum/eval-subset.js';
import type { TaskRef } from '../../src/curriculum/task-sampler.js';
import { readTaskLabels, templateIn } from '../../src/envs/tasks/labels.js';
import { projectRoot } from '../../src/util/paths.js';

const file = path.join(projectRoot, 'tasks', 'miniarena', 'test.json');
const labels = readTaskLabels(file);
const tasks: TaskRef[] = [...labels.keys()].map((key) => ({ file, id: key.slice(key.lastIndexOf('#') + 1) }));
const templateOf = (t: TaskRef) => templateIn(labels, t);

function perTemplateCounts(subset: readonly TaskRef[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const t of subset) counts.set(templateOf(t)!, (counts.get(templateOf(t)!) ?? 0) + 1);
  return counts;
}

test('per_template takes two tasks of each of the 39 test templates when asked for 78', () => {
  const templates = new Set(tasks.map(templateOf));
  assert.equal(templates.size, 39);
  const subset = evalSubset(tasks, 78, 0, 'per_template', templateOf);
  assert.equal(subset.length, 78);
  const counts = perTemplateCounts(subset);
  const available = perTemplateCounts(tasks);
  assert.equal(counts.size, 39);
  // Two templates have a single test task: their two missing slots go to a third round.
  const third = [...counts].filter(([, n]) => n === 3).length;
  assert.equal(third, 2);
  for (const [template, n] of counts)
    assert.ok(n === Math.min(2, available.get(template)!) || n === 3, template);
});

test('per_template gives each template ⌊n/T⌋ or one more, and all of a template smaller than that', () => {
  const subset = evalSubset(tasks, 120, 0, 'per_template', templateOf);
  assert.equal(subset.length, 120);
  const counts = perTemplateCounts(subset);
  const available = perTemplateCounts(tasks);
  for (const [template, n] of counts) {
    const has = available.get(template)!;
    assert.ok(n === has || n === 3 || n === 4, `${template}: ${n} of ${has}`);
  }
  // shop_reorder has one test task, tracker_my_open_issues one: both are in, once.
  assert.equal(counts.get('shop_reorder'), 1);
  assert.equal(counts.get('tracker_my_open_issues'), 1);
});

test('a uniform draw of 60 leaves most templates with one task or none', () => {
  const counts = perTemplateCounts(evalSubset(tasks, 60, 0, 'uniform', templateOf));
  const thin = [...new Set(tasks.map(templateOf))].filter((t) => (counts.get(t!) ?? 0) <= 1);
  assert.ok(thin.length > 20, `${thin.length} templates with ≤ 1 task`);
});

test('the subset is fixed by the seed, changes with it, and keeps the file order', () => {
  for (const sampling of ['uniform', 'per_template'] as const) {
    const a = evalSubset(tasks, 50, 7, sampling, templateOf);
    assert.deepEqual(evalSubset(tasks, 50, 7, sampling, templateOf), a);
    assert.notDeepEqual(evalSubset(tasks, 50, 8, sampling, templateOf), a);
    const order = a.map((t) => tasks.indexOf(t));
    assert.deepEqual(
      order,
      [...order].sort((x, y) => x - y),
    );
  }
  assert.equal(evalSubset(tasks, 0, 7, 'per_template', templateOf).length, tasks.length);
});

test('tasks without a template are one group of their own', () => {
  const unlabelled: TaskRef[] = Array.from({ length: 10 }, (_, i) => ({ file: 'x.json', id: String(i) }));
  const subset = evalSubset([...unlabelled, ...tasks.slice(0, 10)], 4, 1, 'per_template', templateOf);
  assert.equal(subset.length, 4);
});
