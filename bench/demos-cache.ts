// The oracle demos cache that experiments/oracle-demos writes (`$TTI_DEMOS`, else
// /tmp/tti-demos.json): MiniArena's oracle steps recorded as the PolicyInput an env worker sends.
// The benches read only what they use of it; without the file they fall back to synthetic pages.
import { readFileSync } from 'node:fs';
import type { PolicyInput, TrainingStep } from '../src/model/index.js';

export const DEMOS_CACHE = process.env.TTI_DEMOS ?? '/tmp/tti-demos.json';

export interface CachedDemo {
  success: boolean;
  steps: { input: PolicyInput; action: string | null }[];
}

export function readDemosCache(file: string): CachedDemo[] {
  return JSON.parse(readFileSync(file, 'utf8')) as CachedDemo[];
}

/** The steps of successful demos whose action the policy has: what BC trains on. */
export function demoTrainingSteps(demos: readonly CachedDemo[]): TrainingStep[] {
  return demos
    .filter((d) => d.success)
    .flatMap((d) =>
      d.steps.flatMap((s) => (s.action === null ? [] : [{ input: s.input, action: s.action }])),
    );
}
