// Demonstrations as the policy can imitate them. A teacher (MiniArena's oracle) computes some
// answers no page shows verbatim ("$3.99 - $96.99", a count), while a candidate that passes the same
// evaluator exists (a column joined, a part of a text). TTI keeps a trajectory for its success, not
// its wording, so such a step is retargeted to the shortest passing candidate. What stays outside
// the candidates is counted (coverage), and BC leaves it out.
import { buildCandidates, type Candidate } from './candidates.js';
import { trainingSteps } from './training-steps.js';
import type { TrajectoryForTraining } from './types.js';

async function shortestPassing(
  candidates: readonly Candidate[],
  passes: (answer: string) => boolean | Promise<boolean>,
): Promise<string | null> {
  const answers = candidates.filter((c) => c.kind === 'answer').sort((a, b) => a.text.length - b.text.length);
  for (const c of answers) if (await passes(c.text)) return c.action;
  return null;
}

export interface AlignedDemo<T extends TrajectoryForTraining> {
  trajectory: T;
  /** answer steps retargeted to a passing candidate */
  aligned: number;
  steps: number;
  /** steps whose action is still not among the policy's candidates (BC skips them) */
  uncovered: number;
  /** the first few uncovered actions, for the report */
  misses: string[];
}

/**
 * Aligns a demonstration's answers with the candidates (`passes` grades an answer as the task's
 * evaluator does; without it, answers are left as they are) and counts the steps it covers.
 */
export async function alignAnswers<T extends TrajectoryForTraining>(
  trajectory: T,
  passes?: (answer: string) => boolean | Promise<boolean>,
): Promise<AlignedDemo<T>> {
  const inputs = trainingSteps(trajectory);
  let aligned = 0;
  let uncovered = 0;
  const misses: string[] = [];
  const steps: T['steps'] = [];
  for (const [k, step] of trajectory.steps.entries()) {
    const { input, action } = inputs[k]!;
    const candidates = buildCandidates(input);
    if (candidates.some((c) => c.action === action)) {
      steps.push(step);
      continue;
    }
    const answer =
      passes !== undefined && action.startsWith('ANSWER') ? await shortestPassing(candidates, passes) : null;
    if (answer !== null) {
      aligned += 1;
      steps.push({ ...step, reply: `Action: ${answer}` });
      continue;
    }
    uncovered += 1;
    if (misses.length < 3) misses.push(action);
    steps.push(step);
  }
  return { trajectory: { ...trajectory, steps }, aligned, steps: steps.length, uncovered, misses };
}
