// The learner's objectives, as SkyRL registers its policy losses: `learner.algorithm` names one,
// and each is readable top to bottom in a file of its own over the shared network and trainer.
// An objective turns an iteration's sample into the steps each head trains on; the trainer makes
// the updates (trainer.ts), with the objective's loss.
//
//   filtered_bc  filtered-bc.ts  TTI's: imitate the kept trajectories, with their transforms
//   awr          awr.ts          DigiRL's: every step by its advantage, and a critic of returns
import { type AwrKeys, awrObjective } from './awr.js';
import { type FilteredBcKeys, filteredBcObjective } from './filtered-bc.js';
import type { TrainingStep, TrajectoryForTraining } from './types.js';

/** What an objective is given each iteration. */
export interface ObjectiveInput {
  iteration: number;
  /** replay's sample, in episode order */
  trajectories: readonly TrajectoryForTraining[];
  /** demonstrations drawn for this iteration (`learner.demos`), as steps; empty without */
  demos: readonly TrainingStep[];
  /** the critic's present estimate of each step (the learner's yields between batches) */
  values: (steps: readonly TrainingStep[]) => Promise<Float32Array>;
  log: (message: string) => void;
}

/** The steps of an iteration's two passes: the policy's loss, then the critic's. */
export interface ObjectivePasses {
  /** steps of the weighted cross-entropy (filtered-bc.ts imitationLoss), each by its `weight` */
  policy: TrainingStep[];
  /** steps of the critic's squared error against their `valueTarget` (awr.ts criticLoss) */
  critic: TrainingStep[];
  /** what the learner's status shows of the iteration */
  counters: Record<string, number>;
}

export interface LearnerObjective<Keys> {
  /** whether replay's sample holds failed trajectories beside the kept ones */
  failures: boolean;
  /** `keys`: the learner config section, where each objective's own section lays its keys */
  passes(input: ObjectiveInput, keys: Keys): Promise<ObjectivePasses>;
}

/** The keys of every objective's section. */
export type LearnerKeys = FilteredBcKeys & AwrKeys;

export const OBJECTIVES = {
  filtered_bc: filteredBcObjective,
  awr: awrObjective,
} satisfies Record<string, LearnerObjective<never>>;

export type ObjectiveName = keyof typeof OBJECTIVES;

export function objectiveNamed(name: ObjectiveName): LearnerObjective<LearnerKeys> {
  return OBJECTIVES[name];
}
