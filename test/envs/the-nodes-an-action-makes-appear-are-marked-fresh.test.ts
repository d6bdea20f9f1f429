// The env marks the nodes an action made appear (ObservationNode.fresh, the `fresh` column): the
// suggestions typing shows, the files a folder's click opens. Real Chromium on the MiniWoB++
// stand-ins; the rule itself (src/util/fresh.ts) on ids, where a new document marks nothing.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { type BrowserEnv, observationColumns } from '../../src/envs/index.js';
import { withFreshColumns } from '../../src/model/index.js';
import { MINIWOB_VIEWPORT, type MiniwobServer } from '../../src/suites/miniwob/index.js';
import { freshIds } from '../../src/util/index.js';
import { miniwobEnv } from '../miniwob/helpers.js';

let env: BrowserEnv;
let server: MiniwobServer;
let task: Awaited<ReturnType<typeof miniwobEnv>>['task'];

before(async () => {
  ({ env, server, task } = await miniwobEnv({ horizon: 10, viewport: MINIWOB_VIEWPORT, offerStop: false }));
});
after(async () => {
  await env.close();
  await server.close();
});

test('typing a prefix marks the suggestions that appear, and not the field, its label or the button', async () => {
  const first = await env.reset(task('autocomplete@0'));
  assert.ok(
    first.nodes.every((n) => n.fresh !== true),
    'nothing is fresh on the first observation',
  );
  const field = first.nodes.find((n) => n.role === 'textbox')!;
  const prefix = /starts with "([^"]+)"/.exec(env.task?.intent ?? '')![1]!;
  const r = await env.step(`Thought: act.\nAction: Type [${field.id}] [${prefix}]`);
  const next = r.observation!;
  const fresh = next.nodes.filter((n) => n.fresh).map((n) => n.name);
  assert.ok(
    fresh.some((name) => name.startsWith(prefix) && name !== prefix),
    `a suggestion starting with ${prefix} is fresh: ${fresh.join(', ')}`,
  );
  for (const old of first.nodes) {
    const same = next.nodes.find((n) => n.id === old.id);
    if (same) assert.equal(same.fresh, false, `${old.role} ${old.name} was there before`);
  }
  const columns = observationColumns(next.nodes, MINIWOB_VIEWPORT);
  assert.deepEqual(
    columns.fresh,
    next.nodes.map((n) => (n.fresh ? 1 : 0)),
  );
  await env.abandon();
});

test("a folder's click marks the names inside it", async () => {
  const first = await env.reset(task('expand-tree@0'));
  const folder = first.nodes.find((n) => n.name.endsWith('/'))!;
  const r = await env.step(`Thought: act.\nAction: Click [${folder.id}]`);
  const fresh = r.observation!.nodes.filter((n) => n.fresh);
  assert.ok(fresh.length > 0, 'the folder opened');
  assert.ok(fresh.every((n) => !first.nodes.some((m) => m.id === n.id)));
  await env.abandon();
});

test('the rule: new ids on the same document are fresh; another URL or a replaced page marks nothing', () => {
  const url = 'http://x/a';
  assert.deepEqual(freshIds({ url, ids: [1, 2, 3] }, { url, ids: [1, 2, 3, 9] }), [
    false,
    false,
    false,
    true,
  ]);
  assert.deepEqual(freshIds({ url, ids: [1, 2, 3] }, { url: 'http://x/b', ids: [1, 9] }), [false, false]);
  assert.deepEqual(freshIds({ url, ids: [1, 2, 3, 4] }, { url, ids: [7, 8, 9, 1] }), [
    false,
    false,
    false,
    false,
  ]);
  assert.deepEqual(freshIds(null, { url, ids: [5] }), [false]);
});

test('a demo file recorded without the column gets it from its steps by the same rule; one that has it keeps it', () => {
  const nodes = (ids: number[], fresh?: number[]) => ({
    ids,
    roles: ids.map(() => 'link'),
    names: ids.map(String),
    depths: ids.map(() => 1),
    inViewport: ids.map(() => 1),
    ...(fresh ? { fresh } : {}),
  });
  const url = 'http://x/a';
  const steps = withFreshColumns([
    { url, nodes: nodes([1, 2]) },
    { url, nodes: nodes([1, 2, 3]) },
    { url, nodes: nodes([1, 2, 3, 4], [0, 0, 1, 0]) },
  ]);
  assert.deepEqual(
    steps.map((s) => s.nodes.fresh),
    [
      [0, 0],
      [0, 0, 1],
      [0, 0, 1, 0],
    ],
  );
});
