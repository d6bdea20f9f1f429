// The candidates a page's kind calls for, and only there: the pointer actions (Drag, MouseDrag,
// MouseClick) when the task's offers say the page needs them, a text that appeared after a Type (an
// autocomplete's option) as a click, every option of a <select multiple>, and a scroll down when a
// list lies below what is in view even where the tree puts status lines after it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseTtiReply } from '../../src/envs/actions/parse-tti.js';
import { buildCandidates, type NodeColumns, type PolicyInput } from '../../src/model/index.js';
import { columns, input } from './fixtures.js';

type Boxed = [id: number, role: string, name: string, depth: number, box: [number, number, number, number]];

/** A small page of boxed nodes, all in view unless a box says otherwise (332×214). */
function page(rows: Boxed[], extra: Partial<NodeColumns> = {}): NodeColumns {
  const inView = (b: [number, number, number, number]) =>
    b[0] + b[2] > 0 && b[0] < 332 && b[1] + b[3] > 0 && b[1] < 214 ? 1 : 0;
  return {
    ...columns(rows.map(([id, role, name, depth, box]) => [id, role, name, depth, inView(box)])),
    x: rows.map((r) => r[4][0]),
    y: rows.map((r) => r[4][1]),
    w: rows.map((r) => r[4][2]),
    h: rows.map((r) => r[4][3]),
    ...extra,
  };
}

const sortable = page([
  [1, 'RootWebArea', 'Drag Items', 0, [0, 0, 10, 10]],
  [4, 'StaticText', 'Alpha', 1, [10, 60, 80, 20]],
  [5, 'StaticText', 'Beta', 1, [10, 80, 80, 20]],
  [6, 'StaticText', 'Gamma', 1, [10, 100, 80, 20]],
  [7, 'button', 'Submit', 1, [10, 130, 95, 31]],
]);
const ask = (nodes: NodeColumns, o: Partial<PolicyInput> = {}) =>
  buildCandidates(input({ intent: 'Drag Alpha to the bottom.', nodes, offers: { stop: false }, ...o }));

test('no pointer candidate unless the task offers the pointer action the page needs', () => {
  const none = ask(sortable);
  assert.ok(
    none.every((c) => c.kind !== 'drag' && c.kind !== 'point'),
    none.map((c) => c.action).join(' | '),
  );
  const drags = ask(sortable, { offers: { stop: false, pointer: ['drag'] } });
  const actions = drags.map((c) => c.action);
  assert.ok(actions.includes('Drag [4] [6]'), 'a drag of one item onto another');
  assert.ok(!actions.includes('Drag [4] [4]'), 'never onto itself');
  assert.ok(!actions.some((a) => a.startsWith('Drag [1]')), 'never the page itself');
  assert.ok(
    actions.some((a) => a.startsWith('MouseDrag [50] [70] ')),
    'from an element to a point of the grid',
  );
  assert.ok(!actions.some((a) => a.startsWith('MouseClick')), 'a drag page gets no point clicks');
  const drag = drags.find((c) => c.action === 'Drag [4] [6]')!;
  assert.equal(drag.kind, 'drag');
  assert.equal(drag.text, 'Gamma', 'the target is what the candidate names');
  // the everyday candidates are the same with or without the pointer ones
  assert.deepEqual(
    drags.filter((c) => c.kind !== 'drag').map((c) => c.action),
    none.map((c) => c.action),
  );
  for (const c of drags) {
    const parsed = parseTtiReply(`Thought: t\nAction: ${c.action}`);
    assert.notEqual(parsed.type, 'none', c.action);
  }
});

test('a point page gets clicks on a grid and at element centres, each naming the element under it', () => {
  const canvas = page([
    [1, 'RootWebArea', 'Find Midpoint', 0, [0, 0, 10, 10]],
    [16, 'image', '', 1, [2, 52, 150, 130]],
    [19, 'button', 'Submit', 1, [30, 178, 95, 31]],
  ]);
  const cs = ask(canvas, { offers: { stop: false, pointer: ['point'] } });
  const points = cs.filter((c) => c.kind === 'point');
  assert.ok(points.length > 50, `${points.length} points`);
  assert.ok(
    points.some((c) => c.action === 'MouseClick [77] [117]'),
    'the image centre',
  );
  for (const c of points) {
    const m = /^MouseClick \[(\d+)\] \[(\d+)\]$/.exec(c.action);
    assert.ok(m, c.action);
    const [x, y] = [Number(m[1]), Number(m[2])];
    assert.ok(x <= 152 && y <= 209, `inside what the elements cover: ${c.action}`);
    const inImage = x >= 2 && x < 152 && y >= 52 && y < 182;
    const inButton = x >= 30 && x < 125 && y >= 178 && y < 209;
    assert.equal(c.node, inButton ? 2 : inImage ? 1 : -1, c.action);
  }
});

test('a text selection page gets a drag across each text, from before its start to past its end', () => {
  const para = page([
    [1, 'RootWebArea', 'Highlight', 0, [0, 0, 10, 10]],
    [18, 'StaticText', 'Ultricies curabitur metus.', 1, [12, 62, 113, 11]],
    [17, 'button', 'Submit', 1, [7, 88, 95, 31]],
  ]);
  const cs = ask(para, { offers: { stop: false, pointer: ['text_selection'] } });
  assert.deepEqual(
    cs.filter((c) => c.kind === 'drag').map((c) => c.action),
    ['MouseDrag [11] [66] [126] [70]'],
  );
});

test('after a Type, a text that just appeared is a click (an autocomplete option), and only then', () => {
  const nodes = page(
    [
      [1, 'RootWebArea', 'Autocomplete', 0, [0, 0, 10, 10]],
      [3, 'textbox', 'Tags:', 1, [10, 71, 128, 21]],
      [22, 'button', 'Submit', 1, [10, 97, 95, 31]],
      [196, 'StaticText', 'San Marino', 1, [17, 120, 72, 16]],
      [197, 'StaticText', 'Old text', 1, [17, 140, 72, 16]],
    ],
    { clickable: [0, 1, 1, 0, 0], fresh: [0, 0, 0, 1, 0] },
  );
  const intent = 'Enter an item that starts with "Sa" and ends with "ino".';
  const after = buildCandidates(input({ intent, nodes, history: ['Type [3] [Sa]'], step: 1 }));
  const actions = after.map((c) => c.action);
  assert.ok(actions.includes('Click [196]'), actions.join(' | '));
  assert.ok(!actions.includes('Click [197]'), 'a text that was there before is no option');
  const afterClick = buildCandidates(input({ intent, nodes, history: ['Click [22]'], step: 1 }));
  assert.ok(!afterClick.some((c) => c.action === 'Click [196]'), 'after a click a new text is no option');
});

test('each option of a <select multiple> is a Select, hidden in its box or not', () => {
  const nodes = page([
    [1, 'RootWebArea', 'Choose List', 0, [0, 0, 10, 10]],
    [16, 'listbox', '', 1, [2, 57, 150, 90]],
    [20, 'option', 'Mayotte', 2, [3, 58, 148, 17]],
    [41, 'option', 'Mauritania', 2, [3, 177, 148, 17]],
    [44, 'option', 'Romania', 2, [3, 260, 148, 17]],
    [47, 'button', 'Submit', 1, [2, 152, 95, 31]],
  ]);
  const actions = ask(nodes).map((c) => c.action);
  for (const name of ['Mayotte', 'Mauritania', 'Romania'])
    assert.ok(actions.includes(`Select [16] [${name}]`), `${name}: ${actions.join(' | ')}`);
});

test('a scroll down is offered when named nodes lie below what is in view, wherever the tree puts them', () => {
  const results = page([
    [1, 'RootWebArea', 'Results', 0, [0, 0, 10, 10]],
    [10, 'button', 'Book flight for $677', 1, [12, 176, 126, 34]],
    [11, 'button', 'Book flight for $470', 1, [12, 304, 126, 34]],
    // status lines the page keeps at its foot, in view and last in the tree
    [38, 'status', 'done', 1, [-1, 209, 1, 1]],
    // a picker's hidden control far off to the side is neither above nor below
    [40, 'StaticText', 'Next', 1, [-99866, 77, 15, 7]],
  ]);
  const actions = ask(results).map((c) => c.action);
  assert.ok(actions.includes('Scroll [down]'), actions.join(' | '));
  assert.ok(!actions.includes('Scroll [up]'));
  const side = page([
    [1, 'RootWebArea', 'Picker', 0, [0, 0, 10, 10]],
    [7, 'link', 'Prev', 1, [34, 78, 13, 13]],
    [40, 'StaticText', 'Next', 1, [-99866, 77, 15, 7]],
  ]);
  assert.ok(!ask(side).some((c) => c.kind === 'scroll'), 'a node off to the side asks for no scroll');
});
