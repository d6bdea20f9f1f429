// Exploratory keep (`collect.search_keep: exploratory`, ExACT's exploratory learning,
// src/search/exploratory.ts): a collection search that succeeded is kept as the search went, each
// dead end left with steps back, not only as its success from the task's start.
import type { Config } from '../config/index.js';
import { describeAction, parseTtiReply, parseWebArenaReply } from '../envs/index.js';
import type { Strategy } from '../episode/index.js';
import { exploratorySteps, type RolloutStep, type Taken, wayBack } from '../search/index.js';

export function exploratoryKeep(config: Config): Strategy {
  const format = config.env.action_format;
  const parse = format === 'webarena' ? parseWebArenaReply : parseTtiReply;
  const undoStep = wayBack(format);
  // a linearised step as a trajectory holds it
  const stepOf = (t: Taken): RolloutStep => ({
    taken: t,
    observation: t.observation.text,
    url: t.observation.url,
    reply: t.reply,
    action: t.actionText ?? describeAction(parse(t.reply)),
  });
  return {
    name: 'exploratory keep',
    metrics: {
      exploratoryWithDeadEnds: 'kept with steps back from dead ends',
      exploratoryBackSteps: 'steps back',
    },
    takesPart: (assignment) => config.collect.search_keep === 'exploratory' && !assignment.greedy,
    keep(episode, outcome) {
      if (outcome.rollouts === undefined || outcome.record?.verdict.success !== true) return outcome;
      if (episode.offers.navigation === false) {
        episode.warnOnce(
          'exploratory',
          'this suite offers no GoBack: searches keep their successes from the start',
        );
        return outcome;
      }
      let backSteps = 0;
      const explored = exploratorySteps(outcome.rollouts, (page, version, done, navigated) => {
        const back = undoStep(page, version, done, navigated);
        if (back !== null) backSteps += 1;
        return back;
      });
      if (backSteps > 0) episode.count('exploratoryWithDeadEnds');
      episode.count('exploratoryBackSteps', backSteps);
      return {
        ...outcome,
        kept: explored.map(stepOf),
        ...(outcome.search ? { search: { ...outcome.search, backSteps } } : {}),
      };
    },
  };
}
