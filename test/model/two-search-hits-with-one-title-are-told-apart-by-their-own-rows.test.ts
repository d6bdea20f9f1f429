// A short flat list (WebArena's cleaning drops empty listitems, so two search hits become one run
// of siblings) is cut into one row per hit, as a long one is (src/model/candidates.ts treeOf):
// otherwise both hits share the list as their row, and an issue's title link in one project reads
// the other project's name too.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { PolicyInput } from '../../src/model/index.js';
import { columns, contextMatches } from './fixtures.js';

const RESULTS = columns([
  [1, 'RootWebArea', 'Search · MiniTracker', 0],
  [2, 'heading', 'Search results', 1],
  [3, 'region', 'Issues (2)', 1],
  [4, 'heading', 'Issues (2)', 2],
  [5, 'list', 'Issues', 2],
  [6, 'link', 'Build script ignores user locale', 3],
  [7, 'StaticText', 'pixelforge/auth-service #30 · opened Sep 29, 2022 by Lucas Kowalski · 0 comments', 3],
  [8, 'StaticText', 'Assignee: Sophia Schmidt', 3],
  [9, 'link', 'Build script ignores user locale', 3],
  [10, 'StaticText', 'byteblaze/docs-site #24 · opened Jul 30, 2022 by Tomas Patel · 3 comments', 3],
  [11, 'StaticText', 'Assignee: Dmitri Schmidt', 3],
]);

test("each of two hits with the same title reads only its own project's name", () => {
  const input: PolicyInput = {
    intent: 'Close the issue "Build script ignores user locale" in pixelforge/auth-service',
    url: 'http://127.0.0.1/tracker/search?search=Build+script',
    nodes: RESULTS,
    history: [],
    step: 1,
    horizon: 10,
    note: null,
  };
  const right = contextMatches(input, 'Click [6]');
  const wrong = contextMatches(input, 'Click [9]');
  assert.ok(right.includes('pixelforge'), right.join(' '));
  assert.ok(!wrong.includes('pixelforge'), wrong.join(' '));
});
