import type { Driver } from './driver.js';

/** What the oracle reads of a task: what a person reads (the intent and its filled-in slots). */
export interface OracleTask {
  taskId: string;
  template: string;
  intent: string;
  dict: Readonly<Record<string, string | number>>;
}

/** A scripted solver: acts through the driver until it has answered (or stopped). */
export type Solver = (d: Driver, t: OracleTask) => Promise<void>;

export function slot(t: OracleTask, key: string): string {
  const v = t.dict[key];
  if (v === undefined) throw new Error(`task ${t.taskId} (${t.template}) has no slot ${key}`);
  return String(v);
}
