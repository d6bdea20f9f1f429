// The act socket: an env worker asks for the policy's action on its page (env DEALER → inference
// ROUTER), and inference answers with the reply it chose and the policy version that chose it.
import { z } from 'zod';
import { bodyOf } from './codec.js';
import { Count, flagColumn, intColumn, Speaker, stringColumn, TokenUsage, WorkerId } from './fields.js';
import { ModelInput } from './model-input.js';

// --- act: env DEALER → inference ROUTER ----------------------------------------------------------

/** The optional node columns (senders before them stay valid); each, when present, is as long as `ids`. */
const OPTIONAL_NODE_COLUMNS = [
  'clickable',
  'focusable',
  'editable',
  'visible',
  'states',
  'fresh',
  'x',
  'y',
  'w',
  'h',
] as const;

/** An observation in WebArena's form plus a columnar node list for trainable policies. */
export const Observation = z.object({
  text: z.string(),
  url: z.string(),
  nodes: z
    .object({
      ids: intColumn,
      roles: stringColumn,
      names: stringColumn,
      depths: intColumn,
      /** 1 when the node's box intersects the viewport (a click elsewhere hits nothing) */
      inViewport: intColumn,
      /** 1 when Chrome's DOMSnapshot says the node takes clicks (isClickable; a text node: its parent element) */
      clickable: flagColumn.optional(),
      /** 1 when the node can take focus (AX focusable) */
      focusable: flagColumn.optional(),
      /** 1 when the node is editable text (AX editable) */
      editable: flagColumn.optional(),
      /** 1 when at least half the node's box is in the viewport (BrowserGym's visibility) */
      visible: flagColumn.optional(),
      /** the node's true AX states among checked selected expanded pressed disabled focused required,
       * space-separated in that order ('' when none; checked: mixed reads "mixed") */
      states: stringColumn.optional(),
      /** 1 when the node was not in the episode's previous observation of this document */
      fresh: flagColumn.optional(),
      /** the node's box in viewport CSS pixels, rounded (0 0 0 0 when unknown) */
      x: intColumn.optional(),
      y: intColumn.optional(),
      w: intColumn.optional(),
      h: intColumn.optional(),
    })
    .refine((n) => {
      const len = n.ids.length;
      if (n.roles.length !== len || n.names.length !== len || n.depths.length !== len) return false;
      if (n.inViewport.length !== len) return false;
      for (const key of OPTIONAL_NODE_COLUMNS) {
        const column = n[key];
        if (column !== undefined && column.length !== len) return false;
      }
      return true;
    }, 'node columns differ in length'),
  /** a note for the policy: an invalid action, a re-check request */
  note: z.string().nullable(),
  /** a JPEG screenshot travels as a raw frame; this says which one, if any */
  screenshotFrame: z.number().int().nonnegative().nullable(),
});
export type Observation = z.infer<typeof Observation>;

/** The actions a task offers beyond the page's own; absent, everything is (stop included). */
export const ActionOffers = z.object({
  /** `stop [answer]` / `ANSWER [text]`: MiniWoB++'s pages end episodes themselves and offer none */
  stop: z.boolean(),
  /**
   * going back and forward, `goto` and tabs (BrowserGym's nav and tab subsets): MiniWoB++'s task is
   * one page, and going back leaves it; absent, offered
   */
  navigation: z.boolean().optional(),
  /**
   * the pointer actions the task's page needs (a suite reads it from the page: MiniWoB++'s needs.ts):
   * `drag` offers `Drag [n] [m]` and `MouseDrag`, `point` offers `MouseClick [x] [y]`,
   * `text_selection` offers `MouseDrag` across a text, `stroke` offers `MouseDown`, `MouseMove` and
   * `MouseUp` at points (a press held across steps); absent, none is offered
   */
  pointer: z.array(z.enum(['drag', 'point', 'text_selection', 'stroke'])).optional(),
  /** the form of the answer: free text (absent), or WebArena-Verified's structured JSON response */
  answer: z.enum(['text', 'webarena-verified']).optional(),
});
export type ActionOffers = z.infer<typeof ActionOffers>;

/** What every act request carries, whatever the policy. */
const actRequestCommon = {
  type: z.literal('act_request'),
  /** the env worker that asks, and the key it speaks with: one credential cannot act in another's name */
  workerId: WorkerId,
  key: Speaker.optional(),
  episodeId: z.string(),
  step: Count,
  horizon: z.number().int().positive(),
  intent: z.string(),
  observation: Observation,
  /** this episode's earlier actions, oldest first */
  history: z.array(z.string()),
  greedy: z.boolean(),
  /** the episode's sampling temperature (its task assignment's) */
  temperature: z.number().nonnegative(),
  /**
   * this step's sampling seed (as vLLM's per-request seed): the same seed draws the same action
   * from the same logits, whatever the batch or arrival order; absent, inference's own stream
   */
  seed: Count.optional(),
  /** the actions the task offers (absent: stop is offered) */
  offers: ActionOffers.optional(),
  /** act under this held policy version (the episode's task assignment pins it); absent: the newest */
  policyVersion: Count.optional(),
};
/** An act request for the trainable (tfjs) policy. */
export const TfjsActRequest = z.object({
  ...actRequestCommon,
  policy: z.literal('tfjs'),
  /** the URL of each earlier step and its action with the element named by role and name
   * (src/model/trail.ts), oldest first */
  trail: z.array(z.object({ url: z.string(), action: z.string() })),
  /** this step's page as the model encoded it, in raw frames of the model's layout (absent: inference encodes it) */
  modelInput: ModelInput.optional(),
});
/** An act request for a chat policy: it is stateless, so the request carries the episode's context. */
export const ChatActRequest = z.object({
  ...actRequestCommon,
  policy: z.literal('chat'),
  /** the task's site (prompt hints) */
  site: z.string(),
  /** the earlier replies in full, oldest first */
  replies: z.array(z.string()),
  /** the newest screenshots (this step's included) as raw JPEG frames, by step */
  screenshots: z.array(z.object({ step: Count, frame: Count })),
});
/**
 * A remote inference worker behind the act relay, every second: which worker is on this connection,
 * with the key it speaks with. The relay sends requests only to workers so announced, and takes each
 * reply only from the connection its request went to.
 */
export const ActReady = z.object({
  type: z.literal('act_ready'),
  workerId: WorkerId,
  key: Speaker.optional(),
});
export const ACT_READY_EVERY_MS = 1000;

/** An `act_ready` announcement, read as claimOf reads (undecoded, this version's); null for anything else. */
export function actReadyOf(frames: readonly Buffer[]): z.infer<typeof ActReady> | null {
  const parsed = ActReady.safeParse(bodyOf(frames));
  return parsed.success ? parsed.data : null;
}
/** An act request, by the kind of policy it is for: each kind's inputs are its own. */
export const ActRequest = z.discriminatedUnion('policy', [TfjsActRequest, ChatActRequest]);
export const ActReply = z.object({
  type: z.literal('act_reply'),
  episodeId: z.string(),
  step: Count,
  /** the raw policy output, e.g. TTI's `Thought: … Action: …` reply */
  reply: z.string(),
  policyVersion: Count,
  usage: TokenUsage.optional(),
  /** the tfjs policy's critic: the episode's expected reward from this page (what a search ranks pages by) */
  value: z.number().optional(),
  /** the tfjs policy: the action's log-probability under the distribution it was drawn from */
  logProb: z.number().optional(),
});

export type ActRequestMessage = z.infer<typeof ActRequest>;
export type TfjsActRequestMessage = z.infer<typeof TfjsActRequest>;
export type ChatActRequestMessage = z.infer<typeof ChatActRequest>;
export type ActReplyMessage = z.infer<typeof ActReply>;
