// The core config holds what a user sets; every other key belongs to exactly one registered
// section, named for the part of src/ that reads it.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { loadConfig, ownedKeys, SECTIONS } from '../../src/config/index.js';
import { projectRoot } from '../../src/util/paths.js';

/** Every leaf of a resolved config (a list or an empty mapping is one leaf), as dotted paths. */
function leaves(tree: Record<string, unknown>, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([key, value]) => {
    const at = `${prefix}${key}`;
    const isGroup = typeof value === 'object' && value !== null && !Array.isArray(value);
    return isGroup && Object.keys(value).length > 0 && at !== 'env.suite_options'
      ? leaves(value as Record<string, unknown>, `${at}.`)
      : [at];
  });
}

test('the core declares at most 50 keys, among them what a user sets', () => {
  const core = ownedKeys().filter((k) => k.section === 'core');
  assert.ok(core.length <= 50, `${core.length} core keys`);
  const paths = new Set(core.map((k) => k.path));
  for (const key of [
    'seed',
    'policy_lm',
    'lm_lr',
    'batch_size',
    'rollout_size',
    'iterations',
    'horizon_schedule',
    'eval_horizon',
    'tasks.train',
    'env.suite',
    'workers.env',
    'model.checkpoint',
    'chat.base_url',
    'learner.kind',
    'learner.command',
  ])
    assert.ok(paths.has(key), `${key} is core`);
});

test('every key of the resolved config belongs to exactly one section, and every section key is in it', () => {
  const owned = ownedKeys();
  const byPath = new Map<string, string[]>();
  for (const k of owned) byPath.set(k.path, [...(byPath.get(k.path) ?? []), k.section]);
  for (const [key, sections] of byPath) assert.equal(sections.length, 1, `${key} is declared by ${sections}`);
  const resolved = leaves(loadConfig(null) as unknown as Record<string, unknown>);
  assert.deepEqual([...resolved].sort(), [...byPath.keys()].sort());
  assert.ok(resolved.length > 100, 'the whole config, not a part of it');
});

test("each section names a part of src/ that exists, and a key's owner is not the core's unless it is core", () => {
  const names = new Set<string>();
  for (const section of SECTIONS) {
    assert.ok(!names.has(section.name), `section ${section.name} is registered once`);
    names.add(section.name);
    assert.ok(existsSync(path.join(projectRoot, section.owner)), `${section.name}: ${section.owner}`);
    assert.ok(section.about.length > 0);
  }
  for (const name of ['branch-search', 'stop-probes', 'test-time-search', 'filtered-bc', 'awr'])
    assert.ok(names.has(name), `${name} registers its own section`);
});

test("a section's checks across keys still name the key and say how to fix it", () => {
  assert.throws(
    () => loadConfig(null, ['learner.algorithm=awr', 'policy_lm=gemma']),
    /key 'learner.algorithm'.*set policy_lm tfjs/s,
  );
  assert.throws(
    () => loadConfig(null, ['remote.env=2']),
    /key 'remote.env'.*2 remote env workers need the run to listen/s,
  );
  assert.throws(() => loadConfig(null, ['env.suite=miniwob']), /key 'env.miniwob.dir'/);
  assert.throws(
    () =>
      loadConfig(null, ['env.suite=miniwob', 'env.miniwob.dir=/tmp', 'env.miniwob.url=http://localhost/']),
    /key 'env.miniwob.url'.*set only one/s,
  );
});
