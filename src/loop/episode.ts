// One episode as the loop asks for it, and what the loop reads of its outcome. The loop's own words:
// the actor system's wire messages (src/protocol) carry more, and satisfy these as they are.

/** One episode to run: which task, at which horizon, how to sample, where its trajectory goes. */
export interface EpisodeSpec {
  episodeId: string;
  taskFile: string;
  taskId: string;
  horizon: number;
  minTry: number;
  split: 'train' | 'test';
  iteration: number;
  greedy: boolean;
  /** the sampling temperature (collection; a chat policy's eval); a greedy tfjs policy ignores it */
  temperature: number;
  /** the episode's sampling seed (derived from the run's seed) */
  seed: number;
  toReplay: boolean;
  /**
   * act under this policy version, which inference holds for it while it serves newer ones to
   * collection (the asynchronous loop's eval); absent: the newest served
   */
  policyVersion?: number;
}

/** What an episode came to, as far as the loop counts it. */
export interface EpisodeOutcome {
  episodeId: string;
  taskFile: string;
  taskId: string;
  reward: number;
  /** the page's raw reward (−1…1), where the suite scores partially */
  score?: number | undefined;
  steps: number;
  /** why the answer passed the evaluator only by a lucky substring: not a success */
  lucky?: string | undefined;
  /** replay kept the trajectory (TTI's filter passed and it was new) */
  kept: boolean;
  /** the policy versions that chose the episode's actions (what a bounded policy lag is measured on) */
  policyVersions: readonly number[];
  /** a chat policy's tokens over the episode */
  usage?: { promptTokens: number; completionTokens: number } | undefined;
  /** what the strategies that ran it added, by strategy name (a search's rollouts, …); `steps` then counts all its env steps */
  extras?: readonly { strategy: string; name: string; value: number | null }[] | undefined;
  /** the env worker that ran it, how long it ran, and where that time went (ms) */
  workerId?: string | undefined;
  durationMs?: number | undefined;
  timing?: Readonly<Record<string, number>> | undefined;
}
