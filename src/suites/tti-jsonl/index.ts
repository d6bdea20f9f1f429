// TTI's WebArena task files (webarena_{train,test}_data.jsonl): WebArena's tasks with the hosts
// already written in, plus TTI's web_name, id, ques and web. They run on WebArena's containers as
// WebArena's raw files do.
import type { TaskSuite } from '../suite.js';
import { configuredFiles, taskFileTasks } from '../task-files.js';
import { webArenaHost } from '../webarena/index.js';

export const ttiJsonlSuite: TaskSuite = {
  name: 'tti-jsonl',
  tasks: (ctx, wants) => taskFileTasks(configuredFiles(ctx.config.tasks, 'tti-jsonl'), wants, true),
  start: (ctx) => webArenaHost(ctx, 'tti-jsonl'),
};
