// Oracle demos recorded by record-demos.ts, read back as trajectories and training steps.
import { readFileSync } from 'node:fs';
import { readSplit } from '../../src/arena/index.js';
import type { NodeColumns, TrainingStep, TrajectoryForTraining } from '../../src/model/index.js';
import { buildCandidates, trainingSteps } from '../../src/model/index.js';
import { clean } from '../../src/model/text.js';

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
    .map((l) => JSON.parse(l) as Demo);
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

/** What a string_match answer must contain (MiniArena uses must_include and exact_match only). */
export interface AnswerKey {
  mustInclude?: string[];
  exactMatch?: string;
}

/** task_id → its string_match key, for the tasks that have one. */
export function answerKeys(): Map<number, AnswerKey> {
  const keys = new Map<number, AnswerKey>();
  for (const t of readSplit('all')) {
    const ref = t.eval.reference_answers as { must_include?: string[]; exact_match?: string } | null;
    if (!ref) continue;
    keys.set(t.task_id, { mustInclude: ref.must_include, exactMatch: ref.exact_match });
  }
  return keys;
}

const norm = (s: string) =>
  clean(s)
    .replace(/^["']|["']$/g, '')
    .toLowerCase();

/** WebArena's string_match on an answer (a one-character item must be a whole token). */
export function passes(answer: string, key: AnswerKey): boolean {
  const a = norm(answer);
  if (key.exactMatch !== undefined && a !== norm(key.exactMatch)) return false;
  const items = key.mustInclude ?? [];
  if (items.length === 1 && norm(items[0]!).length === 1)
    return a.split(/[^a-z0-9]+/).includes(norm(items[0]!));
  return items.every((i) => a.includes(norm(i)));
}

/**
 * The oracle computes some answers ("$3.99 - $96.99", a count) that no page shows, while a
 * candidate that passes the same evaluator exists (a column joined, a part of a text). TTI keeps a
 * trajectory for its success, not its wording: retarget such a step to the shortest passing
 * candidate. Returns how many steps were retargeted and how many answers stay uncovered.
 */
export function alignAnswers(demos: Demo[]): { demos: Demo[]; aligned: number } {
  const keys = answerKeys();
  let aligned = 0;
  const out = demos.map((d) => {
    const key = keys.get(d.taskId);
    if (!key || !d.success) return d;
    const trajectory = trainingSteps(asTrajectory(d));
    const steps = d.steps.map((s, k) => {
      if (!s.action?.startsWith('ANSWER')) return s;
      const cands = buildCandidates(trajectory[k]!.input);
      if (cands.some((c) => c.action === s.action)) return s;
      const ok = cands
        .filter((c) => c.kind === 'answer' && passes(c.text, key))
        .sort((a, b) => a.text.length - b.text.length);
      if (ok.length === 0) return s;
      aligned += 1;
      return { ...s, action: ok[0]!.action };
    });
    return { ...d, steps };
  });
  return { demos: out, aligned };
}
