// The env worker's one resend loop (src/actors/roles/until-acknowledged.ts), over real ZeroMQ
// sockets: a request whose answer was lost (a peer restarting) goes again until one comes, the
// first answer counts, and the loop gives up after its attempts, once the worker stops, or when
// its whole wait is spent.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { requestUntilAnswered } from '../../src/actors/roles/until-acknowledged.js';
import { Channel, Inbound, RejectedFrames, Requester } from '../../src/protocol/index.js';

const dir = mkdtempSync(path.join(tmpdir(), 'tti-resend-'));
const rejected = new RejectedFrames(() => undefined);
const replay = Channel.create('trajectories', 'router', Inbound.trajectoriesToReplay, rejected);
const env = Channel.create('trajectories', 'dealer', Inbound.trajectoriesToEnv, rejected);
let requester: Requester<typeof Inbound.trajectoriesToEnv>;
/** how many sends of each episode replay received, and from which send on it answers */
const received = new Map<string, number>();
const answersFrom = new Map<string, number>();

before(async () => {
  await replay.bind(`ipc://${dir}/trajectories.sock`);
  env.connect(`ipc://${dir}/trajectories.sock`);
  requester = new Requester(env);
  void replay.serve(async (inbound) => {
    const id = inbound.message.episodeId;
    const n = (received.get(id) ?? 0) + 1;
    received.set(id, n);
    if (n >= (answersFrom.get(id) ?? Number.POSITIVE_INFINITY))
      await replay.sendTo(inbound.peer!, {
        type: 'trajectory_ack',
        episodeId: id,
        kept: n === 3,
        duplicate: false,
      });
  });
});
after(() => {
  requester.close();
  replay.close();
  rmSync(dir, { recursive: true, force: true });
});

/** What replay has received of an episode, once the sends already made have arrived (a send is not its delivery). */
async function receivedOnceArrived(id: string, sent: number): Promise<number> {
  const deadline = Date.now() + 5000;
  while ((received.get(id) ?? 0) < sent && Date.now() < deadline) await sleep(10);
  return received.get(id) ?? 0;
}

const trajectory = (episodeId: string) => ({
  type: 'trajectory',
  workerId: 'env-0',
  episodeId,
  taskId: 't1',
  site: 'shop',
  intent: 'Find it',
  horizon: 10,
  iteration: 0,
  reward: 1,
  answer: null,
  steps: [],
});

test('a request is sent again until it is answered, and the first answer counts', async () => {
  answersFrom.set('e1', 3);
  const unanswered: number[] = [];
  const ack = await requestUntilAnswered(requester, trajectory('e1'), (m) => m.episodeId === 'e1', {
    waitMs: 200,
    attempts: 6,
    goesOn: () => true,
    onUnanswered: (attempt) => unanswered.push(attempt),
  });
  assert.equal(ack?.message.kept, true, 'the third send was answered');
  assert.deepEqual(unanswered, [1, 2]);
  assert.equal(received.get('e1'), 3);
});

test('it gives up after its attempts, or once the worker stops sending', async () => {
  const unanswered: number[] = [];
  const none = await requestUntilAnswered(requester, trajectory('e2'), (m) => m.episodeId === 'e2', {
    waitMs: 100,
    attempts: 3,
    goesOn: () => true,
    onUnanswered: (attempt) => unanswered.push(attempt),
  });
  assert.equal(none, null);
  assert.deepEqual(unanswered, [1, 2, 3]);
  assert.equal(received.get('e2'), 3);

  let running = true;
  const stopped = await requestUntilAnswered(requester, trajectory('e3'), (m) => m.episodeId === 'e3', {
    waitMs: 100,
    attempts: 6,
    // the first send goes out whatever happens; the worker stops after it
    goesOn: (attempt) => attempt === 1 || running,
    onUnanswered: () => {
      running = false;
    },
  });
  assert.equal(stopped, null);
  assert.equal(await receivedOnceArrived('e3', 1), 1);

  const stopping = await requestUntilAnswered(requester, trajectory('e4'), () => true, {
    waitMs: 100,
    goesOn: () => false,
  });
  assert.equal(stopping, null);
  assert.equal(received.has('e4'), false, 'nothing is sent once stopped');
});

test('with a whole wait and no count, it sends again until the wait is spent', async () => {
  const unanswered: number[] = [];
  const none = await requestUntilAnswered(requester, trajectory('e5'), (m) => m.episodeId === 'e5', {
    waitMs: 300,
    withinMs: 450,
    goesOn: () => true,
    onUnanswered: (attempt) => unanswered.push(attempt),
  });
  assert.equal(none, null);
  // one send of 300 ms, then one for what is left of the 450
  assert.ok(unanswered.length >= 1 && unanswered.length <= 2, `${unanswered.length} sends`);
  assert.equal(await receivedOnceArrived('e5', unanswered.length), unanswered.length);
});
