// BrowserGym's mouse_down, mouse_move and mouse_up (TTI form: MouseDown / MouseMove / MouseUp [x]
// [y]), one a step, through the real browser env on MiniWoB++'s real draw-line page: the press is
// held across the steps, the page's d3 drag records the stroke, and a stroke through the dot in the
// asked direction scores above 0, where submitting with none scores below it. The page was the one
// (with draw-circle) whose need no action met.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import {
  type Action,
  type BrowserEnv,
  describeAction,
  parseTtiReply,
  parseWebArenaReply,
} from '../../src/envs/index.js';
import {
  MINIWOB_VIEWPORT,
  type MiniwobServer,
  miniwobHooks,
  miniwobTaskNeeds,
} from '../../src/suites/miniwob/index.js';
import { nodeId, REAL_HTML, realMiniwobEnv } from './helpers.js';

let env: BrowserEnv;
let server: MiniwobServer;
let task: Awaited<ReturnType<typeof realMiniwobEnv>>['task'];

let page: Page | null = null;

before(async () => {
  // the suite's own hooks, with the episode's page kept for the test to read the dot from
  const hooks = miniwobHooks();
  ({ env, server, task } = await realMiniwobEnv({
    hooks: {
      ...hooks,
      start: (context) => {
        page = context.page;
        return hooks.start!(context);
      },
    },
    horizon: 6,
    viewport: MINIWOB_VIEWPORT,
    observation: { flags: true },
    offerStop: false,
  }));
});
after(async () => {
  await env?.close();
  await server?.close();
});

/**
 * The dot's centre, read from the page: the tree shows the drawing as one image (the dot is an SVG
 * circle with no role), so only a screenshot would show it to an agent.
 */
async function dot(): Promise<{ x: number; y: number }> {
  assert.ok(page, 'the episode has a page');
  const box = (await page.evaluate(
    "JSON.parse(JSON.stringify(document.getElementById('circ').getBoundingClientRect()))",
  )) as { x: number; y: number; width: number; height: number };
  return { x: Math.round(box.x + box.width / 2), y: Math.round(box.y + box.height / 2) };
}

async function stroke(points: [number, number][]): Promise<void> {
  const verbs = points.map((_, i) =>
    i === 0 ? 'MouseDown' : i === points.length - 1 ? 'MouseUp' : 'MouseMove',
  );
  for (const [i, [x, y]] of points.entries()) {
    const r = await env.step(`Thought: draw.\nAction: ${verbs[i]} [${x}] [${y}]`);
    assert.equal(r.action.type, `mouse_${verbs[i]!.slice('Mouse'.length).toLowerCase()}`);
    assert.equal(r.done, false, 'a stroke alone does not end the episode');
  }
}

for (const seed of [0, 1, 2]) {
  test(`draw-line@${seed}: a stroke through the dot in the asked direction, then submit, scores above 0`, async () => {
    const obs = await env.reset(task(`draw-line@${seed}`));
    const intent = env.task?.intent ?? '';
    const horizontal = /horizontal/.test(intent);
    assert.ok(horizontal || /vertical/.test(intent), intent);
    const { x, y } = await dot();
    const along = (d: number): [number, number] => (horizontal ? [x + d, y] : [x, y + d]);
    await stroke([along(-30), along(-10), along(10), along(30)]);
    const done = await env.step(`Thought: submit.\nAction: Click [${nodeId(obs, 'button', 'Submit')}]`);
    assert.equal(done.record?.endReason, 'task_done', done.observation?.text);
    assert.ok((done.record?.verdict.score ?? 0) > 0, `${intent}: ${done.record?.verdict.why}`);
  });
}

test('draw-line: submitting with no stroke scores below 0 (the stroke is what scores)', async () => {
  const obs = await env.reset(task('draw-line@0'));
  const done = await env.step(`Thought: submit.\nAction: Click [${nodeId(obs, 'button', 'Submit')}]`);
  assert.equal(done.record?.endReason, 'task_done');
  assert.ok((done.record?.verdict.score ?? 0) <= 0, done.record?.verdict.why);
});

test("the stroke's actions parse in WebArena's and TTI's forms, print back in WebArena's, and meet the page's need", () => {
  const cases: [string, string, Action][] = [
    ['mouse_down [4] [5]', 'MouseDown [4] [5]', { type: 'mouse_down', x: 4, y: 5 }],
    ['mouse_move [40.5] [52]', 'MouseMove [40.5] [52]', { type: 'mouse_move', x: 40.5, y: 52 }],
    ['mouse_up [7] [8]', 'MouseUp [7] [8]', { type: 'mouse_up', x: 7, y: 8 }],
  ];
  for (const [webarena, tti, action] of cases) {
    assert.deepEqual(
      parseWebArenaReply(`In summary, the next action I will perform is \`\`\`${webarena}\`\`\``),
      action,
    );
    assert.deepEqual(parseTtiReply(`Thought: t\nAction: ${tti}`), action);
    assert.equal(describeAction(action), webarena);
  }
  assert.equal(parseTtiReply('Thought: t\nAction: MouseDown [3]').type, 'none', 'a press needs a point');
  const needs = miniwobTaskNeeds(REAL_HTML, ['draw-line', 'draw-circle']);
  for (const name of ['draw-line', 'draw-circle']) {
    assert.ok(
      needs.get(name)?.needs.some((n) => n.need === 'stroke' && n.offeredBy !== null),
      name,
    );
    assert.deepEqual(needs.get(name)?.missing, [], name);
  }
});
