// Oracle demos recorded by record-demos.ts, read back as trajectories and training steps.
import { readFileSync } from 'node:fs';
import { answerCheck, readSplit } from '../../src/arena/index.js';
import type { NodeColumns, TrainingStep, TrajectoryForTraining } from '../../src/model/index.js';
import {
  actionOfReply,
  alignAnswers as alignDemo,
  encodeObservation,
  trainingSteps,
  withFreshColumns,
} from '../../src/model/index.js';

export interface DemoStep {
  url: string;
  nodes: NodeColumns;
  note: string | null;
  action: string | null;
  oracle: string;
}

export interface Demo {
  taskId: number;
  template: string;
  split: 'train' | 'test';
  heldOut: boolean;
  tier: number;
  intent: string;
  success: boolean;
  steps: DemoStep[];
}

export function readDemos(file: string): Demo[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Demo)
    .map((d) => ({ ...d, steps: withFreshColumns(d.steps) }));
}

/** A demo as a kept trajectory (an action the policy cannot express stays as the oracle's JSON). */
export function asTrajectory(d: Demo, horizon = 30): TrajectoryForTraining {
  return {
    intent: d.intent,
    horizon,
    steps: d.steps.map((s) => ({
      url: s.url,
      nodes: s.nodes,
      note: s.note,
      reply: `Action: ${s.action ?? s.oracle}`,
    })),
  };
}

export interface LabelledStep extends TrainingStep {
  demo: Demo;
  index: number;
}

export function demoSteps(demos: Demo[]): LabelledStep[] {
  return demos.flatMap((d) => trainingSteps(asTrajectory(d)).map((s, index) => ({ ...s, demo: d, index })));
}

/** Each step encoded as the policy sees it, with its action's index among the candidates (-1: none). */
export function encodedSteps(steps: LabelledStep[], buckets = 16384) {
  return steps.map((s) => {
    const encoded = encodeObservation(s.input, { buckets });
    return { s, encoded, target: encoded.candidates.findIndex((c) => c.action === s.action) };
  });
}

/**
 * The oracle's computed answers retargeted to the shortest candidate that passes the task's
 * evaluator (src/model's alignAnswers, as `tti-run pretrain` does).
 */
export async function alignAnswers(demos: Demo[]): Promise<{ demos: Demo[]; aligned: number }> {
  const tasks = new Map(readSplit('all').map((t) => [t.task_id, t]));
  let aligned = 0;
  const out: Demo[] = [];
  for (const d of demos) {
    const task = tasks.get(d.taskId);
    const check = task ? answerCheck(task) : null;
    if (!check || !d.success) {
      out.push(d);
      continue;
    }
    const a = await alignDemo(asTrajectory(d), check);
    aligned += a.aligned;
    out.push({
      ...d,
      steps: d.steps.map((s, k) => ({ ...s, action: actionOfReply(a.trajectory.steps[k]!.reply) })),
    });
  }
  return { demos: out, aligned };
}
