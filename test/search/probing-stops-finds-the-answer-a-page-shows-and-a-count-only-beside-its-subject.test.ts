// Probing stops (collect.stop_probes, src/search/stop-probes.ts) on MiniArena in real Chromium:
// where a task's verdict reads only the answer and the URL, every answer a page offers is scored
// without stopping, and the shortest success ends the episode as a real, scored stop. A small
// number is probed only beside what the task names and where its text says what the task counts
// (most pages show the count asked for somewhere), a verdict that reads the
// URL alone or the sites' state (program_html, scored in a second tab) is probed once, and
// program_html of the episode's last page is not probed at all.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { type ArenaSlot, closeSlots, openSlots, readSplit } from '../../src/arena/oracle/index.js';
import {
  type Observation,
  observationColumns,
  smallCount,
  type Task,
  VIEWPORT,
} from '../../src/envs/index.js';
import { candidatesWithEvidence, countedWords } from '../../src/model/index.js';
import { probeStops, type StopProbeCounts } from '../../src/search/index.js';
import { miniwobEnv } from '../miniwob/helpers.js';

let slot: ArenaSlot;
const raw = readSplit('train');

before(async () => {
  // replies as a collection run's env reads them (env.action_format tti)
  [slot] = (await openSlots(1, { split: 'train', env: { actionFormat: 'tti' } })) as [ArenaSlot];
});
after(async () => {
  if (slot) await closeSlots([slot]);
});

/** The first train task of a template, and the host URL of a placeholder URL. */
function taskOf(template: string): { task: Task; evidence: string } {
  const t = raw.find((r) => r.miniarena.template === template)!;
  const resolve = (u: string) =>
    u.replace(/__(SHOPPING|REDDIT|GITLAB)__/, (m) => slot.host.placeholders[m as '__SHOPPING__']);
  return { task: slot.tasks.get(String(t.task_id))!, evidence: resolve(t.miniarena.evidence_urls[0] ?? '') };
}

function candidatesOn(task: Task, observation: Observation) {
  return candidatesWithEvidence({
    intent: task.intent,
    url: observation.url,
    nodes: observationColumns(observation.nodes, VIEWPORT),
    history: [],
    step: 0,
    horizon: 10,
    note: null,
  });
}

const counts = (): StopProbeCounts => ({ probes: 0, lucky: 0, guessable: 0, unevidenced: 0 });

/** A task started afresh, and the answers of its start page probed. */
async function probedAtStart(task: Task) {
  await slot.host.reset();
  const page = candidatesOn(task, await slot.env.reset(task, { horizon: 10 }));
  const here = counts();
  return { task, page, here, probed: await probeStops(slot.env, page, here) };
}

test('the price a product page shows is found by probing, and stopping with it succeeds', async () => {
  const { task, evidence } = taskOf('shop_price'); // must_include ["33.99"]
  await slot.host.reset();
  const home = await slot.env.reset(task, { horizon: 10 });
  assert.equal(slot.env.stopProbe, 'answer');
  const atHome = counts();
  const { found: fromHome } = await probeStops(slot.env, candidatesOn(task, home), atHome);
  assert.ok(atHome.probes > 5, `every answer of the home page scored (${atHome.probes})`);
  assert.ok(fromHome === null || fromHome.text.includes('33.99'), `a wrong answer found: ${fromHome?.text}`);

  const { observation } = await slot.env.step({ type: 'goto', url: evidence });
  const page = candidatesOn(task, observation!);
  const here = counts();
  const { found, failed } = await probeStops(slot.env, page, here);
  assert.equal(here.probes + here.guessable, page.filter((c) => c.kind === 'answer').length);
  assert.ok(failed.size > 5, 'the answers that fail are named');
  assert.ok(
    [...failed].every((a) => !a.includes('33.99')),
    'no answer holding the price is called a failure',
  );
  assert.ok(found, 'the product page shows the price');
  assert.equal(found.text, '$33.99', 'the shortest answer that passes');

  // probing left the episode running; the stop it found is then taken and scored as usual
  const { done, record } = await slot.env.step(`Thought: probed.\nAction: ${found.action}`);
  assert.ok(done);
  assert.equal(record?.verdict.success, true, record?.verdict.why);
  assert.equal(record?.answer, '$33.99');
});

test('a count under 100 is probed only in the row the task names, read from a text that names what it counts', async () => {
  assert.ok(smallCount('(3)') && smallCount('3') && smallCount('5 comments') && smallCount('page 1'));
  assert.ok(smallCount('5 out of 5 stars') && !smallCount('$3.99') && !smallCount('3 of 120'));
  assert.ok(!smallCount('WittyRaven4'), "a name's digits are no count");
  assert.deepEqual(
    [...countedWords('How many customer reviews does Alderon Travel Kite have?')],
    ['customer', 'review'],
  );
  assert.deepEqual([...countedWords('What is the number of comments on "X"?')], ['comment']);
  assert.equal(countedWords('What is the price of X?').size, 0);

  // "How many comments are there on the post …?" starts on the post's forum, whose rows show every
  // post's "N comments": the count beside the task's title is found, another post's is not
  let found = 0;
  let elsewhere = 0;
  for (const r of raw.filter((t) => t.miniarena.template === 'forum_post_comment_count').slice(0, 10)) {
    const n = r.eval.reference_answers!.must_include![0]!;
    const { task, page, here, probed } = await probedAtStart(slot.tasks.get(String(r.task_id))!);
    if (probed.found) {
      found++;
      assert.equal(probed.found.text, n, task.intent);
      assert.equal(probed.found.evidence, 'row');
    } else if (page.some((c) => c.kind === 'answer' && c.text === n)) elsewhere++;
    assert.ok(here.guessable > 0, "other posts' counts and the page's numbers are left unscored");
    await slot.env.abandon();
  }
  assert.ok(found >= 3, `posts on their forum's first page are answered there (${found} of 10)`);
  assert.ok(elsewhere > 0, 'some forum page shows the count asked for only in other posts');

  // "How many issues in pixelforge/auth-service … assigned to …?" starts on the project page, whose
  // "Milestones (3)" stands in a block under the project's name: it names no issue
  for (const r of raw
    .filter((t) => t.miniarena.template === 'tracker_count_assignee_milestone')
    .slice(0, 4)) {
    const { task, probed } = await probedAtStart(slot.tasks.get(String(r.task_id))!);
    assert.equal(probed.found, null, `${task.intent}: ${probed.found?.text}`);
    await slot.env.abandon();
  }
});

test("an author in another post's row is a coincidence; beside the post, an answer", async () => {
  // forum list pages name each post's author: the author asked about often wrote another post there
  let coincidences = 0;
  let answers = 0;
  for (const r of raw.filter((t) => t.miniarena.template === 'forum_post_author').slice(0, 8)) {
    const author = r.eval.reference_answers!.must_include![0]!;
    const { task, here, probed: atStart } = await probedAtStart(slot.tasks.get(String(r.task_id))!);
    if (atStart.found === null && here.unevidenced > 0) coincidences++;
    const post = r.miniarena.evidence_urls[0]!.replace('__REDDIT__', slot.host.placeholders.__REDDIT__);
    const { observation } = await slot.env.step({ type: 'goto', url: post });
    const { found } = await probeStops(slot.env, candidatesOn(task, observation!), counts());
    if (found) {
      answers++;
      assert.notEqual(found.evidence, null);
      assert.equal(found.text.toLowerCase(), author.toLowerCase());
    }
    await slot.env.abandon();
  }
  assert.ok(coincidences > 0, 'some start page names the author only in another post');
  // (one post's title, measured once, is not quoted whole by its task's words)
  assert.ok(answers >= 6, `a post's own page answers (${answers} of 8)`);
});

test('a verdict on the URL alone is probed once, and passes only at the page it names', async () => {
  const { task } = taskOf('shop_category_sorted');
  const reference = task.eval!.reference_url!;
  const { page: home, here: atHome, probed: fromHome } = await probedAtStart(task);
  assert.equal(slot.env.stopProbe, 'url');
  assert.equal(fromHome.found, null);
  assert.equal(atHome.probes, 1);
  const answers = new Set(home.flatMap((c) => (c.kind === 'answer' ? [c.text] : [])));
  assert.equal(fromHome.failed.size, answers.size, 'where Done fails, every answer fails');
  const { observation } = await slot.env.step({ type: 'goto', url: reference });
  const { found } = await probeStops(slot.env, candidatesOn(task, observation!), counts());
  assert.equal(found?.source, 'done');
  const { record } = await slot.env.step(`Thought: probed.\nAction: ${found!.action}`);
  assert.equal(record?.verdict.success, true, record?.verdict.why);
});

test("a task scored by program_html is not probed, on the pages it names or the last one: it reads the sites' state", async () => {
  const { task } = taskOf('tracker_close_issue'); // program_html: the page reads "Closed"
  const onLastPage: Task = {
    ...task,
    eval: { ...task.eval!, program_html: [{ ...task.eval!.program_html![0]!, url: 'last' }] },
  };
  for (const t of [task, onLastPage]) {
    await slot.host.reset();
    const home = await slot.env.reset(t, { horizon: 10 });
    assert.equal(slot.env.stopProbe, null);
    const here = counts();
    const probed = await probeStops(slot.env, candidatesOn(t, home), here);
    assert.equal(probed.found, null);
    assert.equal(probed.failed.size, 0);
    assert.equal(here.probes, 0);
    assert.equal(await slot.env.probeStop('anything'), null);
    await slot.env.abandon();
  }
});

test('a page that scores its own episode (MiniWoB++) is not probed', async () => {
  const { env, server, task } = await miniwobEnv();
  try {
    await env.reset(task('click-named-button@1'), { horizon: 5 });
    assert.equal(env.stopProbe, null);
    assert.equal(await env.probeStop('Done'), null);
  } finally {
    await env.close();
    await server.close();
  }
});
