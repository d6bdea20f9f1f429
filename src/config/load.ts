// Reading a config: YAML file → presets → `--set` overrides → schema with defaults. Every error names the
// file, the key, the bad value and what was expected, so a user can fix it without reading code.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import type { z } from 'zod';
import { projectRoot } from '../util/index.js';
import { ownedKeys } from './owners.js';
import { dropRemovedKeys } from './removed.js';
import { Config } from './schema.js';

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

type Tree = Record<string, unknown>;

function isTree(value: unknown): value is Tree {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function valueAt(tree: unknown, keys: readonly PropertyKey[]): unknown {
  let node = tree;
  for (const key of keys) {
    if (!isTree(node) && !Array.isArray(node)) return undefined;
    node = (node as Record<PropertyKey, unknown>)[key];
  }
  return node;
}

function describeIssue(issue: z.core.$ZodIssue, input: unknown): string {
  const key = issue.path.map(String).join('.');
  if (issue.code === 'unrecognized_keys') {
    const where = key ? `${key}.` : '';
    return `unknown key ${issue.keys.map((k) => `'${where}${k}'`).join(', ')}`;
  }
  const got = valueAt(input, issue.path);
  const shown = got === undefined ? 'nothing' : JSON.stringify(got);
  return `key '${key}': got ${shown}; ${issue.message.replace(/^Invalid input: /, '')}`;
}

/** Applies `key.path=value` overrides; values are YAML scalars or flow lists (`[10, 20, 30]`). */
export function applyOverrides(tree: Tree, overrides: readonly string[]): Tree {
  const result = structuredClone(tree);
  for (const override of overrides) {
    const eq = override.indexOf('=');
    if (eq <= 0) throw new ConfigError(`--set '${override}': expected key=value`);
    const keys = override.slice(0, eq).split('.');
    let node: Tree = result;
    for (const part of keys.slice(0, -1)) {
      const next = node[part];
      if (next === undefined) node[part] = {};
      else if (!isTree(next)) throw new ConfigError(`--set '${override}': '${part}' is not a section`);
      node = node[part] as Tree;
    }
    node[keys[keys.length - 1]!] = parseYaml(override.slice(eq + 1)) as unknown;
  }
  return result;
}

/** Validates a config tree; `source` names where it came from in errors. */
export function resolveConfig(tree: unknown, source: string): Config {
  const { tree: kept, problems: removed } = isTree(tree) ? dropRemovedKeys(tree) : { tree, problems: [] };
  if (removed.length > 0)
    throw new ConfigError(
      `config ${source} sets keys tti no longer has:\n${removed.map((p) => `  - ${p}`).join('\n')}\n` +
        'A run directory written before they went cannot resume as it ran: resume it with tti at the commit ' +
        'each names (git history), or delete these keys from its config.yaml to go on without them.',
    );
  const parsed = Config.safeParse(kept ?? {});
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => `  - ${describeIssue(issue, kept)}`);
  throw new ConfigError(`invalid config ${source}:\n${problems.join('\n')}`);
}

/** configs/presets/<name>.yaml: a partial config laid over the config file (before --set). */
export function presetFile(name: string): string {
  return path.join(projectRoot, 'configs', 'presets', `${name}.yaml`);
}

export function presetNames(): string[] {
  const dir = path.join(projectRoot, 'configs', 'presets');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .map((f) => f.slice(0, -'.yaml'.length))
    .sort();
}

function mergeTrees(base: Tree, over: Tree): Tree {
  const out: Tree = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const current = out[key];
    out[key] = isTree(current) && isTree(value) ? mergeTrees(current, value) : value;
  }
  return out;
}

/** One layer of a config as loadConfig lays them: the file, each preset, each `--set`. */
interface Layer {
  source: 'file' | 'preset' | '--set';
  /** the file's path, the preset's name, or the override as given */
  name: string;
  tree: Tree;
}

function configLayers(
  file: string | null,
  overrides: readonly string[],
  presets: readonly string[],
): Layer[] {
  const layers: Layer[] = file === null ? [] : [{ source: 'file', name: file, tree: readTree(file) }];
  for (const preset of presets) {
    const presetPath = presetFile(preset);
    if (!existsSync(presetPath)) {
      const known = presetNames();
      throw new ConfigError(
        `no preset '${preset}' (${presetPath} does not exist); presets: ${known.length ? known.join(', ') : 'none'}`,
      );
    }
    layers.push({ source: 'preset', name: preset, tree: readTree(presetPath) });
  }
  for (const override of overrides)
    layers.push({ source: '--set', name: override, tree: applyOverrides({}, [override]) });
  return layers;
}

function resolveLayers(layers: readonly Layer[]): Config {
  // Presets merge key by key over the file; each --set replaces the value at its path.
  let tree: Tree = {};
  for (const layer of layers)
    tree = layer.source === '--set' ? applyOverrides(tree, [layer.name]) : mergeTrees(tree, layer.tree);
  const names = layers.map(describeLayer);
  if (layers[0]?.source !== 'file') names.unshift('(defaults)');
  return resolveConfig(tree, names.join(' + '));
}

/** How errors and `tti-run config` name a layer: the file, `--preset NAME`, `--set k=v`. */
function describeLayer(layer: Layer): string {
  return layer.source === 'file'
    ? layer.name
    : `${layer.source === 'preset' ? '--preset' : '--set'} ${layer.name}`;
}

export function loadConfig(
  file: string | null,
  overrides: readonly string[] = [],
  presets: readonly string[] = [],
): Config {
  return resolveLayers(configLayers(file, overrides, presets));
}

/** One key of a resolved config: its value, the section that owns it, and where the value came from. */
export interface ExplainedKey {
  key: string;
  value: unknown;
  source: 'default' | Layer['source'];
  /** the file, `--preset NAME` or `--set k=v` that set it; 'default' for a default */
  from: string;
  section: string;
}

/** The config loadConfig would resolve, key by key, each with the last layer that set it. */
export function explainConfig(
  file: string | null,
  overrides: readonly string[] = [],
  presets: readonly string[] = [],
): { config: Config; keys: ExplainedKey[] } {
  const layers = configLayers(file, overrides, presets);
  const config = resolveLayers(layers);
  const keys = ownedKeys().map(({ path: key, section }): ExplainedKey => {
    const parts = key.split('.');
    const setBy = layers.findLast((layer) => valueAt(layer.tree, parts) !== undefined);
    return {
      key,
      value: valueAt(config, parts),
      source: setBy?.source ?? 'default',
      from: setBy === undefined ? 'default' : describeLayer(setBy),
      section,
    };
  });
  return { config, keys };
}

function readTree(file: string): Tree {
  let tree: Tree = {};
  {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (error) {
      throw new ConfigError(`cannot read config ${file}: ${(error as Error).message}`);
    }
    let parsed: unknown;
    try {
      parsed = parseYaml(text);
    } catch (error) {
      throw new ConfigError(`config ${file} is not valid YAML: ${(error as Error).message}`);
    }
    if (parsed !== null && parsed !== undefined && !isTree(parsed)) {
      throw new ConfigError(`config ${file}: expected a mapping of keys at the top level`);
    }
    tree = (parsed as Tree | null) ?? {};
  }
  return tree;
}

export function configToYaml(config: Config): string {
  return stringifyYaml(config);
}
