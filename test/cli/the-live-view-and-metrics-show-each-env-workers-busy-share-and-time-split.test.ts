// Where the env workers' time goes, as people read it: the live view (and `tti-run status`, the same
// table) gives each env worker a time line, its busy share and each part's share, from the
// `time.*` counters its episodes added (never shown by their names); a metrics row's `time` sums
// an iteration's episodes into shares, ms a step and each worker's utilization.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { renderRun } from '../../src/cli/console-view.js';
import { episodeTime } from '../../src/loop/metrics-row.js';
import { countTiming, type EpisodeTiming } from '../../src/protocol/index.js';
import { envWorker, statusSnapshot } from '../helpers/status-snapshot.js';

const timing: EpisodeTiming = {
  taskWaitMs: 100,
  startMs: 300,
  observeMs: 200,
  policyMs: 150,
  executeMs: 200,
  scoreMs: 40,
  otherMs: 10,
};

test('each env worker shows its busy share and the parts of its time, not its raw counters', () => {
  const counters: Record<string, number> = { steps: 3 };
  countTiming(counters, timing);
  const snapshot = statusSnapshot([envWorker('env-0', counters)]);
  const text = renderRun(snapshot, [], { iterations: 10, previous: null });
  assert.match(
    text,
    /time {6}env-0: busy 90% \(start 30%, observe 20%, policy 15%, execute 20%, score 4%, other 1%; waiting for a task 10%\)/,
  );
  assert.doesNotMatch(text, /time\.start/, 'the timing counters are not shown by their names');
  assert.match(text, /3 env steps$/m, "the worker's row says what it did, in words");
});

test("a metrics row's time sums the iteration's episodes and each worker's utilization", () => {
  const episode = (workerId: string) => ({
    episodeId: workerId,
    taskFile: 'f',
    taskId: 't',
    reward: 0,
    steps: 3,
    kept: false,
    policyVersions: [1],
    workerId,
    durationMs: 900,
    timing,
  });
  const time = episodeTime([episode('env-0'), episode('env-0'), episode('env-1')], 2000);
  assert.ok(time);
  assert.equal(time.episodes, 3);
  assert.equal(time.shares.start, 0.3);
  assert.equal(time.shares.taskWait, 0.1);
  assert.equal(time.busy, 0.9, 'busy is the share not spent waiting for a task, as status gives it');
  assert.equal(time.totalMs, 3 * 1000, 'the weight rows combine by: every part, the wait included');
  assert.equal(time.perStepMs.start, 100);
  assert.equal(time.perStepMs.taskWait, undefined, 'waiting for a task is not a step cost');
  assert.deepEqual(time.utilization, { 'env-0': 0.9, 'env-1': 0.45 });
  assert.equal(episodeTime([{ ...episode('env-0'), timing: undefined }], 2000), undefined);
});
