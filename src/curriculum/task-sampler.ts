// Which task an env worker gets next. TTI draws training tasks uniformly with replacement and runs
// test tasks in order.

export interface TaskRef {
  file: string;
  id: string;
}

export class TaskSampler {
  private cursor = 0;

  constructor(
    private readonly tasks: readonly TaskRef[],
    private readonly mode: 'uniform' | 'in-order',
    private readonly random: () => number = Math.random,
  ) {
    if (tasks.length === 0) throw new Error('no tasks to sample from');
  }

  get size(): number {
    return this.tasks.length;
  }

  next(): TaskRef {
    if (this.mode === 'uniform') return this.tasks[Math.floor(this.random() * this.tasks.length)]!;
    const task = this.tasks[this.cursor % this.tasks.length]!;
    this.cursor += 1;
    return task;
  }
}
