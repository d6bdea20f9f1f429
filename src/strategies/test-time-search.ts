// Test-time search (`eval_search: branch`): an eval episode's first rollout is the greedy
// episode, later ones sample from pages gone back to, all at one temperature so their
// log-probabilities compare; when the budget is spent the finished rollout the policy itself
// rates highest (the mean log-probability of its actions) is the episode's answer. No verdict chooses.
import type { Config } from '../config/index.js';
import { SEARCH_EXTRAS, SEARCH_METRICS, type Strategy, searchRollouts } from '../episode/index.js';

export function testTimeSearch(config: Config): Strategy {
  const temperature = config.eval_search_temperature;
  return {
    name: 'test-time search',
    metrics: SEARCH_METRICS,
    extras: SEARCH_EXTRAS,
    takesPart: (assignment) => assignment.greedy && config.eval_search !== 'none',
    run: (episode) =>
      searchRollouts(episode, {
        budget: config.eval_search_budget,
        pick: 'likelihood',
        act: (page, taken, rollout) =>
          episode.act(page, taken, {
            rollout,
            sampling: { greedy: rollout === 0 ? episode.assignment.greedy : false, temperature },
          }),
      }),
  };
}
