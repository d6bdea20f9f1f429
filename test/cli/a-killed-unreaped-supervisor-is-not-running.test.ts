// `kill -9` of a detached supervisor, then `tti-run train --resume`: until its parent reaps it, the
// dead process is a zombie that still takes signal 0, and resume refused with "a supervisor is
// already running" (a CI run hit it). A zombie is not alive. A shell makes one here: its
// background child exits while the shell, exec'd into `sleep`, never waits for it.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { isAlive } from '../../src/run/status-client.js';

test('a process that exited but was not reaped (a zombie) is not alive; a running one is', async (t) => {
  const parent = spawn('sh', ['-c', 'sleep 0.2 & echo $!; exec sleep 30'], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  t.after(() => parent.kill('SIGKILL'));
  const pid = Number(
    await new Promise<string>((resolve) => parent.stdout.once('data', (d: Buffer) => resolve(d.toString()))),
  );
  assert.ok(isAlive(pid), 'the child is running');
  // Wait until it has exited and become a zombie.
  const deadline = Date.now() + 5000;
  const state = () => {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat[stat.lastIndexOf(')') + 2];
  };
  while (state() !== 'Z' && Date.now() < deadline) await sleep(50);
  assert.equal(state(), 'Z');
  assert.doesNotThrow(() => process.kill(pid, 0), 'a zombie still takes signal 0');
  assert.equal(isAlive(pid), false);
  assert.ok(isAlive(parent.pid!), 'its parent is alive');
});
