// BrowserGym's drag_and_drop as tti's `drag [id] [id]` (TTI form: Drag [n] [m]) on MiniWoB++'s real
// drag-items page, through the real browser env: the page's jQuery UI sortable follows the drag, and
// a scripted correct drag (the named item onto the item at the wanted position) scores 1. A click
// cannot do it: the same page never ends on clicks.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import {
  type Action,
  type BrowserEnv,
  describeAction,
  type Observation,
  parseTtiReply,
  parseWebArenaReply,
} from '../../src/envs/index.js';
import { MINIWOB_VIEWPORT, type MiniwobServer } from '../../src/suites/miniwob/index.js';
import { realMiniwobEnv } from './helpers.js';

let env: BrowserEnv;
let server: MiniwobServer;
let task: Awaited<ReturnType<typeof realMiniwobEnv>>['task'];

before(async () => {
  ({ env, server, task } = await realMiniwobEnv({
    horizon: 5,
    viewport: MINIWOB_VIEWPORT,
    observation: { flags: true },
    offerStop: false,
  }));
});
after(async () => {
  await env?.close();
  await server?.close();
});

/** The list's items, top to bottom: the tree keeps each item's text (the list items themselves are pruned). */
function items(obs: Observation) {
  const list = obs.nodes.filter((n) => n.role === 'StaticText');
  assert.ok(list.length >= 5, `a sortable list of 5:\n${obs.text}`);
  return list;
}

/** Where "Drag NAME to the top. / … down by one position." wants the item (1-based), from its place. */
function wantedPosition(intent: string, from: number, n: number): { name: string; to: number } {
  const m =
    /^Drag (.+?) (to the top|to the bottom|down by one position|up by one position|to the (\d)\w\w position)\.$/.exec(
      intent,
    );
  assert.ok(m, `a drag instruction: ${intent}`);
  const to =
    m[2] === 'to the top'
      ? 1
      : m[2] === 'to the bottom'
        ? n
        : m[2] === 'down by one position'
          ? from + 1
          : m[2] === 'up by one position'
            ? from - 1
            : Number(m[3]);
  return { name: m[1]!, to };
}

for (const seed of [0, 1, 2, 3]) {
  test(`drag-items@${seed}: dragging the named item onto the item at its wanted place scores 1`, async () => {
    const obs = await env.reset(task(`drag-items@${seed}`));
    const intent = env.task?.intent ?? '';
    const list = items(obs);
    const from = list.findIndex((n) => n.name.includes(intent.replace(/^Drag (.+?) (to|up|down) .*$/, '$1')));
    assert.ok(from >= 0, `${intent}: the item is in the list:\n${obs.text}`);
    const { to } = wantedPosition(intent, from + 1, list.length);
    const result = await env.step(
      `Thought: move it.\nAction: Drag [${list[from]!.id}] [${list[to - 1]!.id}]`,
    );
    assert.equal(result.action.type, 'drag');
    assert.equal(result.record?.endReason, 'task_done', `${intent}: ${result.observation?.text}`);
    assert.equal(result.record?.verdict.score, 1, `${intent}: ${result.record?.verdict.why}`);
  });
}

test('drag-items: clicks on the items do not end the episode (the task needs the drag)', async () => {
  const obs = await env.reset(task('drag-items@0'));
  for (const item of items(obs).slice(0, 2)) {
    const r = await env.step({ type: 'click', elementId: item.id });
    assert.equal(r.done, false, 'a click is not a drag');
  }
  await env.abandon();
});

test("the mouse actions parse in WebArena's and TTI's forms, and print back in WebArena's", () => {
  const cases: [string, string, Action][] = [
    ['drag [12] [15]', 'Drag [12] [15]', { type: 'drag', fromId: '12', toId: '15' }],
    ['mouse_click [40] [52.5]', 'MouseClick [40] [52.5]', { type: 'mouse_click', x: 40, y: 52.5 }],
    [
      'mouse_drag [1] [2] [30] [40]',
      'MouseDrag [1] [2] [30] [40]',
      { type: 'mouse_drag', fromX: 1, fromY: 2, toX: 30, toY: 40 },
    ],
  ];
  for (const [webarena, tti, action] of cases) {
    assert.deepEqual(
      parseWebArenaReply(`In summary, the next action I will perform is \`\`\`${webarena}\`\`\``),
      action,
    );
    assert.deepEqual(parseTtiReply(`Thought: t\nAction: ${tti}`), action);
    assert.equal(describeAction(action), webarena);
  }
  assert.equal(parseTtiReply('Thought: t\nAction: Drag [12]').type, 'none', 'a drag needs two elements');
  assert.equal(parseTtiReply('Thought: t\nAction: MouseClick [x] [3]').type, 'none');
});
