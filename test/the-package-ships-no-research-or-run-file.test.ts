// Research and its run files live under experiments/, outside the product: `npm pack` must not
// ship them, and the docs must not hold raw run files again.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { projectRoot } from '../src/util/paths.js';

const RUN_FILE = /(^|\/)(metrics-[^/]*\.jsonl|(untrained-)?eval-[^/]*-test-split\.json|retrain-[^/]*\.json)$/;

test('npm pack lists the built product and no experiment or run file', () => {
  const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
    cwd: projectRoot,
    encoding: 'utf8',
  });
  const files = (JSON.parse(out) as { files: { path: string }[] }[])[0]!.files.map((f) => f.path);
  assert.ok(files.includes('dist/src/cli/main.js'), 'the CLI is in the package');
  const research = files.filter(
    (f) =>
      f.startsWith('experiments/') ||
      f.includes('/experiments/') ||
      f.startsWith('docs/results') ||
      RUN_FILE.test(f),
  );
  assert.deepEqual(research, []);
});

test('docs hold no raw run files: they live with the study that produced them', () => {
  const docs = readdirSync(path.join(projectRoot, 'docs'), { recursive: true, encoding: 'utf8' });
  assert.deepEqual(
    docs.filter((f) => f.startsWith('results/') || RUN_FILE.test(f)),
    [],
  );
  assert.ok(existsSync(path.join(projectRoot, 'experiments', 'quick-preset', 'README.md')));
});
