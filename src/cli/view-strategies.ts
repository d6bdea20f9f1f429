// Which strategies' counters the live view and `status` show, from the run's config: a strategy is
// on when it takes part in a collection or an eval episode, and its block reads the counters'
// labels the strategy declares (src/strategies), so no counter's name reaches the screen.
import type { Config } from '../config/index.js';
import type { TaskAssignmentMessage } from '../protocol/index.js';
import { strategiesFor } from '../strategies/index.js';

/** A strategy as the view shows it: its name, and the counters it keeps with their words. */
export interface StrategyBlock {
  name: string;
  metrics: Readonly<Record<string, string>>;
}

const episodeOf = (greedy: boolean): TaskAssignmentMessage => ({
  type: 'task_assignment',
  requestId: 0,
  episodeId: 'view',
  taskFile: '',
  taskId: '',
  horizon: 1,
  minTry: 1,
  split: greedy ? 'test' : 'train',
  iteration: 0,
  greedy,
  temperature: greedy ? 0 : 1,
  seed: 0,
  toReplay: !greedy,
});

/**
 * The strategies on in `config`, in the order they act. Strategies that keep the same counters
 * (branch search while collecting and test-time search both count a search's work) share one
 * block under both names, since their counts cannot be told apart.
 */
export function strategyBlocks(config: Config): StrategyBlock[] {
  const on = strategiesFor(config).filter(
    (s) => s.takesPart(episodeOf(false)) || s.takesPart(episodeOf(true)),
  );
  const blocks: StrategyBlock[] = [];
  for (const s of on) {
    const keys = Object.keys(s.metrics).join();
    const same = blocks.find((b) => Object.keys(b.metrics).join() === keys);
    if (same) same.name = `${same.name}, ${s.name}`;
    else blocks.push({ name: s.name, metrics: s.metrics });
  }
  return blocks;
}
