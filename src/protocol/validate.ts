// Fast acceptance checks derived from the protocol's zod schemas.
//
// zod's parse builds a new object graph for every message and goes through its generic machinery
// per field; on the act socket (a 300-node observation, both ends) that cost ≈60 µs of CPU per round
// trip on a busy machine, against ≈13 µs for these checks (docs/benchmarks.md). `fastCheck` compiles
// a schema once into plain predicates that only read the decoded message. It is sound by
// construction, not a second declaration:
// - it is built from the schema's own definition, so a field added to a schema is checked too;
// - it accepts a value only if zod would accept it *and* zod's output would equal the value (no
//   unknown keys to strip, no defaults to fill, no transforms), so the message can be used as
//   decoded; anything else it answers `false` and the caller asks zod, which gives the verdict and
//   the error message;
// - a schema using anything it does not know (records, defaults, transforms, string formats,
//   exclusive unions, …) gets no fast check at all (null), and zod does all the work.
import type { z } from 'zod';

type Check = (value: unknown) => boolean;
type Def = z.core.$ZodTypes['_zod']['def'];
type CheckDef = z.core.$ZodChecks['_zod']['def'] | z.core.$ZodCustomDef;

/** Def keys that only shape error messages (or make zod skip a check: stricter here is still sound). */
const COSMETIC = new Set(['type', 'checks', 'error', 'abort', 'when', 'path', 'params']);

/** True when every key of `def` other than the cosmetic ones is in `known`. */
function onlyKeys(def: object, known: readonly string[]): boolean {
  for (const key of Object.keys(def)) {
    const value = (def as Record<string, unknown>)[key];
    if (value !== undefined && !COSMETIC.has(key) && !known.includes(key)) return false;
  }
  return true;
}

function isPlainRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** zod's ranges per number format (zod/v4/core util's NUMBER_FORMAT_RANGES). */
const NUMBER_FORMAT_RANGES: Partial<Record<string, readonly [number, number]>> = {
  safeint: [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
  int32: [-2147483648, 2147483647],
  uint32: [0, 4294967295],
  float32: [-3.4028234663852886e38, 3.4028234663852886e38],
  float64: [-Number.MAX_VALUE, Number.MAX_VALUE],
};

/** A zod check (`.int()`, `.min(1)`, `.refine(fn)`, …) as a predicate; null when not one we know. */
function compileCheck(def: CheckDef): Check | null {
  switch (def.check) {
    case 'number_format': {
      if (!onlyKeys(def, ['check', 'format'])) return null;
      const format = def.format;
      const range = NUMBER_FORMAT_RANGES[format];
      if (range === undefined) return null;
      const [min, max] = range;
      if (format.includes('int'))
        return (v) => Number.isSafeInteger(v) && (v as number) >= min && (v as number) <= max;
      return (v) => (v as number) >= min && (v as number) <= max;
    }
    case 'greater_than': {
      const bound = def.value;
      if (!onlyKeys(def, ['check', 'value', 'inclusive']) || typeof bound !== 'number') return null;
      return def.inclusive ? (v) => (v as number) >= bound : (v) => (v as number) > bound;
    }
    case 'less_than': {
      const bound = def.value;
      if (!onlyKeys(def, ['check', 'value', 'inclusive']) || typeof bound !== 'number') return null;
      return def.inclusive ? (v) => (v as number) <= bound : (v) => (v as number) < bound;
    }
    case 'min_length': {
      if (!onlyKeys(def, ['check', 'minimum'])) return null;
      const n = def.minimum;
      return (v) => (v as { length: number }).length >= n;
    }
    case 'max_length': {
      if (!onlyKeys(def, ['check', 'maximum'])) return null;
      const n = def.maximum;
      return (v) => (v as { length: number }).length <= n;
    }
    case 'length_equals': {
      if (!onlyKeys(def, ['check', 'length'])) return null;
      const n = def.length;
      return (v) => (v as { length: number }).length === n;
    }
    case 'custom': {
      // `.refine(fn)`: only a plain `true` counts (a promise or a truthy object goes to zod).
      if (!onlyKeys(def, ['check', 'fn'])) return null;
      const fn = (def as z.core.$ZodCustomDef).fn;
      return (v) => fn(v) === true;
    }
    default:
      return null;
  }
}

/** The type's own test followed by its checks, which zod runs only on a value of the right type. */
function withChecks(schema: z.core.$ZodType, base: Check): Check | null {
  const checks = schema._zod.def.checks ?? [];
  if (checks.length === 0) return base;
  const compiled: Check[] = [];
  for (const check of checks) {
    const c = compileCheck(check._zod.def as CheckDef);
    if (c === null) return null;
    compiled.push(c);
  }
  return (v) => {
    if (!base(v)) return false;
    for (let i = 0; i < compiled.length; i++) if (!compiled[i]!(v)) return false;
    return true;
  };
}

function compile(schema: z.core.$ZodType): Check | null {
  const def = schema._zod.def as Def;
  switch (def.type) {
    case 'string':
      // A string format (email, uuid, …) carries its own pattern: left to zod.
      return onlyKeys(def, []) ? withChecks(schema, (v) => typeof v === 'string') : null;
    case 'number': {
      const isNumber = (v: unknown) => typeof v === 'number' && Number.isFinite(v);
      if (onlyKeys(def, [])) return withChecks(schema, isNumber);
      // z.int(), z.int32(), …: the schema is its own number_format check.
      const format =
        'check' in def && def.check === 'number_format' ? compileCheck(def as unknown as CheckDef) : null;
      return format && withChecks(schema, (v) => isNumber(v) && format(v));
    }
    case 'boolean':
      return onlyKeys(def, []) ? withChecks(schema, (v) => typeof v === 'boolean') : null;
    case 'null':
      return onlyKeys(def, []) ? (v) => v === null : null;
    case 'unknown':
    case 'any':
      return onlyKeys(def, []) ? () => true : null;
    case 'literal': {
      if (!onlyKeys(def, ['values'])) return null;
      const values = new Set<unknown>(def.values);
      return withChecks(schema, (v) => values.has(v));
    }
    case 'enum': {
      if (!onlyKeys(def, ['entries'])) return null;
      const entries = Object.values(def.entries);
      // Numeric TypeScript enums have reverse entries that zod filters out: left to zod.
      if (!entries.every((e) => typeof e === 'string')) return null;
      const values = new Set<unknown>(entries);
      return withChecks(schema, (v) => values.has(v));
    }
    case 'nullable': {
      const inner = onlyKeys(def, ['innerType']) ? compile(def.innerType) : null;
      return inner && withChecks(schema, (v) => v === null || inner(v));
    }
    case 'optional': {
      const inner = onlyKeys(def, ['innerType']) ? compile(def.innerType) : null;
      return inner && withChecks(schema, (v) => v === undefined || inner(v));
    }
    case 'array': {
      const element = onlyKeys(def, ['element']) ? compile(def.element) : null;
      return (
        element &&
        withChecks(schema, (v) => {
          if (!Array.isArray(v)) return false;
          for (let i = 0; i < v.length; i++) if (!element(v[i])) return false;
          return true;
        })
      );
    }
    case 'custom': {
      // z.custom(fn): the schema is its own check.
      if (!onlyKeys(def, ['check', 'fn'])) return null;
      const fn = def.fn;
      return withChecks(schema, (v) => fn(v) === true);
    }
    case 'union': {
      if (!onlyKeys(def, ['options', 'discriminator', 'inclusive', 'unionFallback'])) return null;
      const discriminator = (def as Partial<z.core.$ZodDiscriminatedUnionDef>).discriminator;
      if (discriminator !== undefined) return compileDiscriminated(schema, def.options, discriminator);
      // An exclusive union (exactly one option) is not "some option accepts": left to zod.
      if (def.inclusive === false) return null;
      const options: Check[] = [];
      for (const option of def.options) {
        const c = compile(option);
        if (c === null) return null;
        options.push(c);
      }
      return withChecks(schema, (v) => {
        for (let i = 0; i < options.length; i++) if (options[i]!(v)) return true;
        return false;
      });
    }
    case 'object':
      return compileObject(schema, def);
    default:
      return null;
  }
}

/**
 * zod picks a discriminated union's option by the discriminator's value, and so does this: each
 * option must be an object whose discriminator is a literal, and each value must pick one option.
 */
function compileDiscriminated(
  schema: z.core.$ZodType,
  options: readonly z.core.$ZodType[],
  discriminator: string,
): Check | null {
  const byValue = new Map<unknown, Check>();
  for (const option of options) {
    const def = option._zod.def as Def;
    if (def.type !== 'object') return null;
    const tag = def.shape[discriminator]?._zod.def as Def | undefined;
    if (tag?.type !== 'literal') return null;
    const check = compile(option);
    if (check === null) return null;
    for (const value of tag.values) {
      if (value === undefined || byValue.has(value)) return null;
      byValue.set(value, check);
    }
  }
  return withChecks(schema, (v) => {
    if (!isPlainRecord(v)) return false;
    const check = byValue.get(v[discriminator]);
    return check?.(v) === true;
  });
}

function compileObject(schema: z.core.$ZodType, def: z.core.$ZodObjectDef): Check | null {
  if (!onlyKeys(def, ['shape', 'catchall'])) return null;
  // Unknown keys are stripped (default) or refused (strict) by zod: either way the fast check turns
  // down an object that has any, so what it accepts is exactly zod's output. A loose object keeps
  // them and is left to zod.
  if (def.catchall !== undefined && def.catchall._zod.def.type !== 'never') return null;
  const keys = Object.keys(def.shape);
  if (keys.includes('__proto__')) return null;
  const known = new Set(keys);
  const fields: Check[] = [];
  /** keys whose check accepts undefined, so presence must be checked on its own */
  const mustBePresent: string[] = [];
  for (const key of keys) {
    const field = def.shape[key]!;
    const check = compile(field);
    if (check === null) return null;
    fields.push(check);
    const type = field._zod.def.type;
    if (type === 'unknown' || type === 'any') mustBePresent.push(key);
  }
  return withChecks(schema, (v) => {
    if (!isPlainRecord(v)) return false;
    for (let i = 0; i < keys.length; i++) if (!fields[i]!(v[keys[i]!])) return false;
    for (let i = 0; i < mustBePresent.length; i++) if (!(mustBePresent[i]! in v)) return false;
    for (const key in v) if (!known.has(key)) return false;
    return true;
  });
}

const cache = new WeakMap<z.ZodType, Check | null>();

/**
 * The schema's fast check: true means zod would accept the value and return it unchanged; false
 * means ask zod. Null when the schema uses something the fast check does not know.
 */
export function fastCheck<S extends z.ZodType>(schema: S): ((value: unknown) => value is z.infer<S>) | null {
  let check = cache.get(schema);
  if (check === undefined) {
    check = compile(schema);
    cache.set(schema, check);
  }
  return check as ((value: unknown) => value is z.infer<S>) | null;
}
