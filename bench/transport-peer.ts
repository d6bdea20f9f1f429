// The far end of the transport benchmark, in its own process.
//   ours <endpoint>:    an act server on our Channel (validating every request), replying act_reply
//   bare <endpoint>:    the same over a bare zeromq ROUTER with msgpackr, no validation
//   weights <endpoint> <ack>: subscribes to weights, acknowledges each complete message on <ack>
import { pack, unpack } from 'msgpackr';
import * as zmq from 'zeromq';
import { Inbound } from '../src/protocol/index.js';
import { Channel, RejectedFrames } from '../src/protocol/transport.js';

const [mode, endpoint, ackEndpoint] = process.argv.slice(2);
if (!endpoint) throw new Error('usage: transport-peer ours|bare|weights ENDPOINT [ACK]');
const rejected = new RejectedFrames((m) => process.stderr.write(`${m}\n`));
setInterval(() => {
  if (process.ppid === 1) process.exit(0);
}, 500);
// A clean exit on SIGINT lets `--cpu-prof` write its profile.
process.on('SIGINT', () => process.exit(0));
// The parent asks for this process's CPU time, to compare work per message independent of load.
process.on('message', () => {
  const { user, system } = process.cpuUsage();
  process.send?.({ cpuUs: user + system });
});

if (mode === 'ours') {
  const act = Channel.create('act', 'router', Inbound.actToInference, rejected);
  await act.bind(endpoint);
  process.send?.('ready');
  await act.serve(async ({ message, peer }) => {
    if (peer === null) return;
    await act.sendTo(peer, {
      type: 'act_reply',
      episodeId: message.episodeId,
      step: message.step,
      reply: 'Thought: the search box is there.\nAction: Type [1042] [espresso machine]',
      policyVersion: 1,
    });
  });
} else if (mode === 'bare') {
  const router = new zmq.Router({ linger: 0 });
  await router.bind(endpoint);
  process.send?.('ready');
  for await (const [peer, frame] of router) {
    const request = unpack(frame!) as { episodeId: string; step: number };
    await router.send([
      peer!,
      pack({
        type: 'act_reply',
        episodeId: request.episodeId,
        step: request.step,
        reply: 'Thought: the search box is there.\nAction: Type [1042] [espresso machine]',
        policyVersion: 1,
      }),
    ]);
  }
} else if (mode === 'weights') {
  if (!ackEndpoint) throw new Error('weights mode needs an ack endpoint');
  const sub = Channel.create('weights', 'sub', Inbound.weightsToInference, rejected);
  sub.connect(endpoint);
  const ack = new zmq.Push({ linger: 0 });
  ack.connect(ackEndpoint);
  process.send?.('ready');
  await sub.serve(async ({ message, raw }) => {
    const bytes = raw.reduce((n, f) => n + f.byteLength, 0);
    await ack.send(pack({ policyVersion: message.policyVersion, bytes }));
  });
}
