// The protocol carries the trainable policy's inputs as frames of a layout the model owns. An
// inference worker sent a layout or a version it does not know, or frames torn on the way, does not
// crash and does not guess: it counts the request (`featuresRejected`), logs the layout once, and
// acts on the page encoded itself, the same action the raw page gets. The real inference role, on
// a real ZeroMQ ROUTER in this process, with real tfjs.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { after, test } from 'node:test';
import winston from 'winston';
import { inferenceRole } from '../../src/actors/roles/inference-role.js';
import type { RoleContext } from '../../src/actors/roles/worker-shell.js';
import { loadConfig } from '../../src/config/index.js';
import { featuresOf, type PolicyInput, packModelInput } from '../../src/model/without-tfjs.js';
import { Channel, DEFAULT_TUNING, Inbound, RejectedFrames, Requester } from '../../src/protocol/index.js';
import { projectRoot } from '../../src/util/paths.js';

const dir = mkdtempSync(path.join(tmpdir(), 'tti-model-input-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const real = JSON.parse(
  readFileSync(path.join(projectRoot, 'test', 'model', 'real-observations.json'), 'utf8'),
) as { steps: { input: PolicyInput }[] };
// the page as an act request carries it (a trail of its own, never one rebuilt from the history)
const input: PolicyInput = { ...real.steps[0]!.input, trail: real.steps[0]!.input.trail ?? [] };

const logged: string[] = [];
const log = winston.createLogger({
  level: 'debug',
  format: winston.format.printf((i) => `${i.level} ${String(i.message)}`),
  transports: [
    new winston.transports.Stream({
      stream: new Writable({
        write(chunk: Buffer, _encoding, done) {
          logged.push(chunk.toString());
          done();
        },
      }),
    }),
  ],
});

const ipc = (name: string) => `ipc://${path.join(dir, `${name}.sock`)}`;
const counters: Record<string, number> = {};
const ctx: RoleContext = {
  role: 'inference',
  workerId: 'inference-0',
  runId: 'model-input',
  runDir: null,
  remote: false,
  runPolicyVersion: 0,
  endpoints: {
    control: ipc('control'),
    tasks: ipc('tasks'),
    status: ipc('status'),
    events: ipc('events'),
    act: { 'inference-0': ipc('act') },
    trajectories: ipc('trajectories'),
    samples: ipc('samples'),
    weights: ipc('weights'),
    probe: {},
  },
  config: loadConfig(path.join(projectRoot, 'configs', 'miniarena.yaml'), ['model.max_wait_ms=0']),
  log,
  rejected: new RejectedFrames(() => undefined),
  tuning: { ...DEFAULT_TUNING, lingerMs: 0 },
  counters,
  labels: {},
  setBusy: () => undefined,
  setGrace: async () => undefined,
  signature: {},
  sendControl: async () => undefined,
  speaks: () => true,
};

test('an unknown layout, an unknown version and torn frames are each counted, logged and acted on from the page', async () => {
  const role = await inferenceRole(ctx);
  const channel = Channel.create(
    'act',
    'dealer',
    Inbound.actToEnv,
    new RejectedFrames(() => undefined),
    ctx.tuning,
  );
  channel.connect(ctx.endpoints.act['inference-0']!);
  const requester = new Requester(channel);
  let n = 0;
  /** The reply to one request for `input`, with `modelInput` and `frames` as given. */
  const ask = async (
    modelInput?: { layout: string; version: number; frames: number[] },
    frames: Buffer[] = [],
  ) => {
    const episodeId = `e${n++}`;
    const reply = await requester.request(
      {
        type: 'act_request',
        policy: 'tfjs',
        workerId: 'env-0',
        episodeId,
        step: input.step,
        horizon: input.horizon,
        intent: input.intent,
        observation: {
          text: '',
          url: input.url,
          nodes: input.nodes,
          note: input.note,
          screenshotFrame: null,
        },
        history: input.history,
        trail: input.trail!,
        greedy: true,
        temperature: 1,
        ...(modelInput ? { modelInput } : {}),
      },
      (m) => m.episodeId === episodeId,
      60_000,
      frames,
    );
    assert.ok(reply, `a reply to ${episodeId}`);
    return reply.message.reply;
  };
  try {
    const fromPage = await ask();
    const frames: Buffer[] = [];
    const good = packModelInput(featuresOf(input), frames);
    assert.equal(await ask(good, frames), fromPage, 'the env’s features give the page’s action');
    assert.equal(counters.featuresUsed, 1);
    assert.equal(counters.featuresRejected, undefined);

    assert.equal(await ask({ ...good, layout: 'token-ids' }, frames), fromPage);
    assert.equal(await ask({ ...good, layout: 'token-ids' }, frames), fromPage);
    assert.equal(await ask({ ...good, version: 2 }, frames), fromPage);
    assert.equal(await ask(good, [frames[0]!, frames[1]!.subarray(4), frames[2]!]), fromPage);
    assert.equal(counters.featuresRejected, 4, 'every refused request is counted');
    assert.equal(counters.featuresUsed, 1);
    const refusals = logged.filter((l) => l.includes('features were not used'));
    assert.equal(refusals.filter((l) => l.includes('token-ids v1 is not one this model reads')).length, 1);
    assert.equal(
      refusals.filter((l) => /\(tti-features v2: .*v2 is not one this model reads/.test(l)).length,
      1,
    );
    assert.equal(refusals.length, 3, 'a layout already logged is not logged again');
  } finally {
    requester.close();
    await role.stop(1000);
  }
});
