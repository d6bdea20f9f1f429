// The policy's inputs and outputs: what inference sends in and gets back, and what replay hands the
// learner. Plain data (numbers, strings, arrays) so it travels over msgpack unchanged.

/** The accessibility tree as columns, in the observation's (depth-first) order. */
export interface NodeColumns {
  /** The numbers the actions refer to (Chrome's AX node ids). */
  ids: number[];
  roles: string[];
  names: string[];
  depths: number[];
  /** 1 if the node's box intersects the viewport, else 0. */
  inViewport: number[];
  // The columns below are optional (older senders and recorded trajectories lack them); each, when
  // present, is as long as `ids`.
  /** 1 if Chrome's DOMSnapshot says the node takes clicks (isClickable; a text node: its parent element's). */
  clickable?: number[];
  /** 1 if the node can take focus (AX focusable). */
  focusable?: number[];
  /** 1 if the node is editable text (AX editable). */
  editable?: number[];
  /** 1 if at least half the node's box is in the viewport (BrowserGym's visibility). */
  visible?: number[];
  /**
   * The node's true AX states among checked, selected, expanded, pressed, disabled, focused,
   * required, space-separated in that order; '' when none; `checked: mixed` reads "mixed".
   */
  states?: string[];
  /** 1 if the node was not in the episode's previous observation of the same document (it appeared). */
  fresh?: number[];
  /** The node's box in viewport CSS pixels, rounded; 0, 0, 0, 0 when unknown. */
  x?: number[];
  y?: number[];
  w?: number[];
  h?: number[];
}

/** Which actions the task offers beyond the page's own (absent: all, stop included). */
export interface ActionOffers {
  /** `ANSWER [text]` (stop): MiniWoB++'s pages end episodes themselves and offer none. */
  stop: boolean;
  /** `GoBack` and the other ways off the page (absent: offered); MiniWoB++'s one-page tasks offer none */
  navigation?: boolean;
  /**
   * The pointer actions the page needs (MiniWoB++'s, read from its code): drag → `Drag [n] [m]` and
   * `MouseDrag`, point → `MouseClick [x] [y]`, text_selection → `MouseDrag` across a text, stroke →
   * `MouseDown`, `MouseMove` and `MouseUp` at points; absent: none.
   */
  pointer?: PointerOffer[];
}

/** A pointer action a page needs, as a suite reads it from the page. */
export type PointerOffer = 'drag' | 'point' | 'text_selection' | 'stroke';

/** An earlier step of the episode: the page's URL and the action, its element named by role and name. */
export interface TrailStep {
  url: string;
  action: string;
}

export interface PolicyInput {
  /** The task text. */
  intent: string;
  /** The current page's URL. */
  url: string;
  nodes: NodeColumns;
  /** This episode's previous actions as TTI action strings, oldest first. */
  history: string[];
  /** 0-based step index. */
  step: number;
  /** The episode's step budget. */
  horizon: number;
  /** The env's note (invalid action, re-check request), or null. */
  note: string | null;
  /** The earlier steps' pages and actions (trail.ts), when the env sends them. */
  trail?: TrailStep[];
  /** The actions the task offers (absent: stop is offered). */
  offers?: ActionOffers;
}

export interface ActOptions {
  /** Argmax instead of sampling (eval). */
  greedy: boolean;
  /** Sampling temperature (logits are divided by it); ignored when greedy. */
  temperature: number;
  /** Uniform [0, 1) source for sampling, so episodes are reproducible. */
  random: () => number;
}

export interface PolicyDecision {
  /** "Thought: …\nAction: <action>", TTI's reply format. */
  reply: string;
  /** The canonical action string (what follows "Action:"). */
  action: string;
  /** How many candidate actions the policy chose among. */
  candidates: number;
  /** Log-probability of the action under the distribution it was drawn from. */
  logProb: number;
  /** The critic's estimate of the episode's reward from this observation (absent: no critic). */
  value?: number;
}

/** Tensors as raw float32 frames (one per variable), as the weights socket carries them. */
export interface TensorFrames {
  specs: { name: string; dtype: 'float32'; shape: number[] }[];
  frames: Buffer[];
}

/** What the learner gets from replay: a kept trajectory (these fields exist on the wire). */
export interface TrajectoryForTraining {
  intent: string;
  horizon: number;
  /** The episode's reward as TTI's filter reads it: 1 for a success, else 0. */
  reward?: number;
  /** The page's own reward where it gives one (MiniWoB++'s raw reward, −1…1). */
  rawReward?: number;
  /** The page's time-discounted reward (MiniWoB++'s WOB_REWARD_GLOBAL). */
  discountedReward?: number;
  /** The actions the episode's task offered (absent: stop is offered). */
  offers?: ActionOffers;
  steps: {
    url: string;
    nodes: NodeColumns;
    note: string | null;
    reply: string;
    /** WebArena's observation text, where the trajectory carries it (links' URLs are read from it) */
    observation?: string;
  }[];
}

export interface TrainingStep {
  input: PolicyInput;
  /** The chosen action, canonical (as PolicyDecision.action). */
  action: string;
  /** How much this step's cross-entropy counts (AWR's exp(A/β)); absent: 1, as filtered BC. */
  weight?: number;
  /** The return the critic regresses to from this step; absent: the step does not train the critic. */
  valueTarget?: number;
}
