// The oracle's demos as BC trains on them: an answer the page does not show verbatim is retargeted
// to the shortest candidate that passes the task's own string_match (MiniArena's real evaluator,
// the real candidates of a recorded page); what stays outside the candidates is counted, not fatal.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { answerCheck, type OracleDemo, readSplit, ttiActionOf } from '../../src/arena/index.js';
import { alignAnswers, DONE_ANSWER } from '../../src/model/index.js';
import { projectRoot } from '../../src/util/paths.js';

const demos = readFileSync(path.join(projectRoot, 'test/fixtures/pretrain/oracle-demos.jsonl'), 'utf8')
  .split('\n')
  .filter((l) => l.trim())
  .map((l) => JSON.parse(l) as OracleDemo);
const priceDemo = demos.find((d) => d.template === 'shop_price')!;
const priceTask = readSplit('train').find((t) => t.task_id === priceDemo.taskId)!;

/** The price demo with its final answer worded as no candidate is. */
function reworded(answer: string): OracleDemo {
  const steps = priceDemo.steps.map((s, k) =>
    k === priceDemo.steps.length - 1 ? { ...s, reply: `Action: ANSWER [${answer}]` } : s,
  );
  return { ...priceDemo, steps };
}

test('the recorded oracle demos are covered as they are: nothing aligned, nothing missed', async () => {
  for (const d of demos) {
    const task = readSplit('train').find((t) => t.task_id === d.taskId)!;
    const a = await alignAnswers(d, answerCheck(task) ?? undefined);
    assert.equal(a.uncovered, 0, `${d.template}: ${a.misses.join(', ')}`);
    assert.equal(a.aligned, 0);
    assert.deepEqual(a.trajectory.steps, d.steps);
  }
});

test('an answer no candidate words is retargeted to the shortest candidate the evaluator passes', async () => {
  const check = answerCheck(priceTask)!;
  assert.equal(await check('$33.99'), true, "the task's reference");
  assert.equal(await check('$34.99'), false);
  const a = await alignAnswers(reworded('It costs $33.99 today'), check);
  assert.equal(a.aligned, 1);
  assert.equal(a.uncovered, 0);
  const last = a.trajectory.steps.at(-1)!.reply;
  assert.match(last, /^Action: ANSWER \[.*33\.99.*\]$/);
  assert.ok(await check(last.slice('Action: ANSWER ['.length, -1)), `${last} passes`);
  // the earlier step is untouched
  assert.deepEqual(a.trajectory.steps[0], priceDemo.steps[0]);
});

test('without an evaluator, or when no candidate passes, the step is counted as uncovered', async () => {
  const unchecked = await alignAnswers(reworded('It costs $33.99 today'));
  assert.equal(unchecked.aligned, 0);
  assert.equal(unchecked.uncovered, 1);
  assert.deepEqual(unchecked.misses, ['ANSWER [It costs $33.99 today]']);
  const wrong = await alignAnswers(reworded('It costs $33.99 today'), () => false);
  assert.equal(wrong.aligned, 0);
  assert.equal(wrong.uncovered, 1);
});

test('a navigation task has no string_match to align with', () => {
  const nav = readSplit('train').find((t) => !t.eval.eval_types.includes('string_match'))!;
  assert.equal(answerCheck(nav), null);
});

test("the oracle's env actions read as the TTI actions a policy replies", () => {
  assert.equal(ttiActionOf({ type: 'click', elementId: '12' }, DONE_ANSWER), 'Click [12]');
  assert.equal(
    ttiActionOf(
      { type: 'type', elementId: '6', text: 'red  [mug]\n', pressEnter: true, clearFirst: true },
      DONE_ANSWER,
    ),
    'Type [6] [red mug]',
  );
  assert.equal(ttiActionOf({ type: 'stop', answer: '' }, DONE_ANSWER), 'ANSWER [Done]');
  assert.equal(ttiActionOf({ type: 'stop', answer: '$3.99' }, DONE_ANSWER), 'ANSWER [$3.99]');
  assert.equal(
    ttiActionOf({ type: 'scroll', direction: 'down', by: 'two-thirds' }, DONE_ANSWER),
    'Scroll [down]',
  );
  assert.equal(ttiActionOf({ type: 'go_back' }, DONE_ANSWER), 'GoBack');
});
