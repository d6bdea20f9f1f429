// writeFileAtomic (state.json, config.yaml, the token, supervisor.json) on a real full disk (a
// small tmpfs): the write throws ENOSPC, the old file is still whole, and no temp file is left to
// hold the space; once space returns the same write replaces the file.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { RunDir, writeFileAtomic } from '../../src/run/run-dir.js';

test('an atomic write a full disk cannot hold leaves the old file whole and no temp file', (t) => {
  const mount = mkdtempSync(path.join(tmpdir(), 'tti-atomic-'));
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', mount]);
  t.after(() => {
    execFileSync('umount', [mount]);
    rmSync(mount, { recursive: true, force: true });
  });
  const runDir = new RunDir(path.join(mount, 'run'));
  runDir.create();
  writeFileAtomic(runDir.config, 'iterations: 1\n');
  const big = `# ${'x'.repeat(200 * 1024)}\niterations: 2\n`;
  assert.throws(
    () => writeFileAtomic(runDir.config, big),
    (error: NodeJS.ErrnoException) => error.code === 'ENOSPC',
  );
  assert.equal(readFileSync(runDir.config, 'utf8'), 'iterations: 1\n', 'the old file is whole');
  assert.deepEqual(
    readdirSync(runDir.root).filter((name) => name.endsWith('.tmp')),
    [],
    'no temp file holds the space',
  );
  execFileSync('mount', ['-o', 'remount,size=1m', mount]);
  writeFileAtomic(runDir.config, big);
  assert.equal(readFileSync(runDir.config, 'utf8'), big);
});
