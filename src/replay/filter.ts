// TTI's filter: keep a trajectory whose reward is positive and whose final answer is not "N/A".
import type { Trajectory } from '../protocol/index.js';

export function isKept(trajectory: Trajectory): boolean {
  if (!(trajectory.reward > 0)) return false;
  const answer = trajectory.answer?.trim().toUpperCase() ?? '';
  return answer !== 'N/A';
}
