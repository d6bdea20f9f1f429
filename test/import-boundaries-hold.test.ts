// The layer map of src/, as Playwright keeps a DEPS.list per folder: one rule per part saying which
// other parts it may import. The protocol imports nothing of tti; a child process imports the
// protocol, never the supervisor's internals; the supervisor never runs role code; MiniArena is an
// application the envs drive, so nothing in the envs imports it, and a task suite (src/suites) plugs
// into the envs, which import none; TTI's loop (src/loop) runs against its collector and learner
// seams and reaches no actor, nact or ZeroMQ, even through the parts it imports. A strategy
// (src/strategies) plugs into the episode runner (src/episode) and imports no other strategy.
// Importers from outside a part enter it through its index.ts, and the parts import one another
// without a cycle.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { projectRoot } from '../src/util/paths.js';

/** Which parts each part may import (its own modules aside). util is the base every part but the protocol may use. */
const DEPS: Record<string, string[]> = {
  protocol: [],
  util: [],
  log: ['util'],
  curriculum: ['util'],
  loop: ['config', 'curriculum', 'envs', 'log', 'util'],
  config: ['util'],
  chat: ['util'],
  run: ['protocol', 'util'],
  replay: ['protocol', 'util'],
  envs: ['chat', 'util'],
  arena: ['envs', 'util'],
  suites: ['arena', 'config', 'envs', 'util'],
  model: ['chat', 'envs', 'util'],
  search: ['envs', 'util'],
  episode: ['config', 'envs', 'model', 'protocol', 'search', 'util'],
  strategies: ['config', 'envs', 'episode', 'model', 'search', 'util'],
  export: ['chat', 'model', 'protocol', 'replay', 'util'],
  report: ['config', 'envs', 'util'],
  viewer: ['envs', 'util'],
  'actors/roles': [
    'config',
    'envs',
    'episode',
    'export',
    'log',
    'model',
    'protocol',
    'replay',
    'run',
    'search',
    'strategies',
    'suites',
    'util',
  ],
  'actors/supervisor': ['config', 'curriculum', 'envs', 'log', 'loop', 'protocol', 'run', 'suites', 'util'],
  chaos: ['config', 'protocol', 'replay', 'run', 'util'],
  cli: [
    'actors/roles',
    'actors/supervisor',
    'arena',
    'chaos',
    'config',
    'envs',
    'export',
    'log',
    'model',
    'protocol',
    'replay',
    'report',
    'run',
    'strategies',
    'suites',
    'util',
    'viewer',
  ],
};

/** Folders that group parts rather than being one. */
const GROUPS = ['actors'];

/**
 * Where importers from outside enter a part: its index.ts. Three parts have a lighter entry beside
 * it, for importers that must not load what index.ts loads (Playwright, TensorFlow.js) in every
 * worker process. The command line's entry is what bin/tti-run runs.
 */
const ENTRIES: Record<string, string[]> = {
  cli: ['main'],
  envs: ['index', 'without-browser'],
  episode: ['index', 'policy-input'],
  model: ['index', 'without-tfjs', 'chat/index'],
};
const entriesOf = (part: string): string[] => (DEPS[part] === undefined ? [] : (ENTRIES[part] ?? ['index']));

const src = path.join(projectRoot, 'src');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return sources(full);
    return e.name.endsWith('.ts') ? [full] : [];
  });
}

/** The part of src/ a path (relative to src/, without extension) belongs to, and the rest of it. */
function partOf(rel: string): { part: string; inside: string } {
  const segments = rel.split('/');
  const depth = GROUPS.includes(segments[0]!) ? 2 : 1;
  return { part: segments.slice(0, depth).join('/'), inside: segments.slice(depth).join('/') };
}

interface Import {
  from: string;
  fromPart: string;
  /** the imported module, relative to src/ (null: outside src/) */
  target: string | null;
  part: string;
  inside: string;
}

/** Every relative import (static, re-export or dynamic) of a file. */
function importsOf(file: string): Import[] {
  const text = readFileSync(file, 'utf8');
  const specifiers = [
    ...text.matchAll(/(?:(?:import|export)\s[^'";]*?from\s+|import\(\s*)['"](\.{1,2}\/[^'"]+)['"]/g),
  ].map((m) => m[1]!);
  const from = path.relative(projectRoot, file);
  const fromSrc = path.relative(src, file).replace(/\.ts$/, '');
  const fromPart = from.startsWith('src/') ? partOf(fromSrc).part : from.split('/')[0]!;
  return specifiers.map((s) => {
    const resolved = path.resolve(path.dirname(file), s).replace(/\.js$/, '');
    const rel = path.relative(src, resolved);
    if (rel.startsWith('..')) return { from, fromPart, target: null, part: '', inside: '' };
    return { from, fromPart, target: rel, ...partOf(rel) };
  });
}

const srcImports = sources(src).flatMap(importsOf);
const crossing = srcImports.filter((i) => i.target !== null && i.part !== i.fromPart);

test('every top-level part of src/ has a rule', () => {
  const parts = readdirSync(src, { withFileTypes: true }).flatMap((e) => {
    const name = e.name.replace(/\.ts$/, '');
    if (!e.isDirectory()) return e.name.endsWith('.ts') ? [name] : [];
    if (!GROUPS.includes(name)) return [name];
    return readdirSync(path.join(src, name), { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => `${name}/${d.name}`);
  });
  assert.deepEqual(parts.filter((p) => DEPS[p] === undefined).sort(), [], 'parts without a rule');
  assert.deepEqual(
    Object.keys(DEPS)
      .filter((p) => !parts.includes(p))
      .sort(),
    [],
    'rules for parts that do not exist',
  );
  for (const part of Object.keys(DEPS)) {
    for (const entry of entriesOf(part)) {
      const file = `${part}/${entry}.ts`;
      assert.ok(existsSync(path.join(src, file)), `src/${file}, an entry of ${part}, exists`);
    }
  }
});

test('no part imports a part its rule does not allow', () => {
  const violations = crossing
    .filter((i) => !(DEPS[i.fromPart] ?? []).includes(i.part))
    .map(
      (i) => `${i.from} imports src/${i.target} (${i.fromPart} may import: ${DEPS[i.fromPart]?.join(', ')})`,
    );
  assert.deepEqual(violations, []);
});

test('strategies import the episode runner, never each other', () => {
  const strategies = srcImports.filter((i) => i.from.startsWith('src/strategies/'));
  const modules = [...new Set(strategies.map((i) => i.from))].filter((f) => f !== 'src/strategies/index.ts');
  assert.ok(modules.length >= 3, `strategy modules in src/strategies: ${modules.join(', ')}`);
  const eachOther = strategies
    .filter((i) => i.from !== 'src/strategies/index.ts' && i.part === 'strategies')
    .map((i) => `${i.from} imports src/${i.target}`);
  assert.deepEqual(eachOther, [], 'a strategy imports another');
  const withoutRunner = modules.filter((f) => !strategies.some((i) => i.from === f && i.part === 'episode'));
  assert.deepEqual(withoutRunner, [], 'strategies that do not plug into the episode runner');
});

test('the protocol imports nothing of tti', () => {
  const protocol = srcImports.filter((i) => i.fromPart === 'protocol' && i.part !== 'protocol');
  assert.deepEqual(
    protocol.map((i) => `${i.from} imports ${i.target ?? 'outside src/'}`),
    [],
  );
});

test('importers from outside a part enter it through its index.ts', () => {
  const outsideSrc = ['test', 'bench']; // tests and benches reach each module, as unit tests must
  const experiments = existsSync(path.join(projectRoot, 'experiments'))
    ? sources(path.join(projectRoot, 'experiments')).flatMap(importsOf)
    : [];
  const bypassing = [...crossing, ...experiments.filter((i) => i.target !== null)]
    .filter((i) => !outsideSrc.includes(i.fromPart))
    .filter((i) => !entriesOf(i.part).includes(i.inside))
    .map(
      (i) => `${i.from} imports src/${i.target}, not an entry of ${i.part} (${entriesOf(i.part).join(', ')})`,
    );
  assert.deepEqual(bypassing, []);
});

/**
 * Every module a file loads through relative imports (itself included), and the packages they
 * import. Type-only imports load nothing (tsc erases them), so the walk does not follow them.
 */
function reachableFrom(file: string): { modules: string[]; packages: string[] } {
  const modules = new Set<string>();
  const packages = new Set<string>();
  const visit = (at: string) => {
    if (modules.has(at)) return;
    modules.add(at);
    const text = readFileSync(at, 'utf8');
    for (const m of text.matchAll(
      /((?:import|export)\s[^'";]*?from\s+|import\(\s*|^import\s+)['"]([^'"]+)['"]/gm,
    )) {
      if (/^(?:import|export)\s+type\s/.test(m[1]!)) continue;
      const specifier = m[2]!;
      if (specifier.startsWith('.')) visit(path.resolve(path.dirname(at), specifier).replace(/\.js$/, '.ts'));
      else if (!specifier.startsWith('node:')) packages.add(specifier.split('/')[0]!);
    }
  };
  visit(file);
  return { modules: [...modules].map((m) => path.relative(src, m)), packages: [...packages].sort() };
}

test('the loop reaches no actor, nact or ZeroMQ, even through the parts it imports', () => {
  const { modules, packages } = reachableFrom(path.join(src, 'loop', 'index.ts'));
  assert.ok(modules.includes('loop/tti-loop.ts'), 'the walk follows the loop index');
  assert.ok(
    modules.includes('curriculum/horizon-schedule.ts'),
    'the walk follows the parts the loop imports',
  );
  const supervisor = reachableFrom(path.join(src, 'actors', 'supervisor', 'index.ts')).packages;
  assert.ok(
    supervisor.includes('nact') && supervisor.includes('zeromq'),
    'the walk finds what the supervisor loads',
  );
  assert.deepEqual(
    modules.filter((m) => m.startsWith('actors/') || m.startsWith('protocol/')),
    [],
    'actor or protocol modules the loop reaches',
  );
  for (const banned of ['nact', 'zeromq', 'playwright-core', '@tensorflow'])
    assert.ok(!packages.includes(banned), `the loop reaches ${banned} (packages: ${packages.join(', ')})`);
});

/** A cycle in a graph given as adjacency lists, or null. */
function cycleIn(edges: Record<string, string[]>): string[] | null {
  const state = new Map<string, 'open' | 'done'>();
  const trail: string[] = [];
  const visit = (node: string): string[] | null => {
    if (state.get(node) === 'done') return null;
    if (state.get(node) === 'open') return [...trail.slice(trail.indexOf(node)), node];
    state.set(node, 'open');
    trail.push(node);
    for (const next of edges[node] ?? []) {
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    trail.pop();
    state.set(node, 'done');
    return null;
  };
  for (const node of Object.keys(edges)) {
    const cycle = visit(node);
    if (cycle) return cycle;
  }
  return null;
}

test('the parts import one another without a cycle', () => {
  assert.equal(cycleIn(DEPS)?.join(' → ') ?? null, null, 'the rules allow a cycle');
  const actual: Record<string, string[]> = {};
  for (const i of crossing) actual[i.fromPart] = [...(actual[i.fromPart] ?? []), i.part];
  assert.equal(cycleIn(actual)?.join(' → ') ?? null, null, 'the imports make a cycle');
});

test('the cycle check finds a cycle', () => {
  assert.deepEqual(cycleIn({ envs: ['chat'], chat: ['model'], model: ['envs'] }), [
    'envs',
    'chat',
    'model',
    'envs',
  ]);
  assert.equal(cycleIn({ envs: ['chat'], model: ['chat', 'envs'] }), null);
});
