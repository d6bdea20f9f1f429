// A collection episode as the supervisor's episode queue hands it out, for the queue's tests.
import type { EpisodeSpec } from '../../src/loop/index.js';

export const episodeSpec = (n: number): EpisodeSpec => ({
  episodeId: `e${n}`,
  taskFile: 'tasks.json',
  taskId: String(n),
  horizon: 10,
  minTry: 1,
  split: 'train',
  iteration: 1,
  greedy: false,
  temperature: 1,
  seed: n,
  toReplay: true,
});
