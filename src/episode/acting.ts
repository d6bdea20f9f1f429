// The policy as an env worker asks it: one act request per step, built from the page and the
// episode's earlier steps, with the trainable policy's features made here where the page is
// (model.featurize env) as frames of the model's layout, and a chat policy's newest screenshots,
// all as raw frames.
import { type Observation, observationColumns, ttiActionText } from '../envs/index.js';
import {
  actionSignature,
  featuresOf,
  type PolicyFeatures,
  packModelInput,
  type TrailStep,
} from '../model/without-tfjs.js';
import type {
  ActionOffers,
  ActReplyMessage,
  ActRequestMessage,
  ChatActRequestMessage,
  SpeakerKey,
  TaskAssignmentMessage,
  TfjsActRequestMessage,
  Observation as WireObservation,
} from '../protocol/index.js';
import type { Decision, Taken } from '../search/index.js';
import { mixSeeds } from '../util/index.js';
import { policyInputOf } from './policy-input.js';

/** What an episode's requests share: its instruction, its site, and a chat policy's token usage. */
export interface EpisodeContext {
  intent: string;
  site: string;
  usage: { promptTokens: number; completionTokens: number };
  /** the actions the episode's task offers: the suite's, with its page's pointer needs */
  offers: ActionOffers;
}

/** What acting needs of its worker. */
export interface ActingWorker {
  workerId: string;
  signature: { key?: SpeakerKey };
  /** a chat policy: screenshots and replies travel; else the trainable policy's trail */
  chatPolicy: boolean;
  /** the trainable policy's features are made here (model.featurize env) */
  featurizeHere: boolean;
  /** how many of the newest screenshots a chat policy keeps (chat.max_images) */
  maxImages: number;
  viewport: { width: number; height: number };
  offers: ActionOffers;
  /** how long inference has to answer one step (env.act_timeout_ms) */
  actTimeoutMs: number;
  /** one act request, sent again until an inference worker answers; null: none did in time */
  ask(
    request: ActRequestMessage,
    matches: (reply: ActReplyMessage) => boolean,
    frames: readonly Buffer[],
  ): Promise<{ message: ActReplyMessage } | null>;
  count(key: string, by?: number): void;
  /** ends the env's episode unfinished (no action came) */
  abandon(): Promise<void>;
}

/** How a decision is drawn: which rollout of the episode asks, and what the policy must not draw. */
export interface DecideOptions {
  /** the episode's rollout (0: the plain episode; a search's later ones draw apart from it) */
  rollout?: number;
  /** answers a stop probe scored failures on this page */
  failedAnswers?: ReadonlySet<string>;
  /** signatures of the actions a search tried from this page already */
  avoid?: ReadonlySet<string>;
  /** the assignment's sampling, overridden (a test-time search samples its later rollouts) */
  sampling?: Pick<TaskAssignmentMessage, 'greedy' | 'temperature'>;
}

function toWire(observation: Observation, viewport: { width: number; height: number }): WireObservation {
  return {
    text: observation.text,
    url: observation.url,
    nodes: observationColumns(observation.nodes, viewport),
    note: observation.notes.length > 0 ? observation.notes.join('\n') : null,
    screenshotFrame: null,
  };
}

export class Acting {
  /** The env's page as the wire carries it (made once per page: trails read earlier pages again). */
  private readonly wires = new WeakMap<Observation, WireObservation>();
  /** The page's features, encoded once per page: a search, a stop probe and the request read them. */
  private featured: { observation: Observation; steps: number; features: PolicyFeatures } | null = null;

  /** The newest policy version an act reply of this worker has named (what its next step acts under, about). */
  private newestVersion = 0;

  constructor(private readonly worker: ActingWorker) {}

  /** The version a step not chosen by the policy is recorded under: the pinned one, else the newest served. */
  servedVersion(assignment: TaskAssignmentMessage): number {
    return assignment.policyVersion ?? this.newestVersion;
  }

  wireOf(observation: Observation): WireObservation {
    let wire = this.wires.get(observation);
    if (wire === undefined) {
      wire = toWire(observation, this.worker.viewport);
      this.wires.set(observation, wire);
    }
    return wire;
  }

  /** The act request for `observation` after the episode's earlier steps (`taken`), and its frames. */
  requestOf(
    assignment: TaskAssignmentMessage,
    context: EpisodeContext,
    observation: Observation,
    taken: readonly Taken[],
    rollout: number,
  ) {
    const { chatPolicy, maxImages } = this.worker;
    const step = taken.length;
    // A search's rollouts each have their own id, so a late reply to one never answers another.
    const actingAs = rollout === 0 ? assignment.episodeId : `${assignment.episodeId}~${rollout}`;
    const wire = this.wireOf(observation);
    const history = taken.map((t) => ttiActionText(t.reply));
    const common = {
      type: 'act_request' as const,
      // inference answers only the worker a request names, by that worker's key
      workerId: this.worker.workerId,
      ...this.worker.signature,
      episodeId: actingAs,
      step,
      horizon: assignment.horizon,
      intent: context.intent,
      observation: wire,
      history,
      greedy: assignment.greedy,
      temperature: assignment.temperature,
      // a search's later rollouts draw apart from its first, which is the plain episode's
      seed: rollout === 0 ? mixSeeds(assignment.seed, step) : mixSeeds(assignment.seed, step, rollout),
      offers: context.offers,
      // an eval pinned to a snapshot of the weights asks for that version at every step
      ...(assignment.policyVersion === undefined ? {} : { policyVersion: assignment.policyVersion }),
    };
    const frames: Buffer[] = [];
    let request: TfjsActRequestMessage | ChatActRequestMessage;
    if (chatPolicy) {
      // The newest screenshots, by step, for a chat policy's context (it keeps chat.max_images).
      const shots = [...taken.map((t) => t.observation), observation]
        .map((o, s) => ({ step: s, jpeg: o.screenshot }))
        .filter((s) => s.jpeg && s.step > step - maxImages);
      const screenshots = shots.map((s) => ({ step: s.step, frame: frames.push(s.jpeg!) - 1 }));
      request = {
        ...common,
        policy: 'chat',
        site: context.site,
        replies: taken.map((t) => t.reply),
        screenshots,
      };
    } else {
      const trail: TrailStep[] = taken.map((t, i) => {
        const w = this.wireOf(t.observation);
        return { url: w.url, action: actionSignature(history[i]!, w.nodes) };
      });
      request = { ...common, policy: 'tfjs', trail };
    }
    return { request, frames };
  }

  /** The page's features for the trainable policy (src/model/features.ts) after `taken`. */
  featuresAt(
    assignment: TaskAssignmentMessage,
    context: EpisodeContext,
    observation: Observation,
    taken: readonly Taken[],
  ): PolicyFeatures {
    const featured = this.featured;
    if (featured?.observation !== observation || featured.steps !== taken.length) {
      const { request } = this.requestOf(assignment, context, observation, taken, 0);
      this.featured = { observation, steps: taken.length, features: featuresOf(policyInputOf(request)) };
    }
    return this.featured!.features;
  }

  /**
   * The policy's action on `observation` after the episode's earlier steps (`taken`): one act
   * request, sent again until an inference worker answers.
   */
  async decide(
    assignment: TaskAssignmentMessage,
    context: EpisodeContext,
    observation: Observation,
    taken: readonly Taken[],
    o: DecideOptions = {},
  ): Promise<Decision> {
    const worker = this.worker;
    const asked = o.sampling ? { ...assignment, ...o.sampling } : assignment;
    const failedAnswers = o.failedAnswers ?? new Set<string>();
    const avoid = o.avoid ?? new Set<string>();
    const { request, frames } = this.requestOf(asked, context, observation, taken, o.rollout ?? 0);
    const { episodeId: actingAs, step } = request;
    const nodes = request.observation.nodes;
    let features = worker.featurizeHere ? this.featuresAt(asked, context, observation, taken) : undefined;
    // answers a stop probe scored failures here, and the actions a search tried from this page
    // already, are not drawn while another action is left
    if (features && (failedAnswers.size > 0 || avoid.size > 0)) {
      const left = features.candidates.flatMap((c, i) =>
        (c.kind === 'answer' && failedAnswers.has(c.text)) || avoid.has(actionSignature(c.action, nodes))
          ? [i]
          : [],
      );
      features = { ...features, excluded: [...new Set([...features.excluded, ...left])] };
    }
    // The features travel as frames of the model's own layout; the protocol carries them unread.
    const asking =
      features && request.policy === 'tfjs'
        ? { ...request, modelInput: packModelInput(features, frames) }
        : request;
    const reply = await worker.ask(asking, (m) => m.episodeId === actingAs && m.step === step, frames);
    if (reply === null) {
      await worker.abandon();
      throw new Error(`no action from inference within ${worker.actTimeoutMs} ms`);
    }
    if (reply.message.usage) {
      context.usage.promptTokens += reply.message.usage.promptTokens;
      context.usage.completionTokens += reply.message.usage.completionTokens;
      worker.count('promptTokens', reply.message.usage.promptTokens);
      worker.count('completionTokens', reply.message.usage.completionTokens);
    }
    this.newestVersion = Math.max(this.newestVersion, reply.message.policyVersion);
    return {
      reply: reply.message.reply,
      policyVersion: reply.message.policyVersion,
      signature: actionSignature(ttiActionText(reply.message.reply), nodes),
      ...(reply.message.value === undefined ? {} : { value: reply.message.value }),
      ...(reply.message.logProb === undefined ? {} : { logProb: reply.message.logProb }),
    };
  }
}
