import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { type MiniArenaTask, writeTaskFiles } from '../../src/arena/index.js';
import { readSplit, selectTasks } from '../../src/arena/oracle/pool.js';
import { readOracleLengths, suiteFingerprint } from '../../src/arena/oracle-lengths.js';

const dir = mkdtempSync(path.join(tmpdir(), 'tti-lengths-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const content = (t: MiniArenaTask) => JSON.stringify([t.miniarena.template, t.intent, t.start_url, t.eval]);

test('tasks generate carries measured lengths over to the tasks a template change left alone', () => {
  const first = writeTaskFiles({ dir });
  assert.ok(first.unmeasured <= 10, `${first.unmeasured} tasks of the committed suite unmeasured`);
  const before = new Map(readSplit('all', dir).map((t) => [content(t), t.miniarena.oracle_steps]));

  // A change to the suite: one more train task of every template. Every id after the first
  // template's moves, and the new instances have never been measured.
  const second = writeTaskFiles({ dir, trainPerTemplate: 23 });
  const after = readSplit('all', dir);
  const fresh = after.filter((t) => !before.has(content(t)));
  assert.ok(fresh.length > 0, 'the change adds tasks');
  assert.equal(second.unmeasured, fresh.length, 'exactly the new tasks are left to measure');
  for (const t of after)
    if (before.has(content(t)))
      assert.equal(t.miniarena.oracle_steps, before.get(content(t)), `task ${t.task_id}`);
  const lengths = readOracleLengths(path.join(dir, 'oracle-lengths.json'));
  assert.equal(lengths?.suite, suiteFingerprint(after), 'the lengths file now belongs to the new suite');

  // `tasks check --unmeasured` runs the oracle on just those
  assert.deepEqual(
    selectTasks(after, { unmeasured: true }).map((t) => t.task_id),
    fresh.map((t) => t.task_id),
  );
  // and generating the same suite again keeps what it has
  assert.equal(writeTaskFiles({ dir, trainPerTemplate: 23 }).unmeasured, fresh.length);
});
