// Binding an answer to its row (src/model/candidates.ts pushAnswer, src/model/encode.ts markDays):
// an assignee named in a filter menu and in several issue rows is one answer candidate, whose
// evidence is the row that says the task's words; and a date's day ("updated Jul 21") is not the
// issue "#21" a task names, while a date in the task still matches the same date on the page.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildCandidates, type PolicyInput } from '../../src/model/index.js';
import { columns, contextMatches } from './fixtures.js';

type Issue = [iid: number, title: string, updated: string, assignee: string];

/** An issue list: an assignee filter menu first, then one row per issue. */
function issueList(issues: Issue[]): PolicyInput['nodes'] {
  const rows: [number, string, string, number][] = [
    [1, 'RootWebArea', 'Issues · acme/app', 0],
    [2, 'group', 'Filters', 1],
    [3, 'StaticText', 'Assignee:', 2],
  ];
  let id = 4;
  for (const name of [...new Set(issues.map((i) => i[3]))]) rows.push([id++, 'link', name, 2]);
  for (let k = 0; k < 12; k++) rows.push([id++, 'link', `filter ${k}`, 2]);
  rows.push([id++, 'list', 'Issues', 1]);
  for (const [iid, title, updated, assignee] of issues)
    rows.push(
      [id++, 'listitem', '', 2],
      [id++, 'link', title, 3],
      [id++, 'StaticText', `acme/app #${iid} · opened Jan 3, 2023 · updated ${updated}`, 3],
      [id++, 'StaticText', `Assignee: ${assignee}`, 3],
    );
  return columns(rows);
}

const ISSUES: Issue[] = [
  [49, 'Fix the login page', 'Jul 21, 2023', 'Owen Sato'],
  [33, 'Typo in the build script', 'May 2, 2023', 'Ana Diaz'],
  [21, 'Sidebar crashes on empty input', 'Mar 6, 2023', 'Kofi Hughes'],
  [17, 'Slow export dialog', 'Feb 9, 2023', 'Owen Sato'],
];

function input(intent: string): PolicyInput {
  return {
    intent,
    url: 'http://127.0.0.1/tracker/acme/app/-/issues',
    nodes: issueList(ISSUES),
    history: [],
    step: 1,
    horizon: 10,
    note: null,
  };
}

/** The names in the row of the node an answer candidate reads. */
function rowOfAnswer(i: PolicyInput, answer: string): string {
  const c = buildCandidates(i).find((x) => x.action === `ANSWER [${answer}]`);
  assert.ok(c, `no candidate ANSWER [${answer}]`);
  const names = i.nodes.names;
  // the row's meta line follows the title link, the assignee line follows it
  return `${names[c.node - 2] ?? ''} | ${names[c.node - 1] ?? ''} | ${names[c.node] ?? ''}`;
}

test('an assignee named in a filter menu and in an issue row is read from the row the task names', () => {
  const row = rowOfAnswer(input('Who is assigned to issue #21 in acme/app?'), 'Kofi Hughes');
  assert.match(row, /acme\/app #21 /);
  // a name in two rows: the one whose row says the task's issue
  assert.match(rowOfAnswer(input('Who is assigned to issue #17 in acme/app?'), 'Owen Sato'), /#17 /);
  assert.match(rowOfAnswer(input('Who is assigned to issue #49 in acme/app?'), 'Owen Sato'), /#49 /);
});

test("a date's day is not the issue number a task names, and a date in the task matches the page's", () => {
  const byIssue = input('Who is assigned to issue #21 in acme/app?');
  // the row of #49 was updated on Jul 21: its assignee's context does not match "21"
  assert.ok(!contextMatches(byIssue, 'ANSWER [Assignee: Owen Sato]').includes('21'));
  assert.ok(contextMatches(byIssue, 'ANSWER [Assignee: Kofi Hughes]').includes('21'));
  const byDate = input('Who is assigned to the issue updated on Jul 21, 2023?');
  assert.ok(contextMatches(byDate, 'ANSWER [Assignee: Owen Sato]').includes('21'));
  assert.ok(!contextMatches(byDate, 'ANSWER [Assignee: Kofi Hughes]').includes('21'));
});
