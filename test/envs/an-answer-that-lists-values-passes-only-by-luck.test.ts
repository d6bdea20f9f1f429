// must_include accepts any answer that contains the references, so an answer listing many values
// passes whenever one is right. Such a pass keeps WebArena's score and is no success in tti:
// not counted, not kept for training, and the verdict says why. A person's answer is never luck.
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { evaluateTask, loadTaskFile, luckyPass, luckySubstring, stringMatch } from '../../src/envs/index.js';
import { summarizeEpisodes } from '../../src/loop/eval-summary.js';
import type { EpisodeResultMessage } from '../../src/protocol/index.js';
import { projectRoot } from '../../src/util/paths.js';

const webarena = loadTaskFile(path.resolve(projectRoot, '../shared/data/webarena/test.raw.json'));

test('a whole column, a whole line of numbers or a longer list passes only by luck', () => {
  assert.match(luckySubstring(['$12.99'], '$3.99, $12.99, $96.99') ?? '', /2 other numbers/);
  assert.match(luckySubstring(['2'], 'Rating: 4.5 out of 5 (2 reviews)') ?? '', /other numbers.*4\.5, 5/);
  assert.match(
    luckySubstring(['Emma Lopes'], 'Emma Lopes, Chloe Kim, Aisha Tanaka') ?? '',
    /a list of 3 items of which 2 are no reference/,
  );
  assert.match(luckySubstring(['3.99'], '$23.99') ?? '', /only part of another number \(\$23\.99\)/);
  assert.match(luckySubstring(['7'], '17') ?? '', /only part of another number/);
});

test('an answer, however worded, is not luck', () => {
  assert.equal(luckySubstring(['2'], 'There are 2 reviews'), undefined);
  assert.equal(luckySubstring(['Emma Lopes'], 'The author is Emma Lopes, who posted it in 2022'), undefined);
  assert.equal(luckySubstring(['$3.99', '$96.99'], '$96.99, $3.99'), undefined, 'every item is a reference');
  assert.equal(luckySubstring(['Jan 3, 2023'], 'Jan 3, 2023'), undefined, 'a reference with a comma');
  assert.equal(luckySubstring(['170'], '000000170'), undefined, 'a zero-padded number is one number');
  assert.equal(
    luckySubstring(['Emma Lopes'], 'Emma Lopes, Chloe Kim'),
    undefined,
    'one extra item: no more than the references',
  );
});

test("WebArena's own annotated answers that pass must_include are never called luck", async () => {
  let passed = 0;
  for (const t of webarena) {
    const refs = t.eval?.reference_answers;
    const raw = t.eval?.reference_answer_raw_annotation;
    if (!refs?.must_include || refs.exact_match !== undefined || refs.fuzzy_match !== undefined || !raw)
      continue;
    if ((await stringMatch(t.eval!, t.intent, raw, undefined)).score !== 1) continue;
    passed++;
    assert.equal(luckyPass(refs, raw), undefined, `task ${t.id}: ${JSON.stringify(raw)}`);
  }
  assert.ok(passed >= 100, `${passed} annotated answers checked`);
});

test('the verdict keeps score 1, is no success, and says why', async () => {
  const task = webarena.find((t) => t.id === '14')!; // must_include ["0"]
  const lucky = await evaluateTask({ task, answer: '0 of 10 reviews, 5 stars', page: null });
  assert.equal(lucky.score, 1);
  assert.equal(lucky.success, false);
  assert.equal(lucky.status, 'scored');
  assert.match(lucky.lucky ?? '', /other numbers/);
  assert.match(lucky.why, /a lucky substring/);
  const honest = await evaluateTask({ task, answer: 'There are 0 reviews that mention it.', page: null });
  assert.equal(honest.success, true);
  assert.equal(honest.lucky, undefined);
});

test('an eval summary counts lucky passes apart, by template, and not as successes', () => {
  const result = (taskId: string, reward: number, lucky?: string): EpisodeResultMessage => ({
    type: 'episode_result',
    workerId: 'env-0',
    requestId: 1,
    episodeId: `e${taskId}`,
    taskFile: 'tasks.json',
    taskId,
    split: 'test',
    iteration: 0,
    reward,
    steps: 3,
    answer: 'x',
    ...(lucky ? { lucky } : {}),
    endReason: 'answer',
    kept: false,
    policyVersions: [0],
    durationMs: 1,
  });
  const labels = new Map([
    ['tasks.json#1', { template: 'price', tier: 1 }],
    ['tasks.json#2', { template: 'price', tier: 1 }],
    ['tasks.json#3', { template: 'count', tier: 2 }],
  ]);
  const s = summarizeEpisodes([result('1', 1), result('2', 0, 'a list'), result('3', 0)], labels);
  assert.equal(s.successes, 1);
  assert.equal(s.lucky, 1);
  assert.deepEqual(s.luckyByTemplate, { price: 1 });
});
