// The chat client and the judges against a FAKE OpenAI-compatible server: 429s, 5xx and timeouts
// are retried, a 4xx is not, giving up names the cause; judges read their verdicts and leave a
// reply that fits none unscored.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { llmFuzzyMatch } from '../../src/envs/evaluators/judge.js';
import { chatJudges, evaluateTask, type Task, webVoyagerVerdict } from '../../src/envs/index.js';
import { ChatClient, ChatRequestError } from '../../src/model/chat/index.js';
import { FakeOpenAiServer, imagesOf, textOf } from '../helpers/fake-openai-server.js';

const client = (fake: FakeOpenAiServer, extra: Partial<ConstructorParameters<typeof ChatClient>[0]> = {}) =>
  new ChatClient({
    baseUrl: fake.baseUrl,
    apiKey: 'sk-test',
    // Only the scripted hang should time out: a loaded machine can hold a plain reply for a second.
    timeoutMs: 3000,
    maxRetries: 3,
    backoffInitialMs: 10,
    backoffMaxMs: 50,
    ...extra,
  });
const sampling = { model: 'fake-model', temperature: 1, max_tokens: 64 };

test('a completion survives a 429, a 503 and a timeout, and counts its tokens', async (t) => {
  const fake = await FakeOpenAiServer.start([
    { kind: 'status', status: 429 },
    { kind: 'status', status: 503 },
    { kind: 'hang' },
    { kind: 'text', text: 'Thought: ok\nAction: Wait', promptTokens: 7, completionTokens: 3 },
  ]);
  t.after(() => fake.close());
  const retries: string[] = [];
  const c = client(fake, { onRetry: (why) => retries.push(why) });
  const done = await c.complete([{ role: 'user', content: 'hi' }], sampling);
  assert.equal(done.text, 'Thought: ok\nAction: Wait');
  assert.deepEqual(done.usage, { promptTokens: 7, completionTokens: 3 });
  assert.equal(done.attempts, 4);
  assert.equal(retries.length, 3);
  assert.match(retries[2]!, /no answer within 3000 ms/);
  assert.equal(fake.requests[0]!.authorization, 'Bearer sk-test');
  assert.equal(fake.requests[0]!.body.model, 'fake-model');
});

test('a 400 is not retried, and giving up after the retries names the last cause', async (t) => {
  const fake = await FakeOpenAiServer.start(
    [{ kind: 'status', status: 400, body: '{"error":"bad model"}' }],
    () => ({
      kind: 'status',
      status: 500,
    }),
  );
  t.after(() => fake.close());
  await assert.rejects(client(fake).complete([{ role: 'user', content: 'x' }], sampling), (e: Error) => {
    assert.ok(e instanceof ChatRequestError);
    assert.match(e.message, /HTTP 400.*bad model/);
    return true;
  });
  assert.equal(fake.completions.length, 1);
  await assert.rejects(
    client(fake, { maxRetries: 2 }).complete([{ role: 'user', content: 'x' }], sampling),
    /failed after 3 attempts: HTTP 500/,
  );
});

const voyagerTask: Task = {
  kind: 'webvoyager',
  id: 'Allrecipes--1',
  intent: 'Find a vegetarian lasagna recipe with more than 100 reviews.',
  sites: ['Allrecipes'],
  startUrls: ['https://www.allrecipes.com/'],
  requireLogin: false,
  storageState: null,
  eval: null,
  intentTemplateId: null,
  source: { file: 'x.jsonl', entry: 1, format: 'webvoyager' },
};
const shots = [Buffer.from('one'), Buffer.from('two'), Buffer.from('three'), Buffer.from('four')];

test('the WebVoyager judge reads SUCCESS / NOT SUCCESS, sees the last 3 screenshots, and leaves other replies unscored', async (t) => {
  const fake = await FakeOpenAiServer.start([
    { kind: 'text', text: 'The recipe has 240 reviews and is vegetarian.\nSUCCESS' },
    { kind: 'text', text: 'The page shows a meat lasagna.\nNOT SUCCESS' },
    { kind: 'text', text: 'I am not sure what to say.' },
  ]);
  t.after(() => fake.close());
  const { answerJudge } = chatJudges({
    client: client(fake),
    model: 'judge-model',
    maxTokens: 64,
    prompt: 'webvoyager_judge',
  });
  const judged = [];
  for (let i = 0; i < 3; i++)
    judged.push(
      await evaluateTask({
        task: voyagerTask,
        answer: 'Vegetarian lasagna, 240 reviews',
        page: null,
        answerJudge,
        endedWithAnswer: true,
        finalObservation: {
          url: 'https://www.allrecipes.com/recipe/1',
          text: "[1] heading 'Lasagna'",
          screenshots: shots,
        },
      }),
    );
  assert.deepEqual(
    judged.map((v) => [v.status, v.score]),
    [
      ['scored', 1],
      ['scored', 0],
      ['unscored', 0],
    ],
  );
  const request = fake.completions[0]!;
  assert.equal(request.body.model, 'judge-model');
  assert.equal(request.body.temperature, 0);
  const user = textOf(request.body.messages![1]!.content);
  assert.match(user, /vegetarian lasagna recipe/);
  assert.match(user, /The agent's answer: Vegetarian lasagna, 240 reviews/);
  assert.match(user, /Last URL: https:\/\/www.allrecipes.com\/recipe\/1/);
  assert.match(user, /Your verdict:$/);
  const images = imagesOf(request);
  assert.deepEqual(
    images.map((u) => Buffer.from(u.replace('data:image/jpeg;base64,', ''), 'base64').toString()),
    ['two', 'three', 'four'],
  );
  // TTI judges only episodes that end in ANSWER.
  const cut = await evaluateTask({
    task: voyagerTask,
    answer: 'N/A',
    page: null,
    answerJudge,
    endedWithAnswer: false,
  });
  assert.deepEqual([cut.status, cut.score], ['scored', 0]);
  assert.equal(fake.completions.length, 3);
  assert.equal(webVoyagerVerdict('not success'), 0);
});

test("WebArena's fuzzy_match through a chat judge: correct, incorrect, and an unfit reply left unscored", async (t) => {
  const fake = await FakeOpenAiServer.start([
    { kind: 'text', text: 'Correct.' },
    { kind: 'text', text: 'partially correct' },
    { kind: 'text', text: 'No idea.' },
  ]);
  t.after(() => fake.close());
  const { judge } = chatJudges({
    client: client(fake),
    model: 'judge-model',
    maxTokens: 64,
    prompt: 'webvoyager_judge',
  });
  assert.equal((await llmFuzzyMatch(judge, 'q', 'ref', 'pred')).score, 1);
  assert.equal((await llmFuzzyMatch(judge, 'q', 'ref', 'pred')).score, 0);
  await assert.rejects(llmFuzzyMatch(judge, 'q', 'ref', 'pred'), { name: 'Unscorable' });
  assert.match(textOf(fake.completions[0]!.body.messages![1]!.content), /reference answer: ref/);
});
