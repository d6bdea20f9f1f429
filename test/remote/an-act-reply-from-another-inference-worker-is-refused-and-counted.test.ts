// The supervisor's act relay sends each env request to one inference worker behind it and takes
// the reply from that worker's connection only. Real processes and real CURVE sockets: a run that
// listens (`train --detach --listen`), two inference credentials behind its relay (each announces
// itself with `act_ready`, as a remote inference worker does) and an env credential in front.
// For every request, the worker it did not go to answers first, in the asker's name (its routing
// id, episode and step, as if it had guessed them): that reply is refused, counted in status and
// logged naming both workers; the right worker's reply, sent after it, is the one the env gets.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  type ActRequestMessage,
  Channel,
  Inbound,
  RejectedFrames,
  Requester,
  type StatusSnapshot,
} from '../../src/protocol/index.js';
import { issueCredential, RunDir, readSupervisorInfo } from '../../src/run/index.js';
import { freePortBlock } from '../helpers/free-port-block.js';
import { actRequest, keyOf, tuningOf } from '../helpers/remote-act.js';
import { detachedRun, listeningTrainArgs, runCli } from '../helpers/run-fixture.js';

const reply = (episodeId: string, by: string) => ({
  type: 'act_reply',
  episodeId,
  step: 0,
  reply: `Action: stop [${by}]`,
  policyVersion: 0,
});

test('an act reply from an inference worker the request did not go to is refused and counted; the right one goes through', {
  timeout: 180_000,
}, async (t) => {
  const { run, closers } = detachedRun(t);
  const env = issueCredential(run.runDir, 'env');
  const inference = [issueCredential(run.runDir, 'inference'), issueCredential(run.runDir, 'inference')];
  const port = await freePortBlock();
  const started = await runCli(
    listeningTrainArgs(run.runDir, `tcp://127.0.0.1:${port}`, [
      'workers.env=0',
      'workers.inference=1',
      'remote.env=1',
      'remote.inference=2',
      'supervisor.heartbeat_interval_ms=200',
      'supervisor.heartbeat_timeout_ms=60000',
      'supervisor.shutdown_timeout_ms=5000',
      'log_level=info',
    ]),
  );
  assert.equal(started.code, 0, started.stderr);
  await run.waitFor((s: StatusSnapshot) => s.state === 'running', 90_000, 'the run');
  const relay = readSupervisorInfo(new RunDir(run.runDir)).endpoints.relay;
  assert.ok(relay !== undefined);

  // Two inference workers behind the relay, each on its own credential, saying who it is every
  // second. Neither answers by itself: the test says which answers what, and when.
  const rejected = new RejectedFrames(() => undefined);
  const received = new Map<string, { by: number; peer: Buffer; message: ActRequestMessage }>();
  const behind = inference.map((c, i) => {
    const channel = Channel.create('act', 'routed-dealer', Inbound.actToInference, rejected, tuningOf(c));
    closers.push(() => channel.close());
    channel.connect(relay.back);
    const ready = { type: 'act_ready', workerId: c.id, key: keyOf(c) };
    const every = setInterval(() => void channel.send(ready).catch(() => undefined), 1000);
    closers.unshift(() => clearInterval(every));
    void channel.send(ready);
    void channel.serve(({ message, peer }) => {
      if (peer !== null) received.set(message.episodeId, { by: i, peer, message });
    });
    return channel;
  });

  const front = Channel.create('act', 'dealer', Inbound.actToEnv, rejected, tuningOf(env));
  front.connect(relay.front);
  const asker = new Requester(front);
  closers.push(() => asker.close());
  const replies: string[] = [];
  /** One request; whoever did not get it answers first in the asker's name, then the right one. */
  const round = async (episodeId: string) => {
    const answered = asker.request(
      actRequest(env.id, keyOf(env), episodeId),
      (m) => m.episodeId === episodeId,
      20_000,
    );
    for (let i = 0; i < 60 && !received.has(episodeId); i++) await sleep(50);
    const got = received.get(episodeId);
    if (got === undefined) return { got, answer: null };
    const other = behind[1 - got.by] as Channel<typeof Inbound.actToInference>;
    await other.sendTo(got.peer, reply(episodeId, `impostor ${inference[1 - got.by]?.id}`));
    await sleep(500);
    await (behind[got.by] as Channel<typeof Inbound.actToInference>).sendTo(
      got.peer,
      reply(episodeId, `owner ${inference[got.by]?.id}`),
    );
    const answer = await answered;
    if (answer !== null) replies.push(answer.message.reply);
    return { got, answer };
  };

  // The relay drops a request while no worker has announced itself yet: asked again, as env does.
  let first = await round('e0');
  for (let attempt = 1; attempt < 10 && first.got === undefined; attempt++)
    first = await round(`e0-${attempt}`);
  assert.ok(first.got !== undefined, 'no request reached a worker behind the relay');
  // Requests go in turn: within a few more, each worker has had one, so each was the impostor once.
  const owners = new Set([first.got.by]);
  for (let n = 1; n < 6 && owners.size < 2; n++) {
    const r = await round(`e${n}`);
    assert.ok(r.got !== undefined, `e${n} reached no worker`);
    owners.add(r.got.by);
  }
  assert.equal(owners.size, 2, 'the relay sent every request to the same worker');
  assert.ok(replies.length >= 2);
  for (const r of replies) assert.match(r, /^Action: stop \[owner /, `the env got ${r}`);

  // A reply to nothing asked (an episode never requested) is refused too.
  const stray = behind[0] as Channel<typeof Inbound.actToInference>;
  const anyPeer = first.got.peer;
  await stray.sendTo(anyPeer, reply('never-asked', 'stray'));

  const refused = replies.length + 1;
  const status = await run.waitFor(
    (s) => (s.remote?.wrongWorkerReplies ?? 0) >= refused,
    10_000,
    'the refused replies in status',
  );
  assert.equal(status.remote?.wrongWorkerReplies, refused, JSON.stringify(status.remote));
  // the env side saw no second reply for any request (nothing stale: the impostors never reached it)
  await sleep(500);
  assert.equal(asker.staleReplies, 0);

  const log = readFileSync(path.join(run.runDir, 'logs', 'supervisor.jsonl'), 'utf8');
  const [a, b] = inference.map((c) => c.id);
  assert.match(
    log,
    new RegExp(
      `act relay: refused an act reply for episode e\\S* step 0 from (${a}: the request went to ${b}|${b}: the request went to ${a})`,
    ),
  );
});
