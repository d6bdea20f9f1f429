// Going back by URL (collect.search_by_url) on MiniArena in real Chromium: a page whose way there
// sent only safe requests (GET) is reached again with one goto on the reset host, and a success
// from it is a trajectory with the whole way; a page whose URL does not say its state (text typed
// in a field) is found out on arrival and replayed from then on; a way that sent a POST is never
// taken by URL.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { type ArenaSlot, closeSlots, openSlots, readSplit } from '../../src/arena/oracle/index.js';
import { type Action, describeAction, type Observation, type Task } from '../../src/envs/index.js';
import { branchSearch, rolloutSteps, type Taken } from '../../src/search/index.js';

let slot: ArenaSlot;
const raw = readSplit('train');
const HORIZON = 10;

before(async () => {
  [slot] = (await openSlots(1, { split: 'train', env: { actionFormat: 'webarena' } })) as [ArenaSlot];
});
after(async () => {
  if (slot) await closeSlots([slot]);
});

/** The first train task of tracker_close_issue (it starts on the project), its issue's page and issue list. */
function closeIssueTask(): { task: Task; issue: string; list: string } {
  const t = raw.find((r) => r.miniarena.template === 'tracker_close_issue')!;
  const issue = (t.eval.program_html?.[0]?.url ?? '').replace(
    '__GITLAB__',
    slot.host.placeholders.__GITLAB__,
  );
  assert.match(issue, /\/-\/issues\/\d+$/, 'the verdict reads the issue page');
  return { task: slot.tasks.get(String(t.task_id))!, issue, list: issue.replace(/\/\d+$/, '') };
}

function idOf(observation: Observation, role: string, name: string): string {
  const node = observation.nodes.find((n) => n.role === role && n.name === name);
  assert.ok(node, `no ${role} '${name}' on ${observation.url}`);
  return node.id;
}

const TYPED = 'checked on staging';

/**
 * Step `k` of the first rollout: to the issue list, to the issue (both GET), a comment typed (no
 * request) and posted (a POST).
 */
function firstRollout(list: string, issue: string, observation: Observation, k: number): Action {
  if (k === 0) return { type: 'goto', url: list };
  if (k === 1) return { type: 'goto', url: issue };
  if (k === 2)
    return {
      type: 'type',
      elementId: idOf(observation, 'textbox', 'Comment'),
      text: TYPED,
      pressEnter: false,
      clearFirst: true,
    };
  return { type: 'click', elementId: idOf(observation, 'button', 'Comment') };
}

/**
 * A search scripted as above, then bursts that close the issue and stop ('close') or stop at once
 * ('stop'), cells ranked by `progress`. `rollouts`: each rollout's actions as sent to the env;
 * `shown`: the way's pages the policy was shown at each act of a later rollout.
 */
async function search(
  progress: (observation: Observation) => number,
  burstAction: 'close' | 'stop',
  budget: number,
) {
  const { task, issue, list } = closeIssueTask();
  const rollouts: string[][] = [];
  const shown: string[][] = [];
  let rollout = -1;
  const outcome = await branchSearch({
    budget,
    burst: 2,
    horizon: HORIZON,
    random: () => 0.5,
    rank: { by: 'progress', temperature: 0.01 },
    revisitByUrl: true,
    start: async (k) => {
      rollout = k;
      if (rollouts.length <= k) rollouts.push([]);
      await slot.host.reset();
      return slot.env.reset(task, { horizon: HORIZON });
    },
    step: async (action, policyVersion) => {
      const result = await slot.env.step(action, { policyVersion });
      rollouts[rollout]!.push(
        result.action.type === 'goto' ? `goto ${new URL(result.action.url).pathname}` : result.action.type,
      );
      return result;
    },
    act: async (observation, taken) => {
      let action: Action;
      if (rollout === 0) {
        if (taken.length >= 4) return { reply: 'stop [nothing]', policyVersion: 1 };
        action = firstRollout(list, issue, observation, taken.length);
      } else {
        shown.push(taken.map((t) => new URL(t.observation.url).pathname));
        const close = observation.nodes.find((n) => n.role === 'button' && n.name === 'Close issue');
        const reopen = observation.nodes.some((n) => n.role === 'button' && n.name === 'Reopen issue');
        if (burstAction === 'stop' || reopen) return { reply: 'stop [Done]', policyVersion: 1 };
        action = close
          ? { type: 'click', elementId: close.id }
          : { type: 'scroll', direction: 'down', by: 'page' };
      }
      return { reply: describeAction(action), policyVersion: 1 };
    },
    progress: (observation: Observation, _taken: readonly Taken[]) => progress(observation),
  });
  await slot.env.abandon();
  return { outcome, rollouts, shown };
}

const onIssue = (issue: string) => (o: Observation) => o.url === issue;
/** The comment box holds the typed text (not yet posted). */
const typedIn = (o: Observation) => {
  const box = o.nodes.findIndex((n) => n.role === 'textbox' && n.name === 'Comment');
  return box >= 0 && o.nodes[box + 1]?.name === TYPED;
};
/** The comment was posted: its text is on the page, outside the box. */
const posted = (o: Observation) => o.text.includes(`'${TYPED}'`) && !typedIn(o);

test('a page two GETs away is gone back to with one goto, and a success from it keeps the whole way', async () => {
  const { issue, list } = closeIssueTask();
  // the issue page as first seen (nothing typed, no comment posted) ranks highest
  const { outcome, rollouts, shown } = await search(
    (o) => (onIssue(issue)(o) && !o.text.includes(`'${TYPED}'`) ? 1 : 0),
    'close',
    20,
  );
  assert.ok(outcome.success, outcome.record?.verdict.why);
  assert.equal(outcome.stats.byUrl, 1);
  assert.deepEqual(
    rollouts[1],
    [`goto ${new URL(issue).pathname}`, 'click', 'stop'],
    'one goto, then the burst',
  );
  assert.equal(outcome.stats.envSteps, rollouts[0]!.length + 3, 'the way back cost one env step');
  assert.equal(outcome.revisited, 2);
  assert.equal(outcome.record!.steps.length, 3, "the env's record: the goto, the close and the stop");
  assert.equal(outcome.taken.length, 4, 'the trajectory: the way as first taken, then the burst');
  // the policy was shown the way's pages as first seen: the start, then the list
  assert.equal(shown[0]!.length, 2);
  assert.equal(shown[0]![1], new URL(list).pathname);
  assert.equal(outcome.taken[1]!.observation.url, list);
  // the trajectory kept: the way as first taken, each step on its own page, then the burst
  const steps = rolloutSteps(outcome.record!, outcome.taken, outcome.revisited);
  assert.deepEqual(
    steps.map((s) => [
      new URL(s.url).pathname,
      s.action.replace(/\[\d+\]/, '[id]').replace(/https?:\/\/[^/]+/, ''),
    ]),
    [
      [new URL(outcome.taken[0]!.observation.url).pathname, `goto [${new URL(list).pathname}]`],
      [new URL(list).pathname, `goto [${new URL(issue).pathname}]`],
      [new URL(issue).pathname, 'click [id]'],
      [new URL(issue).pathname, 'stop [Done]'],
    ],
  );
  assert.ok(
    steps.every((s) => s.taken !== undefined),
    'every step has the page the policy saw',
  );
});

test('a page whose URL does not hold its state is replayed once going to it shows another page', async () => {
  const { issue, list } = closeIssueTask();
  const { outcome, rollouts } = await search((o) => (typedIn(o) && o.url === issue ? 1 : 0), 'stop', 18);
  const listPath = new URL(list).pathname;
  const issuePath = new URL(issue).pathname;
  // rollout 1 tries the URL, sees an empty comment box, starts again and replays the way
  assert.deepEqual(rollouts[1], [
    `goto ${issuePath}`,
    `goto ${listPath}`,
    `goto ${issuePath}`,
    'type',
    'stop',
  ]);
  // from then on the cell is replayed without trying its URL
  assert.deepEqual(rollouts[2], [`goto ${listPath}`, `goto ${issuePath}`, 'type', 'stop']);
  assert.equal(outcome.stats.byUrl, 0);
  assert.ok(outcome.stats.diverged >= 1, 'the failed way back is counted');
});

test('a way that posted a form is never taken by URL', async () => {
  const { issue, list } = closeIssueTask();
  // the page after the comment was posted ranks highest
  const { outcome, rollouts } = await search((o) => (posted(o) ? 1 : 0), 'stop', 16);
  const listPath = new URL(list).pathname;
  const issuePath = new URL(issue).pathname;
  // (a rollout the budget cannot finish sends nothing)
  const later = rollouts.slice(1).filter((r) => r.length > 0);
  assert.ok(later.length >= 1);
  for (const r of later)
    assert.deepEqual(r, [`goto ${listPath}`, `goto ${issuePath}`, 'type', 'click', 'stop'], 'replayed');
  assert.equal(outcome.stats.byUrl, 0);
});
