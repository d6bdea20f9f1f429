// A config section: the keys one part of tti owns (a strategy, a learner objective, the envs, the
// supervisor), with their zod schema and defaults, and the checks across keys that it needs. The
// core (core.ts) is a section too; schema.ts lays every registered section (sections/index.ts) at
// the paths it names, so a key keeps its path (`collect.search`, `learner.awr_lambda`) whichever
// section owns it.
import type { z } from 'zod';

/** A section's keys by where they live: '' is the top level, 'collect' is `collect:`, 'env.miniwob' … */
export type SectionKeys = { readonly [at: string]: z.ZodRawShape };

/**
 * A check across keys, run once the config has parsed: the key at `path` is wrong when
 * `broken(config)`. `V` is the slice of the config the check reads, declared by the section, so
 * schema.ts checks at compile time that the resolved config has it.
 */
export interface Rule<V> {
  readonly path: readonly string[];
  readonly broken: (config: V) => boolean;
  readonly message: string | ((config: V) => string);
}

export interface Section<K extends SectionKeys = SectionKeys, V = unknown> {
  /** how `tti-run config` and the docs name it, e.g. 'branch-search' */
  readonly name: string;
  /** the part of src/ whose code reads these keys, e.g. 'src/search' */
  readonly owner: string;
  /** one line: what a user sets here */
  readonly about: string;
  readonly keys: K;
  readonly rules?: readonly Rule<V>[];
}

/** Declares a section; `const` keeps each key's schema type, so the resolved config stays typed. */
export function defineSection<const K extends SectionKeys, V = unknown>(
  section: Section<K, V>,
): Section<K, V> {
  return section;
}

/** The shape that `sections` lay at `at`: their keys there, merged. */
export type ShapeAt<
  S extends readonly Section<SectionKeys, never>[],
  At extends string,
> = S extends readonly [infer Head, ...infer Tail extends readonly Section<SectionKeys, never>[]]
  ? (Head extends Section<infer K, never> ? (At extends keyof K ? K[At] : object) : object) &
      ShapeAt<Tail, At>
  : object;
