// Multi-value answers (src/model/candidates.ts): an issue's labels are the run of label links in
// its row, and an order's "grand total and status" are the cells of the row the task names under
// the headers the task says. A whole row joined (title, dates, assignee and all) is not offered:
// it passes must_include by holding everything.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildCandidates, type PolicyInput } from '../../src/model/index.js';
import { columns } from './fixtures.js';

function input(intent: string, nodes: PolicyInput['nodes']): PolicyInput {
  return { intent, url: 'http://127.0.0.1/', nodes, history: [], step: 1, horizon: 10, note: null };
}

const answers = (i: PolicyInput) =>
  buildCandidates(i)
    .filter((c) => c.kind === 'answer')
    .map((c) => c.text);

test("an issue's label links are one answer, and its whole row is none", () => {
  const rows: [number, string, string, number][] = [
    [1, 'RootWebArea', 'Issues · acme/app', 0],
    [2, 'list', 'Issues', 1],
  ];
  let id = 3;
  const issues: [string, string[]][] = [
    ['Support dark theme in API client', ['accessibility', 'bug']],
    ['Typo in the build script', ['documentation', 'feature', 'ui']],
    ['Slow export dialog', ['bug']],
  ];
  for (const [title, labels] of issues) {
    rows.push([id++, 'ListMarker', '• ', 2], [id++, 'link', title, 2]);
    rows.push([id++, 'StaticText', `acme/app #${id} · opened Aug 31, 2022 by Ravi Yilmaz · 3 comments`, 2]);
    for (const l of labels) rows.push([id++, 'link', l, 2]);
    rows.push([id++, 'StaticText', 'Assignee: Kenji Silva', 2]);
  }
  const all = answers(
    input('What labels does the issue "Support dark theme in API client" in acme/app have?', columns(rows)),
  );
  assert.ok(all.includes('accessibility, bug'), all.join('\n'));
  assert.ok(all.includes('documentation, feature, ui'), all.join('\n'));
  assert.ok(
    !all.some((a) => a.includes('Support dark theme') && a.includes('Kenji Silva')),
    'a whole row is offered',
  );
});

test('the cells under the headers the task says, in the row it names, are one answer', () => {
  const rows: [number, string, string, number][] = [
    [1, 'RootWebArea', 'My Orders · MiniShop', 0],
    [2, 'table', 'Orders 1-10 of 26', 1],
    [3, 'row', '', 2],
  ];
  let id = 4;
  for (const h of ['Order #', 'Date', 'Items', 'Order Total', 'Status'])
    rows.push([id++, 'columnheader', h, 3]);
  const orders = [
    ['175', 'Nov 23, 2023', '4 item(s)', '$103.96', 'Complete'],
    ['174', 'Jul 11, 2023', '2 item(s)', '$437.95', 'Canceled'],
    ['173', 'Jul 2, 2023', '1 item(s)', '$80.96', 'Complete'],
  ];
  for (const o of orders) {
    rows.push([id++, 'row', '', 2]);
    for (const c of o) rows.push([id++, 'cell', c, 3]);
  }
  const all = answers(
    input(
      'What was the grand total of the order I placed on Jul 11, 2023, and what was its status?',
      columns(rows),
    ),
  );
  assert.ok(all.includes('$437.95, Canceled'), all.join('\n'));
  // only the row the task names
  assert.ok(!all.includes('$103.96, Complete'), all.join('\n'));
  assert.ok(!all.some((a) => a.includes('Jul 11, 2023') && a.includes('$437.95')), 'a whole row is offered');
});
