// The policy's inputs and outputs: what inference sends in and gets back, and what replay hands the
// learner. Plain data (numbers, strings, arrays) so it travels over msgpack unchanged.

/** The accessibility tree as columns, in the observation's (depth-first) order. */
export interface NodeColumns {
  /** The numbers the actions refer to (Chrome's AX node ids). */
  ids: number[];
  roles: string[];
  names: string[];
  depths: number[];
  /** 1 if the node's box intersects the 1280×720 viewport, else 0. */
  inViewport: number[];
}

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
  /** The earlier steps' pages and actions (trail.ts), when the env sends them; not a feature. */
  trail?: TrailStep[];
}

export interface ActOptions {
  /** Argmax instead of sampling (eval). */
  greedy: boolean;
  /** Sampling temperature (logits are divided by it); ignored when greedy. */
  temperature: number;
  /**
   * Nucleus sampling (TTI samples with vLLM's top_p 0.95): draw only from the most likely
   * candidates whose probabilities first reach this share; 1 (the default) draws from all.
   */
  topP?: number;
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
  steps: { url: string; nodes: NodeColumns; note: string | null; reply: string }[];
}

export interface TrainingStep {
  input: PolicyInput;
  /** The chosen action, canonical (as PolicyDecision.action). */
  action: string;
}
