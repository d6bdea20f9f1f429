// The pages the inference benchmark's env-like clients send. With MiniArena's recorded oracle
// steps at hand (the demos cache of experiments/oracle-demos, bench/demos-cache.ts, as the learner bench uses),
// each client walks through recorded episodes in order, as an env worker would: real pages,
// tasks and histories, whose strings recur across steps the way a site's do. Without them, the
// typical 300-node observation as page after page of one site whose content names are new every
// time, so the worker's string memos (src/model/text-memo.ts) hit only the header and menu.
import { existsSync } from 'node:fs';
import type { PolicyInput } from '../src/model/index.js';
import type { Observation } from '../src/protocol/index.js';
import { DEMOS_CACHE, readDemosCache } from './demos-cache.js';
import { typicalObservation } from './observation-fixture.js';

export const INTENT = 'What is the price of the Alderon Pro espresso machine?';

/** Nodes 0–29 are the site's header and menu, the same on every page; the rest is the page's content. */
const HEADER_NODES = 30;

/** The typical observation as page `tag` of the site: its content names are new, its header's are not. */
export function pageOf(base: Observation, tag: string): Observation {
  const names = base.nodes.names.map((n, i) => (n && i >= HEADER_NODES ? `${n} ${tag}` : n));
  // The text (what a chat-model policy would read) stays the typical page's: same size, and
  // rewriting it per request would make the clients, not the worker, the bench's bottleneck.
  return { ...base, nodes: { ...base.nodes, names } };
}

/** What an env worker puts in an act request. */
export interface Ask {
  intent: string;
  observation: Observation;
  history: string[];
  step: number;
  horizon: number;
}

export interface PageSource {
  kind: 'demos' | 'synthetic';
  /** Client `client`'s `k`-th request. */
  ask(client: number, k: number): Ask;
}

export function toPolicyInput(a: Ask): PolicyInput {
  const o = a.observation;
  return {
    intent: a.intent,
    url: o.url,
    nodes: o.nodes,
    history: a.history,
    step: a.step,
    horizon: a.horizon,
    note: o.note,
  };
}

/** The demos cache when it exists (`$TTI_DEMOS`, else /tmp/tti-demos.json), else synthetic pages. */
export function pageSource(clients: number, demos = DEMOS_CACHE): PageSource {
  const base = typicalObservation();
  if (existsSync(demos)) {
    const steps = readDemosCache(demos).flatMap((d) => d.steps.map((s) => s.input));
    const stride = Math.max(1, Math.floor(steps.length / clients));
    return {
      kind: 'demos',
      ask(client, k) {
        const s = steps[(client * stride + k) % steps.length]!;
        return {
          intent: s.intent,
          // the typical page's text sizes the request (the policy reads the node columns)
          observation: { text: base.text, url: s.url, nodes: s.nodes, note: s.note, screenshotFrame: null },
          history: s.history,
          step: s.step,
          horizon: s.horizon,
        };
      },
    };
  }
  return {
    kind: 'synthetic',
    ask: (client, k) => ({
      intent: INTENT,
      observation: pageOf(base, `${client}-${k}`),
      history: [],
      step: 1,
      horizon: 30,
    }),
  };
}
