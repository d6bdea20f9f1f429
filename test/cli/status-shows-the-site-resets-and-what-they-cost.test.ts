// `tti-run status` and the live view sum the env workers' env-ctrl resets (src/actors/roles/site-reset.ts):
// how many, their time in all and each, and the failed ones; a run that reset nothing has no line.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { renderStatusTable } from '../../src/cli/console-view.js';
import { envWorker as env, statusSnapshot as snapshot } from '../helpers/status-snapshot.js';

test('status shows the site resets, their cost and the failed ones, summed over env workers', () => {
  const text = renderStatusTable(
    snapshot([
      env('env-0', { resets: 2, resetMs: 300000 }),
      env('env-1', { resets: 1, resetMs: 150000, resetFailures: 1 }),
      env('env-2', { episodes: 4 }),
    ]),
    { iterations: 10 },
  );
  const line = text.split('\n').find((l) => l.startsWith('resets'));
  assert.ok(line, text);
  assert.match(line, /^resets {4}3 site resets, 450\.0 s in all \(150000 ms each\) {3}1 failed$/);
  const none = renderStatusTable(snapshot([env('env-0', { episodes: 4 })]), { iterations: 10 });
  assert.ok(!none.split('\n').some((l) => l.startsWith('resets')), none);
});
