// WebVoyager's tasks ({web_name, id, ques, web} per jsonl line): the live web, no host of ours, no
// allowlist; no program can check an answer, so the configured judge grades it (`judge.kind`), or
// the episode is unscored.
import type { TaskSuite } from '../suite.js';
import { configuredFiles, TaskFiles, taskFileTasks } from '../task-files.js';

export const webVoyagerSuite: TaskSuite = {
  name: 'webvoyager',
  tasks: (ctx, wants) => taskFileTasks(configuredFiles(ctx.config.tasks, 'webvoyager'), wants),
  start: async () => {
    const files = new TaskFiles({});
    return {
      origins: [],
      browser: {},
      task: (ref) => files.task(ref),
      close: async () => {},
    };
  },
};
