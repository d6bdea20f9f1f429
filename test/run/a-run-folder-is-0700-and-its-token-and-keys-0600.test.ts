// Whatever the umask, a run's folders (the run, its logs and sockets, the key folder) are the
// owner's alone, and its token, keys and allow-list are readable by the owner only.
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { createRunToken, issueCredential, RunDir } from '../../src/run/index.js';

const modeOf = (file: string) => statSync(file).mode & 0o777;

test('a run folder is 0700 and its token, keys and allow-list 0600 under a permissive umask', (t) => {
  const base = mkdtempSync(path.join(tmpdir(), 'tti-modes-'));
  t.after(() => rmSync(base, { recursive: true, force: true }));
  const previous = process.umask(0o002);
  t.after(() => process.umask(previous));
  const runDir = new RunDir(path.join(base, 'runs', 'demo'));
  runDir.create();
  createRunToken(runDir);
  issueCredential(runDir.root, 'env');
  for (const dir of [runDir.root, runDir.logs, runDir.sockets, path.join(runDir.root, 'curve')])
    assert.equal(modeOf(dir).toString(8), '700', dir);
  for (const file of [
    runDir.token,
    path.join(runDir.root, 'curve', 'keys.json'),
    path.join(runDir.root, 'curve', 'allow.json'),
  ])
    assert.equal(modeOf(file).toString(8), '600', file);
});

test('a run folder that exists with a wider mode is narrowed to 0700', (t) => {
  const base = mkdtempSync(path.join(tmpdir(), 'tti-modes-'));
  t.after(() => rmSync(base, { recursive: true, force: true }));
  chmodSync(base, 0o755);
  const runDir = new RunDir(base);
  runDir.create();
  assert.equal(modeOf(runDir.root).toString(8), '700');
  assert.equal(modeOf(runDir.sockets).toString(8), '700');
});
