// Import boundaries per folder, as Playwright keeps its client/server split: a child process
// imports the protocol, never the supervisor's internals, and the supervisor never runs role code.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { projectRoot } from '../src/paths.js';

const src = path.join(projectRoot, 'src');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return sources(full);
    return e.name.endsWith('.ts') ? [full] : [];
  });
}

/** Project-relative paths (without extension) this file imports. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specifiers = [...text.matchAll(/(?:import|export)[^'"]*?from\s+['"](\.[^'"]+)['"]/g)].map(
    (m) => m[1]!,
  );
  return specifiers.map((s) =>
    path.relative(projectRoot, path.resolve(path.dirname(file), s)).replace(/\.js$/, ''),
  );
}

interface Rule {
  from: string;
  mayNotImport: string[];
}

const RULES: Rule[] = [
  { from: 'src/actors/roles', mayNotImport: ['src/actors/supervisor', 'src/cli'] },
  { from: 'src/actors/supervisor', mayNotImport: ['src/actors/roles', 'src/cli'] },
  {
    from: 'src/protocol',
    mayNotImport: [
      'src/actors',
      'src/chaos',
      'src/cli',
      'src/config',
      'src/curriculum',
      'src/envs',
      'src/export',
      'src/log',
      'src/model',
      'src/paths',
      'src/replay',
      'src/report',
      'src/run',
      'src/viewer',
    ],
  },
  { from: 'src/envs', mayNotImport: ['src/actors/supervisor', 'src/cli'] },
  { from: 'src/model', mayNotImport: ['src/actors/supervisor', 'src/cli'] },
  { from: 'src/curriculum', mayNotImport: ['src/actors/supervisor', 'src/cli'] },
];

test('no folder imports across its boundary', () => {
  const violations: string[] = [];
  for (const file of sources(src)) {
    const from = path.relative(projectRoot, file);
    const rules: Rule[] = RULES.filter((r) => from.startsWith(r.from));
    for (const rule of rules) {
      for (const target of importsOf(file)) {
        if (rule.mayNotImport.some((banned: string) => target.startsWith(banned))) {
          violations.push(`${from} imports ${target}`);
        }
      }
    }
  }
  assert.deepEqual(violations, []);
});
