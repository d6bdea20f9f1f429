// The run's configuration: the YAML schema with TTI's key names and every default, and loading
// (file, presets, --set) with errors that name the file, the key and the value.
export * from './load.js';
export * from './owners.js';
export { REMOVED_KEYS, REMOVED_VALUES } from './removed.js';
export * from './schema.js';
export type { Rule, Section } from './section.js';
export { SECTIONS } from './sections/index.js';
