// Research stays small beside the product: a study keeps a one-screen README, its scripts and a
// reproduce.sh, and its run files live in git history (experiments/README.md names the commit);
// docs/results.md holds the current results only.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { projectRoot } from '../src/util/paths.js';

/** The files git tracks under a folder; outside a git checkout, the files on disk but ignored run folders. */
function tracked(folder: string): string[] {
  try {
    const out = execFileSync('git', ['ls-files', '-z', folder], { cwd: projectRoot, encoding: 'utf8' });
    return out.split('\0').filter((f) => f !== '' && existsSync(path.join(projectRoot, f)));
  } catch {
    return readdirSync(path.join(projectRoot, folder), { recursive: true, encoding: 'utf8' })
      .map((f) => path.join(folder, f))
      .filter((f) => !f.split(path.sep).includes('runs') && statSync(path.join(projectRoot, f)).isFile());
  }
}

const lines = (files: string[]) =>
  files.reduce((n, f) => n + (readFileSync(path.join(projectRoot, f), 'utf8').match(/\n/g)?.length ?? 0), 0);

test('experiments/ holds no .json or .jsonl file', () => {
  assert.deepEqual(
    tracked('experiments').filter((f) => /\.jsonl?$/.test(f)),
    [],
  );
});

test("experiments/ has under a quarter of src/'s lines", () => {
  const research = lines(tracked('experiments'));
  const product = lines(tracked('src'));
  assert.ok(research * 4 < product, `experiments ${research} lines, src ${product}`);
});

test('each study has a README of one screen and a reproduce.sh', () => {
  const studies = readdirSync(path.join(projectRoot, 'experiments'), { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name);
  assert.ok(studies.length > 0);
  const wrong = studies.flatMap((study) => {
    const dir = path.join(projectRoot, 'experiments', study);
    const readme = path.join(dir, 'README.md');
    if (!existsSync(readme)) return [`${study}: no README.md`];
    const n = readFileSync(readme, 'utf8').split('\n').length;
    return [
      ...(n > 40 ? [`${study}: README.md has ${n} lines`] : []),
      ...(existsSync(path.join(dir, 'reproduce.sh')) ? [] : [`${study}: no reproduce.sh`]),
    ];
  });
  assert.deepEqual(wrong, []);
});

test('docs/results.md has at most 150 lines', () => {
  const n = readFileSync(path.join(projectRoot, 'docs', 'results.md'), 'utf8')
    .trimEnd()
    .split('\n').length;
  assert.ok(n <= 150, `docs/results.md has ${n} lines`);
});
