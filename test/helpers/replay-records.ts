// Trajectories for replay-log tests: small, or padded to a size, each under its own episode id.
import type { Trajectory } from '../../src/protocol/index.js';

export function paddedTrajectory(episodeId: string, padBytes = 0): Trajectory {
  return {
    type: 'trajectory',
    episodeId,
    taskId: `task-${episodeId}`,
    site: 'shopping',
    intent: 'a task',
    horizon: 10,
    iteration: 1,
    reward: 1,
    answer: 'ok',
    steps: [
      {
        observation: `[1] link 'Item ${episodeId}' ${'x'.repeat(padBytes)}`,
        url: 'http://127.0.0.1/',
        nodes: { ids: [1], roles: ['link'], names: [`Item ${episodeId}`], depths: [1], inViewport: [1] },
        note: null,
        reply: 'Thought: done\nAction: ANSWER [ok]',
        action: 'stop [ok]',
        policyVersion: 1,
      },
    ],
  };
}

export const episodeIds = (ts: readonly Trajectory[]): string[] => ts.map((t) => t.episodeId);
