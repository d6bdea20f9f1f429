// Probing stops (collect.stop_probes, src/search/stop-probes.ts) on MiniArena in real Chromium:
// where a task's verdict reads only the answer and the URL, every answer a page offers is scored
// without stopping, and the shortest success ends the episode as a real, scored stop. A bare small
// number is never probed (most pages show the count asked for somewhere), a verdict that reads the
// URL alone is probed once, and a task scored by program_html is not probed at all.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { type ArenaSlot, closeSlots, openSlots, readSplit } from '../../src/arena/oracle/index.js';
import {
  guessable,
  type Observation,
  observationColumns,
  smallCount,
  type Task,
  VIEWPORT,
} from '../../src/envs/index.js';
import { candidatesWithEvidence } from '../../src/model/index.js';
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
  assert.equal(here.probes, page.filter((c) => c.kind === 'answer').length);
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

test('a count is left to the policy: a bare small number is never probed', async () => {
  const { task, evidence } = taskOf('shop_review_count'); // must_include ["5"]
  await slot.host.reset();
  await slot.env.reset(task, { horizon: 10 });
  const { observation } = await slot.env.step({ type: 'goto', url: evidence });
  const page = candidatesOn(task, observation!);
  assert.ok(
    page.some((c) => c.kind === 'answer' && c.text === '5'),
    'the page offers the count',
  );
  const here = counts();
  const { found, failed } = await probeStops(slot.env, page, here);
  assert.ok(here.guessable > 0);
  assert.ok(!failed.has('5'), 'a guess left unscored is left to the policy');
  assert.ok(found === null || !/^\d{1,2}$/.test(found.text), `a guess was kept: ${found?.text}`);
  await slot.env.abandon();
});

test("a project's milestone count under the project's heading is no answer to an issue count", async () => {
  // "How many issues in pixelforge/auth-service … are assigned to …?" starts on the project page,
  // whose "Milestones (3)" stands under the project's name: a number in brackets is a bare number
  assert.ok(guessable('(3)') && guessable('3') && !guessable('$3.99') && !guessable('3 comments'));
  assert.ok(smallCount('5 comments') && smallCount('page 1') && !smallCount('$33.99'));
  for (const r of raw
    .filter((t) => t.miniarena.template === 'tracker_count_assignee_milestone')
    .slice(0, 4)) {
    const task = slot.tasks.get(String(r.task_id))!;
    await slot.host.reset();
    const first = await slot.env.reset(task, { horizon: 10 });
    const { found } = await probeStops(slot.env, candidatesOn(task, first), counts());
    assert.equal(found, null, `${task.intent}: ${found?.text}`);
    await slot.env.abandon();
  }
});

test("a comment count in another post's row is a coincidence, the one beside the post an answer", async () => {
  // forum list pages show "N comments" in every post's row: the reference count is often in
  // another post's row, and the post asked about is on the page for some tasks only
  let coincidences = 0;
  let answers = 0;
  for (const r of raw.filter((t) => t.miniarena.template === 'forum_post_comment_count').slice(0, 8)) {
    const task = slot.tasks.get(String(r.task_id))!;
    await slot.host.reset();
    const first = await slot.env.reset(task, { horizon: 10 });
    const page = candidatesOn(task, first);
    const here = counts();
    const { found } = await probeStops(slot.env, page, here);
    if (found === null && here.unevidenced > 0) coincidences++;
    if (found !== null) {
      answers++;
      assert.equal(found.evidence, 'row');
      const title = /"([^"]+)"/.exec(task.intent)?.[1] ?? '';
      assert.ok(first.text.includes(title), `the post "${title}" is on the page`);
    }
    await slot.env.abandon();
  }
  assert.ok(coincidences > 0, 'some start page shows the count only in other rows');
  assert.ok(answers > 0, 'some start page shows the post and its count');
});

test('a verdict on the URL alone is probed once, and passes only at the page it names', async () => {
  const { task } = taskOf('shop_category_sorted');
  const reference = task.eval!.reference_url!;
  await slot.host.reset();
  const home = await slot.env.reset(task, { horizon: 10 });
  assert.equal(slot.env.stopProbe, 'url');
  const atHome = counts();
  const fromHome = await probeStops(slot.env, candidatesOn(task, home), atHome);
  assert.equal(fromHome.found, null);
  assert.equal(atHome.probes, 1);
  const answers = new Set(candidatesOn(task, home).flatMap((c) => (c.kind === 'answer' ? [c.text] : [])));
  assert.equal(fromHome.failed.size, answers.size, 'where Done fails, every answer fails');
  const { observation } = await slot.env.step({ type: 'goto', url: reference });
  const { found } = await probeStops(slot.env, candidatesOn(task, observation!), counts());
  assert.equal(found?.source, 'done');
  const { record } = await slot.env.step(`Thought: probed.\nAction: ${found!.action}`);
  assert.equal(record?.verdict.success, true, record?.verdict.why);
});

test('a task scored by program_html is not probed', async () => {
  const { task } = taskOf('shop_add_to_cart');
  await slot.host.reset();
  const home = await slot.env.reset(task, { horizon: 10 });
  assert.equal(slot.env.stopProbe, null);
  const here = counts();
  const probed = await probeStops(slot.env, candidatesOn(task, home), here);
  assert.equal(probed.found, null);
  assert.equal(probed.failed.size, 0);
  assert.equal(here.probes, 0);
  assert.equal(await slot.env.probeStop('anything'), null);
  await slot.env.abandon();
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
