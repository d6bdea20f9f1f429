// The run configuration: the core (core.ts) and every registered section (sections/), each laid at
// the paths it names, with defaults; then each section's checks across keys.
import { z } from 'zod';
import type { ShapeAt } from './section.js';
import { SECTIONS } from './sections/index.js';

type Sections = typeof SECTIONS;

/** The keys every section lays at `at`, merged (test/config checks that no two name the same key). */
function shapeAt<At extends string>(at: At): ShapeAt<Sections, At> {
  return Object.assign({}, ...SECTIONS.map((s) => (s.keys as Record<string, z.ZodRawShape>)[at] ?? {}));
}

/** The config's groups (`collect:`, `env.miniwob:` …): every section path but the top level. */
export const GROUPS = [
  'tasks',
  'collect',
  'model',
  'env',
  'env.miniwob',
  'workers',
  'fault',
  'supervisor',
  'transport',
  'transport.limits',
  'remote',
  'chat',
  'judge',
  'learner',
  'rollout',
] as const;

export const Config = z
  .strictObject({
    ...shapeAt(''),
    tasks: z.strictObject(shapeAt('tasks')).prefault({}),
    collect: z.strictObject(shapeAt('collect')).prefault({}),
    model: z.strictObject(shapeAt('model')).prefault({}),
    env: z
      .strictObject({ ...shapeAt('env'), miniwob: z.strictObject(shapeAt('env.miniwob')).prefault({}) })
      .prefault({}),
    workers: z.strictObject(shapeAt('workers')).prefault({}),
    fault: z.strictObject(shapeAt('fault')).prefault({}),
    supervisor: z.strictObject(shapeAt('supervisor')).prefault({}),
    transport: z
      .strictObject({
        ...shapeAt('transport'),
        limits: z.strictObject(shapeAt('transport.limits')).prefault({}),
      })
      .prefault({}),
    remote: z.strictObject(shapeAt('remote')).prefault({}),
    chat: z.strictObject(shapeAt('chat')).prefault({}),
    judge: z.strictObject(shapeAt('judge')).prefault({}),
    learner: z.strictObject(shapeAt('learner')).prefault({}),
    rollout: z.strictObject(shapeAt('rollout')).prefault({}),
  })
  .superRefine((config, ctx) => {
    for (const section of SECTIONS)
      for (const rule of section.rules ?? [])
        if (rule.broken(config))
          ctx.addIssue({
            code: 'custom',
            path: [...rule.path],
            message: typeof rule.message === 'string' ? rule.message : rule.message(config),
          });
  });

export type Config = z.infer<typeof Config>;
