// A trajectory as the learner reads it: each step becomes one sample, the policy's input at that
// step (history and trail from the steps before it) and the action it took.
import { actionOfReply } from './candidates.js';
import { actionSignature } from './trail.js';
import type { PolicyInput, TrainingStep, TrajectoryForTraining } from './types.js';

/** Every step of a trajectory as (PolicyInput, chosen action); history and trail from earlier steps. */
export function trainingSteps(trajectory: TrajectoryForTraining): TrainingStep[] {
  const history: string[] = [];
  const trail: { url: string; action: string }[] = [];
  return trajectory.steps.map((s, step) => {
    const action = actionOfReply(s.reply);
    const input: PolicyInput = {
      intent: trajectory.intent,
      url: s.url,
      nodes: s.nodes,
      history: [...history],
      step,
      horizon: trajectory.horizon,
      note: s.note,
      ...(trajectory.offers ? { offers: trajectory.offers } : {}),
      trail: [...trail],
    };
    history.push(action);
    trail.push({ url: s.url, action: actionSignature(action, s.nodes) });
    return { input, action };
  });
}
