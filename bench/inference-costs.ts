// Where an action's time goes in the policy itself, in this process, by CPU time: the cost of a
// call whatever its size (an empty page: one candidate), and the cost per input at batch 1 and
// batch 16, split into featurizing (candidates + features) and the network, on the same pages the
// inference benchmark's clients send (decoded from msgpack, as the worker receives them). Batching
// can only save the per-call part, so act-per-input at batch 1 over batch 16 bounds what dynamic
// batching can gain, whatever the transport and batcher do.
import { loadavg } from 'node:os';
import { pack, unpack } from 'msgpackr';
import {
  encodeObservation,
  loadBackend,
  type PolicyInput,
  seededRandom,
  TfjsPolicy,
} from '../src/model/index.js';

const NO_EXCLUSIONS: ReadonlySet<number>[] = Array.from({ length: 16 }, () => new Set<number>());

import { type PageSource, toPolicyInput } from './inference-pages.js';

export interface ModelCosts {
  method: string;
  candidatesPerPage: number;
  /** CPU ms of act([an empty page]) — the per-call part */
  perCallMs: number;
  /** CPU ms per input of act at batch 1 and 16 */
  actPerInputMs: { batch1: number; batch16: number };
  /** at batch 16, CPU ms per input of featurizing and of the network (grouped forward passes and decisions) */
  batch16PerInputMs: { encode: number; network: number };
  /** actPerInputMs.batch1 / actPerInputMs.batch16: what batching can gain at most */
  ceiling: number;
  loadavg: number[];
}

const cpuMs = (): number => {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export async function modelCosts(source: PageSource, rounds = 7): Promise<ModelCosts> {
  await loadBackend('auto');
  const policy = TfjsPolicy.create({ seed: 1 });
  let n = 0;
  // Through msgpack, as the worker gets them: new string objects every request.
  const page = (): PolicyInput =>
    unpack(pack(toPolicyInput(source.ask(n % 16, Math.floor(n++ / 16))))) as PolicyInput;
  const pages = (k: number) => Array.from({ length: k }, page);
  const empty: PolicyInput = {
    ...page(),
    nodes: { ids: [], roles: [], names: [], depths: [], inViewport: [] },
  };
  const options = { greedy: false, temperature: 1, random: seededRandom(1) };
  for (let k = 0; k < 20; k++) policy.act(pages(16), options); // warm-up: JIT, kernels
  const perCall: number[] = [];
  const one: number[] = [];
  const sixteen: number[] = [];
  const encode: number[] = [];
  const network: number[] = [];
  for (let r = 0; r < rounds; r++) {
    let t = cpuMs();
    for (let k = 0; k < 200; k++) policy.act([empty], options);
    perCall.push((cpuMs() - t) / 200);
    let used = 0;
    for (let k = 0; k < 48; k++) {
      const batch = pages(1);
      t = cpuMs();
      policy.act(batch, options);
      used += cpuMs() - t;
    }
    one.push(used / 48);
    used = 0;
    let f = 0;
    let w = 0;
    for (let k = 0; k < 3; k++) {
      const batch = pages(16);
      t = cpuMs();
      policy.act(batch, options);
      used += cpuMs() - t;
      const again = pages(16);
      t = cpuMs();
      const observations = again.map((input) =>
        encodeObservation(input, { buckets: policy.options.buckets }),
      );
      const t2 = cpuMs();
      // as the worker runs it: grouped by candidate count (policy.ts sizeGroups), then decided
      policy.actOn(observations, NO_EXCLUSIONS, options);
      f += t2 - t;
      w += cpuMs() - t2;
    }
    sixteen.push(used / 48);
    encode.push(f / 48);
    network.push(w / 48);
  }
  const candidatesPerPage = policy.encode(pages(64)).sizes.reduce((a, n) => a + n, 0) / 64;
  policy.dispose();
  const batch1 = median(one);
  const batch16 = median(sixteen);
  return {
    method:
      `in the bench process, CPU time (process.cpuUsage), medians of ${rounds} rounds; ` +
      `the clients' pages (${source.kind}), msgpack-decoded`,
    candidatesPerPage,
    perCallMs: median(perCall),
    actPerInputMs: { batch1, batch16 },
    batch16PerInputMs: { encode: median(encode), network: median(network) },
    ceiling: batch1 / batch16,
    loadavg: loadavg().map((x) => Math.round(x * 100) / 100),
  };
}
