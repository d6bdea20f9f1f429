// WebArena-Verified's tasks run on one WebArena for every worker: a `mutate` task leaves its sites
// changed, so it holds them alone and they are reset after it (site-order.ts, site-reset.ts); a
// retrieve or navigate task shares them.
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { loadConfig } from '../../src/config/index.js';
import { siteClaimOf } from '../../src/envs/index.js';
import { loadSuite, verified } from '../../src/suites/index.js';
import { projectRoot } from '../../src/util/paths.js';

const FILE = path.resolve(projectRoot, '..', 'shared', 'data', 'webarena-verified', 'webarena-verified.json');

test('the 374 mutate tasks claim their sites as changed, the others as shared', async () => {
  const config = loadConfig(null, [
    'env.suite=webarena-verified',
    `tasks.train=${FILE}`,
    `tasks.test=${FILE}`,
    'webarena_host=127.0.0.1',
  ]);
  const suite = await loadSuite(config);
  const log = { info: () => undefined, warn: () => undefined };
  const { test: refs, claims } = await suite.tasks({ config, log }, () => true);
  assert.equal(refs.length, 812);
  assert.ok(claims !== undefined);
  const all = [...claims.values()];
  assert.equal(all.length, 812);
  assert.equal(all.filter((c) => c.changes).length, 374);
  assert.ok(all.every((c) => c.sites.length > 0));
  // the env worker's reset reads the same from the task it runs
  const tasks = verified
    .readVerifiedTasks(FILE)
    .tasks.map((t, entry) => verified.verifiedTask(t, FILE, entry, new Map()));
  assert.equal(tasks.filter((t) => siteClaimOf(t).changes).length, 374);
});
