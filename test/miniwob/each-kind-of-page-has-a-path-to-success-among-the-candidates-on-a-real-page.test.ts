// The kinds of page the token policy failed on, each on a real MiniWoB++ page through the real
// browser env as a MiniWoB++ run sets it up (332×214, flags, no stop, no navigation, the page's
// pointer needs read from its code): a list longer than its box, a date picker, an autocomplete,
// an answer on a later page of results, a flow that leaves the inbox and comes back, a booking form
// with all of them (results below the fold in a scroll box of their own), a drag and a text
// selection. A scripted oracle (real-oracles.ts) reaches reward 1 on two seeds, and every action
// it takes is among the untrained policy's candidates at that step: the candidate set holds a path
// to success.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { BrowserEnv } from '../../src/envs/index.js';
import { buildCandidates } from '../../src/model/index.js';
import {
  MINIWOB_VIEWPORT,
  type MiniwobServer,
  miniwobTaskNeeds,
  pointerOffers,
} from '../../src/suites/miniwob/index.js';
import { REAL_HTML, realMiniwobEnv } from './helpers.js';
import { REAL_ORACLES } from './real-oracles.js';
import { PageDriver } from './standin-oracles.js';

const SEEDS = [0, 1];

let env: BrowserEnv;
let server: MiniwobServer;
let task: Awaited<ReturnType<typeof realMiniwobEnv>>['task'];

before(async () => {
  ({ env, server, task } = await realMiniwobEnv({
    horizon: 30,
    viewport: MINIWOB_VIEWPORT,
    observation: { flags: true },
    offerStop: false,
    offerNavigation: false,
  }));
});
after(async () => {
  await env?.close();
  await server?.close();
});

for (const [name, { kind, oracle }] of Object.entries(REAL_ORACLES)) {
  test(`${kind} (${name}): the oracle scores 1 through actions the candidates offer`, async () => {
    const pointer = pointerOffers(miniwobTaskNeeds(REAL_HTML, [name]).get(name)!);
    for (const seed of SEEDS) {
      const first = await env.reset(task(`${name}@${seed}`));
      const intent = env.task?.intent ?? '';
      const d = new PageDriver(env, first, intent, MINIWOB_VIEWPORT, {
        stop: false,
        navigation: false,
        ...(pointer.length > 0 ? { pointer } : {}),
      });
      try {
        await oracle(d);
      } catch (e) {
        await env.abandon();
        throw new Error(`${name}@${seed} (${intent}): ${(e as Error).message}`);
      }
      const verdict = d.result?.record?.verdict;
      assert.ok(d.done, `${name}@${seed} (${intent}): the page did not end the episode:\n${d.obs.text}`);
      assert.equal(verdict?.score, 1, `${name}@${seed} (${intent}): ${verdict?.why}`);
      for (const [k, s] of d.steps.entries()) {
        const actions = buildCandidates(s.input).map((c) => c.action);
        assert.ok(
          actions.includes(s.action),
          `${name}@${seed} step ${k}: ${s.action} is not among ${actions.length} candidates: ${actions.join(' | ')}`,
        );
      }
    }
  });
}

test('a click on an option hidden below its list box scrolls it into view and selects it', async () => {
  const first = await env.reset(task('click-scroll-list@0'));
  const list = first.nodes.find((n) => n.role === 'listbox');
  assert.ok(list?.bounds, first.text);
  const bottom = list.bounds[1] + list.bounds[3];
  // an option whose centre lies under the list's lower edge: the centre hits the page, not the option
  const hidden = first.nodes.find(
    (n) => n.role === 'option' && n.bounds !== null && n.bounds[1] + n.bounds[3] / 2 > bottom,
  );
  assert.ok(hidden, `an option below the list's box:\n${first.text}`);
  const r = await env.step({ type: 'click', elementId: hidden.id });
  const selected = r.observation?.nodes.find((n) => n.role === 'option' && n.name === hidden.name);
  assert.match(r.observation?.text ?? '', new RegExp(`option '${hidden.name}'[^\\n]*selected: True`));
  assert.ok(
    selected?.bounds && selected.bounds[1] + selected.bounds[3] <= bottom + 1,
    'scrolled into the box',
  );
  await env.abandon();
});
