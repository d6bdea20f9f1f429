// `--resume` runs what RUN_DIR/config.yaml names (learner.command) and trusts the folder's keys: a
// folder another user owns, or one others can write, is refused through the real CLI before
// anything is read, naming the path. (Tests run as root: chown makes "another user".)
import assert from 'node:assert/strict';
import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { runCli } from '../helpers/run-fixture.js';

function stoppedRun(t: { after: (f: () => void) => void }): string {
  const base = mkdtempSync(path.join(tmpdir(), 'tti-own-'));
  t.after(() => rmSync(base, { recursive: true, force: true }));
  const runDir = path.join(base, 'run');
  mkdirSync(runDir, { mode: 0o700 });
  chmodSync(runDir, 0o700);
  // What a hostile edit would leave: a learner command to run.
  writeFileSync(path.join(runDir, 'config.yaml'), 'learner:\n  command: [touch, /tmp/pwned]\n', {
    mode: 0o600,
  });
  writeFileSync(path.join(runDir, 'state.json'), '{}', { mode: 0o600 });
  return runDir;
}

const resume = (runDir: string) => runCli(['train', '--resume', '--run-dir', runDir, '--view', 'log']);

test('a run directory another user owns is refused on --resume, naming it', async (t) => {
  if (process.getuid?.() !== 0) return t.skip('needs root to give a folder to another user');
  const runDir = stoppedRun(t);
  chownSync(runDir, 65534, 65534);
  const result = await resume(runDir);
  assert.notEqual(result.code, 0);
  assert.match(result.stderr, /refusing to resume .*owned by uid 65534/);
});

test("a config another user owns, in one's own folder, is refused on --resume", async (t) => {
  if (process.getuid?.() !== 0) return t.skip('needs root to give a file to another user');
  const runDir = stoppedRun(t);
  chownSync(path.join(runDir, 'config.yaml'), 65534, 65534);
  const result = await resume(runDir);
  assert.notEqual(result.code, 0);
  assert.match(result.stderr, /config\.yaml is owned by uid 65534/);
});

test('a run directory others can write is refused on --resume, and so is a detached resume', async (t) => {
  const runDir = stoppedRun(t);
  chmodSync(runDir, 0o777);
  const result = await resume(runDir);
  assert.notEqual(result.code, 0);
  assert.match(result.stderr, /others can write .* \(mode 777\)/);
  const detached = await runCli(['train', '--resume', '--run-dir', runDir, '--detach']);
  assert.notEqual(detached.code, 0);
  assert.match(detached.stderr, /others can write/);
});
