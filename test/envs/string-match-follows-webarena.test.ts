import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { cleanAnswer, mustInclude } from '../../src/envs/evaluators/string-match.js';
import { wordTokenize } from '../../src/envs/evaluators/tokenize.js';
import { type ChatMessage, evaluateTask, type Judge, loadTaskFile, type Task } from '../../src/envs/index.js';
import { projectRoot } from '../../src/util/paths.js';

const tasks = loadTaskFile(path.resolve(projectRoot, '../shared/data/webarena/test.raw.json'));
const byId = (id: number): Task => tasks.find((t) => t.id === String(id))!;

/** A fake judge: replies from a script and remembers what it was asked. */
function fakeJudge(reply: (user: string) => string): Judge & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    async complete(messages: ChatMessage[]) {
      const user = messages.find((m) => m.role === 'user')!.content;
      asked.push(user);
      return reply(user);
    },
  };
}

const score = (task: Task, answer: string, judge?: Judge) =>
  evaluateTask({ task, answer, page: null, judge });

test('clean strips whitespace, one pair of outer quotes, and case', () => {
  assert.equal(cleanAnswer('  "Hello World" '), 'hello world');
  assert.equal(cleanAnswer("'it'"), 'it');
  assert.equal(cleanAnswer('"mixed\''), '"mixed\'');
});

test('word tokenizer splits single characters the way NLTK does', () => {
  assert.deepEqual(wordTokenize('there are 0 reviews.'), ['there', 'are', '0', 'reviews', '.']);
  assert.deepEqual(wordTokenize('it costs $5, not 10%'), ['it', 'costs', '$', '5', ',', 'not', '10', '%']);
  assert.deepEqual(wordTokenize('(2) items: a, b'), ['(', '2', ')', 'items', ':', 'a', ',', 'b']);
  assert.deepEqual(wordTokenize("don't 5-star 3.5"), ['do', "n't", '5-star', '3.5']);
  assert.deepEqual(wordTokenize('I have 2. Then 3!'), ['I', 'have', '2', '.', 'Then', '3', '!']);
  assert.deepEqual(wordTokenize('"6"'), ['``', '6', "''"]);
});

test('a one-item single-character must_include is matched as a token, not a substring', () => {
  assert.equal(mustInclude('0', 'there are 10 reviews', true), 0);
  assert.equal(mustInclude('0', 'there are 0 reviews', true), 1);
  assert.equal(mustInclude('0', 'there are 10 reviews', false), 1);
});

test('real task 14 (must_include ["0"]) accepts "0" and rejects "10"', async () => {
  const t = byId(14);
  const good = await score(t, 'There are 0 reviews that mention it.');
  assert.equal(good.score, 1);
  assert.equal(good.status, 'scored');
  const bad = await score(t, 'There are 10 reviews.');
  assert.equal(bad.score, 0);
  assert.match(bad.why, /must_include "0" as a token: missing/);
});

test('real task 0 (exact_match) compares cleaned strings', async () => {
  const t = byId(0);
  assert.equal((await score(t, '"quest lumaflex™ band"')).score, 1);
  assert.equal((await score(t, 'Quest Lumaflex™ Band, the best')).score, 0);
});

test('N/A: an exact "n/a" scores 1 without asking the judge', async () => {
  const judge = fakeJudge(() => 'different');
  const v = await score(byId(22), 'N/A', judge);
  assert.equal(v.score, 1);
  assert.equal(judge.asked.length, 0);
});

test('N/A: another answer is replaced by the fake judge ua_match verdict on the string_note', async () => {
  const same = fakeJudge(() => 'Same');
  const v = await score(byId(22), 'No review mentions under water photos', same);
  assert.equal(v.score, 1);
  assert.match(same.asked[0]!, /actual unachievable reason: There is no review about under water photo/);
  assert.match(same.asked[0]!, /reported unachievable reason: no review mentions under water photos/);
  const different = fakeJudge(() => 'different');
  assert.equal((await score(byId(22), 'Alice and Bob', different)).score, 0);
});

test('fuzzy_match with a fake judge: "partially correct" and "incorrect" fail, "correct" passes', async () => {
  const t = tasks.find(
    (x) => Array.isArray(x.eval?.reference_answers?.fuzzy_match) && !x.eval?.reference_answers?.must_include,
  )!;
  assert.equal(
    (
      await score(
        t,
        'x',
        fakeJudge(() => 'Correct.'),
      )
    ).score,
    1,
  );
  assert.equal(
    (
      await score(
        t,
        'x',
        fakeJudge(() => 'It is partially correct'),
      )
    ).score,
    0,
  );
  assert.equal(
    (
      await score(
        t,
        'x',
        fakeJudge(() => 'incorrect'),
      )
    ).score,
    0,
  );
  const odd = await score(
    t,
    'x',
    fakeJudge(() => 'I cannot tell'),
  );
  assert.equal(odd.status, 'unscored', 'a reply that fits no verdict is not guessed at');
  assert.equal(odd.score, 0);
  assert.match(odd.why, /neither correct nor incorrect/);
});

test('without a judge, fuzzy_match and N/A tasks are unscored with the reason, never 0 or 1 silently', async () => {
  const fuzzy = await score(byId(22), 'something else');
  assert.equal(fuzzy.status, 'unscored');
  assert.equal(fuzzy.success, false);
  assert.match(fuzzy.why, /needs a chat-model judge/);
  // task 34: must_include then fuzzy_match; the fuzzy half needs the judge
  const mixed = await score(byId(34), 'Hyatt Regency Pittsburgh International Airport, 3h 30min');
  assert.equal(mixed.status, 'unscored');
});

test('must_include with several items needs every one, as substrings', async () => {
  const t = tasks.find(
    (x) =>
      (x.eval?.reference_answers?.must_include?.length ?? 0) >= 3 && !x.eval?.reference_answers?.fuzzy_match,
  )!;
  const items = t.eval!.reference_answers!.must_include!;
  assert.equal((await score(t, items.join(' and '))).score, 1);
  assert.equal((await score(t, items.slice(1).join(' and '))).score, 0);
});
