// The inference role with a chat-model policy (policy_lm other than 'tfjs'): each act request
// becomes one chat completion on an OpenAI-compatible endpoint (vLLM), at most `chat.concurrency`
// in flight. The request carries everything the prompt needs (earlier replies, newest
// screenshots), so any inference worker, or a restarted one, can answer any step. A new policy
// version is a new served model name, announced by the learner on the weights socket. A request is
// answered only for the env worker it names, by that worker's key (src/run/speaker-check.ts).

import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import {
  apiKeyFrom,
  ChatClient,
  type ChatDecision,
  ChatPolicy,
  type EpisodeContext,
  jpegDataUrl,
  loadPromptTemplates,
} from '../../model/chat/index.js';
import { type ActRequestMessage, Channel, Inbound } from '../../protocol/index.js';
import { actSocket } from './act-socket.js';
import { ConcurrencyLimit } from './concurrency-limit.js';
import type { RoleContext, RoleProcess } from './worker-shell.js';

/** The file where the learner records the served model of the latest version (a restarted worker reads it). */
export const SERVED_MODEL_FILE = 'served-model.json';
/** Versions whose served model a worker remembers for pinned requests. */
const HELD_VERSIONS = 8;

/** Replies kept for act requests the env sends again (it resends while a slow completion runs). */
const RECENT_REPLIES = 512;

export function readServedModel(runDir: string | null): { policyVersion: number; model: string } | null {
  if (runDir === null) return null;
  const file = path.join(runDir, SERVED_MODEL_FILE);
  if (!existsSync(file)) return null;
  const json = JSON.parse(readFileSync(file, 'utf8')) as { policyVersion?: unknown; model?: unknown };
  if (typeof json.policyVersion !== 'number' || typeof json.model !== 'string')
    throw new Error(`${file}: expected {"policyVersion": number, "model": string}`);
  return { policyVersion: json.policyVersion, model: json.model };
}

function contextOf(message: ActRequestMessage, frames: readonly Buffer[]): EpisodeContext {
  // a request for the trainable policy (a misconfigured peer) carries none of a chat policy's context
  const chat = message.policy === 'chat' ? message : null;
  const images = new Map<number, string>();
  for (const s of chat?.screenshots ?? []) {
    const frame = frames[s.frame];
    if (frame !== undefined) images.set(s.step, jpegDataUrl(frame));
  }
  return {
    intent: message.intent,
    site: chat?.site ?? 'general',
    url: message.observation.url,
    observation: message.observation.text,
    note: message.observation.note,
    replies: chat?.replies ?? message.history,
    images,
    ...(message.offers ? { offers: message.offers } : {}),
  };
}

export async function chatInferenceRole(ctx: RoleContext): Promise<RoleProcess> {
  const chat = ctx.config.chat;
  const templates = loadPromptTemplates(chat.prompt);
  const client = new ChatClient({
    baseUrl: chat.base_url,
    apiKey: apiKeyFrom(chat.api_key_env),
    timeoutMs: chat.timeout_ms,
    maxRetries: chat.max_retries,
    backoffInitialMs: chat.backoff_initial_ms,
    backoffMaxMs: chat.backoff_max_ms,
    onRetry: (why, attempt, delayMs) => {
      ctx.counters.retries = (ctx.counters.retries ?? 0) + 1;
      ctx.log.warn(`chat request retry ${attempt} in ${Math.round(delayMs)} ms: ${why}`);
    },
  });
  const policy = new ChatPolicy(client, templates, {
    topP: chat.top_p,
    maxTokens: chat.max_tokens,
    maxImages: chat.max_images,
  });
  let model = ctx.config.policy_lm;
  let policyVersion = 0;
  const served = readServedModel(ctx.runDir);
  if (served !== null) ({ model, policyVersion } = served);
  // The served model of each recent version: an eval pinned to one (the asynchronous loop's
  // snapshot) is answered by that model while collection moves on to newer ones.
  const models = new Map<number, string>();
  const setModel = (name: string, version: number) => {
    model = name;
    policyVersion = version;
    models.set(version, name);
    for (const old of models.keys()) if (models.size > HELD_VERSIONS) models.delete(old);
    ctx.counters.policyVersion = version;
    ctx.labels.model = name;
  };
  setModel(model, policyVersion);
  ctx.labels.backend = 'chat endpoint';
  ctx.log.info(`chat policy v${policyVersion}: model ${model} at ${chat.base_url} (prompt ${chat.prompt})`);

  const socket = actSocket(ctx);
  const act = socket.channel;
  await socket.open();
  const weights = Channel.create('weights', 'sub', Inbound.weightsToInference, ctx.rejected, ctx.tuning);
  weights.connect(ctx.endpoints.weights);
  void weights.serve(({ message }) => {
    if (message.policyVersion <= policyVersion || message.model === undefined) return;
    setModel(message.model, message.policyVersion);
    ctx.log.info(`weights v${policyVersion} swapped in: now serving model ${model}`);
  });

  const limit = new ConcurrencyLimit(chat.concurrency);
  // One completion per (episode, step): a resend while it runs, or just after, gets the same reply.
  const decisions = new Map<string, Promise<ChatDecision & { policyVersion: number }>>();
  const count = (key: string, by = 1) => {
    ctx.counters[key] = (ctx.counters[key] ?? 0) + by;
  };
  const decide = (message: ActRequestMessage, frames: readonly Buffer[]) => {
    const key = `${message.episodeId}#${message.step}`;
    let decision = decisions.get(key);
    if (decision === undefined) {
      decision = limit.run(async () => {
        const pinned = message.policyVersion === undefined ? undefined : models.get(message.policyVersion);
        if (message.policyVersion !== undefined && pinned === undefined) count('pinnedMissing');
        const version = pinned === undefined ? policyVersion : message.policyVersion!;
        const started = performance.now();
        ctx.setBusy(true);
        try {
          const d = await policy.decide(contextOf(message, frames), pinned ?? model, {
            temperature: message.temperature,
            seed: message.seed,
          });
          count('actions');
          count('promptTokens', d.usage.promptTokens);
          count('completionTokens', d.usage.completionTokens);
          ctx.counters.lastReplyMs = Math.round(performance.now() - started);
          return { ...d, policyVersion: version };
        } catch (error) {
          // The endpoint kept failing past the retries: an empty reply, which the env reads as an
          // invalid action (its early stop ends an episode that gets nothing but these).
          count('chatFailures');
          ctx.log.error(`no reply for ${key}: ${(error as Error).message}`);
          decisions.delete(key);
          return {
            reply: '',
            usage: { promptTokens: 0, completionTokens: 0 },
            attempts: 0,
            policyVersion: version,
          };
        } finally {
          ctx.setBusy(limit.inFlight > 1);
          ctx.counters.inFlight = limit.inFlight - 1;
        }
      });
      decisions.set(key, decision);
      if (decisions.size > RECENT_REPLIES) {
        const oldest = decisions.keys().next().value;
        if (oldest !== undefined) decisions.delete(oldest);
      }
    } else {
      count('resendsAnswered');
    }
    return decision;
  };

  const serving = act.serve(({ message, raw, peer }) => {
    if (peer === null || !ctx.speaks(message, 'act')) return;
    ctx.counters.inFlight = limit.inFlight;
    void decide(message, raw).then((d) =>
      act
        .sendTo(peer, {
          type: 'act_reply',
          episodeId: message.episodeId,
          step: message.step,
          reply: d.reply,
          policyVersion: d.policyVersion,
          usage: d.usage,
        })
        .catch((error: Error) => ctx.log.warn(`act reply lost: ${error.message}`)),
    );
  });

  return {
    async stop() {
      await limit.drained();
      act.close();
      weights.close();
      await serving.catch(() => undefined);
    },
  };
}
