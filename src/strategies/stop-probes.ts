// Stop probes (`collect.stop_probes`, src/search/stop-probes.ts): before the policy acts on a
// collection page, every answer the page offers is scored as if the episode stopped with it; the
// shortest that succeeds ends the episode, and the answers that failed are not drawn.

import type { Config } from '../config/index.js';
import type { Observation } from '../envs/index.js';
import type { Episode, Preempt, Strategy } from '../episode/index.js';
import { candidatesWithEvidence } from '../model/without-tfjs.js';
import { probeStops, type StopProbeCounts, type Taken } from '../search/index.js';

export function stopProbes(config: Config): Strategy {
  // a worker's counts over its episodes
  const counts: StopProbeCounts = { probes: 0, lucky: 0, guessable: 0, unevidenced: 0 };
  return {
    name: 'stop probes',
    metrics: {
      stopProbes: 'answers scored',
      stopProbeHits: 'successes kept',
      stopProbesUnevidenced: 'successes refused: beside nothing the task names',
      stopProbesLucky: 'passes that were luck',
      stopProbesGuessable: 'counts left to the policy',
    },
    takesPart: (assignment) => config.collect.stop_probes && !assignment.greedy,
    async before(episode: Episode, page: Observation, taken: readonly Taken[]): Promise<Preempt | null> {
      const { env, counters } = episode;
      if (env.stopProbe === null) return null;
      const input = episode.policyInput(page, taken);
      const features = episode.features(page, taken);
      const { found, failed } = await probeStops(env, candidatesWithEvidence(input, features), counts);
      counters.stopProbes = counts.probes;
      counters.stopProbesLucky = counts.lucky;
      counters.stopProbesGuessable = counts.guessable;
      counters.stopProbesUnevidenced = counts.unevidenced;
      if (found === null) return { decision: null, failed };
      episode.count('stopProbeHits');
      const decision = {
        reply: `Thought: stopping here with this answer was scored a success before it was taken.\nAction: ${found.action}`,
        // the answer is the search's, acting under the policy that chose the way here (on the first
        // page, none did: the version served now, so a bounded lag never takes it for stale)
        policyVersion: taken[taken.length - 1]?.policyVersion ?? episode.servedVersion(),
      };
      return { decision, failed };
    },
  };
}
