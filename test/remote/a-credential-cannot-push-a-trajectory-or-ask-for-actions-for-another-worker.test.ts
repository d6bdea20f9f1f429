// Trajectories (to replay) and act requests (to a local inference worker, and through the
// supervisor's act relay to a remote one) name their sender and the key it speaks with, and each
// receiver holds them to that key as the supervisor does. Real processes and real CURVE sockets: a
// holder of a second credential who names another worker (with its own key, a forged tag, or none)
// gets no answer; each drop is counted where it happens (replay's and inference's heartbeats, the
// supervisor's relay), summed in status, and logged by key id; the named worker's own trajectory
// is kept and its act requests answered.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { speakerSignature } from '../../src/actors/roles/remote-join.js';
import {
  Channel,
  Inbound,
  RejectedFrames,
  Requester,
  type SpeakerKey,
  type StatusSnapshot,
  speakerKey,
} from '../../src/protocol/index.js';
import { type Credential, issueCredential, RunDir, readSupervisorInfo } from '../../src/run/index.js';
import { freePortBlock } from '../helpers/free-port-block.js';
import { actRequest, tuningOf } from '../helpers/remote-act.js';
import { detachedRun, listeningTrainArgs, runCli } from '../helpers/run-fixture.js';

const joinOf = (c: Credential) => ({ endpoint: 'tcp://127.0.0.1:1', credential: c });
const trajectory = (workerId: string, key: SpeakerKey | undefined, episodeId: string) => ({
  type: 'trajectory',
  workerId,
  ...(key ? { key } : {}),
  episodeId,
  taskId: 't',
  site: 'shopping',
  intent: 'a task',
  horizon: 10,
  iteration: 0,
  reward: 1,
  answer: 'ok',
  steps: [
    {
      observation: "[1] RootWebArea 'Home'",
      url: 'http://127.0.0.1/',
      nodes: { ids: [1], roles: ['RootWebArea'], names: ['Home'], depths: [0], inViewport: [1] },
      note: null,
      reply: 'Thought: t\nAction: ANSWER [ok]',
      action: 'stop [ok]',
      policyVersion: 0,
    },
  ],
});

test('a second credential cannot push a trajectory or ask for actions in another worker’s name', {
  timeout: 180_000,
}, async (t) => {
  const { run, closers } = detachedRun(t);
  const env0 = issueCredential(run.runDir, 'env');
  const env1 = issueCredential(run.runDir, 'env');
  const inference = issueCredential(run.runDir, 'inference');
  const port = await freePortBlock();
  const started = await runCli(
    listeningTrainArgs(run.runDir, `tcp://127.0.0.1:${port}`, [
      // No env worker of the run's own: the test's are the only senders, so the counts are exact.
      'workers.env=0',
      'workers.inference=1',
      'remote.env=2',
      'remote.inference=1',
      'supervisor.heartbeat_interval_ms=200',
      'supervisor.heartbeat_timeout_ms=60000',
      'supervisor.shutdown_timeout_ms=5000',
      'log_level=info',
    ]),
  );
  assert.equal(started.code, 0, started.stderr);
  const ready = (s: StatusSnapshot, id: string) => s.workers.find((w) => w.id === id)?.state === 'ready';
  await run.waitFor(
    (s) => s.state === 'running' && ready(s, 'replay-0') && ready(s, 'inference-0'),
    90_000,
    'the run, its replay and its inference worker',
  );
  const endpoints = readSupervisorInfo(new RunDir(run.runDir)).endpoints;
  const local = endpoints.act['inference-0'];
  assert.ok(local !== undefined && endpoints.relay !== undefined, JSON.stringify(endpoints));

  // A remote inference worker as the relay sees one: a routed DEALER on its back, with its own
  // credential (it has no server secret, so it could not check a key itself). It answers whatever
  // reaches it, and notes who asked.
  const rejected = new RejectedFrames(() => undefined);
  const behindRelay = Channel.create(
    'act',
    'routed-dealer',
    Inbound.actToInference,
    rejected,
    tuningOf(inference),
  );
  closers.push(() => behindRelay.close());
  behindRelay.connect(endpoints.relay.back);
  // It says who it is every second, as act-socket.ts does: the relay sends only to workers that have.
  const announcement = {
    type: 'act_ready',
    workerId: inference.id,
    key: speakerSignature(joinOf(inference), undefined, inference.id).key,
  };
  const announcing = setInterval(() => void behindRelay.send(announcement).catch(() => undefined), 1000);
  closers.unshift(() => clearInterval(announcing));
  void behindRelay.send(announcement);
  const reachedRemote: string[] = [];
  void behindRelay.serve(async ({ message, peer }) => {
    reachedRemote.push(`${message.workerId}/${message.episodeId}`);
    if (peer !== null)
      await behindRelay.sendTo(peer, {
        type: 'act_reply',
        episodeId: message.episodeId,
        step: message.step,
        reply: 'Action: stop [ok]',
        policyVersion: 0,
      });
  });

  // Each credential holder's sockets, as an env worker opens them.
  const sides = (c: Credential) => {
    const trajectories = Channel.create(
      'trajectories',
      'dealer',
      Inbound.trajectoriesToEnv,
      rejected,
      tuningOf(c),
    );
    const act = Channel.create('act', 'dealer', Inbound.actToEnv, rejected, tuningOf(c));
    const relay = Channel.create('act', 'dealer', Inbound.actToEnv, rejected, tuningOf(c));
    trajectories.connect(endpoints.trajectories);
    act.connect(local);
    relay.connect(endpoints.relay?.front ?? '');
    const s = {
      trajectories: new Requester(trajectories),
      act: new Requester(act),
      relay: new Requester(relay),
    };
    closers.push(() => {
      s.trajectories.close();
      s.act.close();
      s.relay.close();
    });
    return s;
  };
  // A reply answers the request of its episode; a request with no reply resolves null.
  const ask = (
    to: Requester<typeof Inbound.actToEnv> | Requester<typeof Inbound.trajectoriesToEnv>,
    message: { episodeId: string },
    timeoutMs: number,
  ) => to.request(message, (m: { episodeId: string }) => m.episodeId === message.episodeId, timeoutMs);
  const a = sides(env0);
  const b = sides(env1);
  const asEnv0 = speakerSignature(joinOf(env0), undefined, 'env-r0').key;
  const byEnv1 = speakerSignature(joinOf(env1), undefined, 'env-r0').key;
  const forged = speakerKey(
    { secretKey: env1.secretKey, serverPublic: env1.serverPublic },
    'env-r0',
    'env-r0',
  );

  // The real worker first: its trajectory is kept, and both inference paths answer it (the first
  // act request waits for the handshakes and the policy's first forward pass).
  const kept = await ask(a.trajectories, trajectory('env-r0', asEnv0, 'mine'), 30_000);
  assert.deepEqual(kept?.message, {
    type: 'trajectory_ack',
    episodeId: 'mine',
    kept: true,
    duplicate: false,
  });
  const answered = await ask(a.act, actRequest('env-r0', asEnv0, 'mine-local'), 30_000);
  assert.equal(answered?.message.type, 'act_reply');
  // The relay drops a request while no inference worker is behind it yet: sent again, as env does.
  let relayed = null;
  for (let attempt = 0; attempt < 10 && relayed === null; attempt++)
    relayed = await ask(a.relay, actRequest('env-r0', asEnv0, 'mine-relay'), 3000);
  assert.equal(relayed?.message.type, 'act_reply');

  // env-r1's sockets name env-r0: with env-r1's key, a forged one, none. No answer to any.
  const bad: [string, SpeakerKey | undefined][] = [
    ['own-key', byEnv1],
    ['forged', forged],
    ['no-key', undefined],
  ];
  for (const [how, key] of bad) {
    const id = `theirs-${how}`;
    const pushed = await ask(b.trajectories, trajectory('env-r0', key, id), 1500);
    assert.equal(pushed, null, `replay acknowledged a trajectory for env-r0 through env-r1 (${how})`);
    const asked = await ask(b.act, actRequest('env-r0', key, id), 1500);
    assert.equal(asked, null, `inference answered env-r1 in env-r0's name (${how})`);
    const viaRelay = await ask(b.relay, actRequest('env-r0', key, id), 1500);
    assert.equal(viaRelay, null, `the relay passed env-r1's request in env-r0's name (${how})`);
  }
  // …while env-r0 goes on as before.
  const again = await ask(a.act, actRequest('env-r0', asEnv0, 'mine-again'), 10_000);
  assert.equal(again?.message.type, 'act_reply');

  // Counted where each was dropped, and summed in status once the heartbeats carry them.
  const n = bad.length;
  const status = await run.waitFor(
    (s) =>
      (s.workers.find((w) => w.id === 'replay-0')?.counters.wrongKeyMessages ?? 0) >= n &&
      (s.workers.find((w) => w.id === 'inference-0')?.counters.wrongKeyMessages ?? 0) >= n &&
      (s.remote?.wrongKeyMessages ?? 0) >= 3 * n,
    10_000,
    'the drops in status',
  );
  const counter = (id: string, name: string) => status.workers.find((w) => w.id === id)?.counters[name];
  assert.equal(counter('replay-0', 'wrongKeyMessages'), n);
  assert.equal(counter('inference-0', 'wrongKeyMessages'), n);
  assert.equal(status.remote?.wrongKeyMessages, 3 * n, JSON.stringify(status.remote));
  // Replay received one trajectory and kept it; nothing of env-r1's reached the remote worker.
  assert.equal(counter('replay-0', 'received'), 1);
  assert.equal(counter('replay-0', 'kept'), 1);
  assert.deepEqual([...new Set(reachedRemote)], ['env-r0/mine-relay']);
  for (const w of status.workers.filter((x) => !x.remote))
    assert.ok(w.state === 'ready' && w.restarts === 0, JSON.stringify(w));

  const logOf = (name: string) => readFileSync(path.join(run.runDir, 'logs', `${name}.jsonl`), 'utf8');
  const logs = {
    replay: logOf('replay-0'),
    inference: logOf('inference-0'),
    supervisor: logOf('supervisor'),
  };
  assert.match(logs.replay, /dropped a message on trajectories: key env-r1 spoke for env-r0/);
  assert.match(logs.inference, /dropped a message on act: key env-r1 spoke for env-r0/);
  assert.match(logs.supervisor, /dropped a message on the act relay: key env-r1 spoke for env-r0/);
  for (const log of Object.values(logs))
    for (const secret of [env0.secretKey, env1.secretKey, inference.secretKey])
      assert.ok(!log.includes(secret));
});
