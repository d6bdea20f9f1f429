import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BackendUnavailableError, currentBackend, loadBackend } from '../../src/model/index.js';

test('auto picks the best backend that loads, says why the others were skipped, and is idempotent', async () => {
  const lines: string[] = [];
  const name = await loadBackend('auto', (m) => lines.push(m));
  assert.ok(['gpu', 'node', 'wasm', 'cpu'].includes(name));
  assert.equal(currentBackend(), name);
  assert.equal(lines.length, 1);
  assert.match(lines[0]!, new RegExp(`model backend: ${name}`));
  if (name === 'wasm') assert.match(lines[0]!, /skipped gpu: .*tfjs-node-gpu.*; node: .*tfjs-node/);
  const again: string[] = [];
  assert.equal(await loadBackend('auto', (m) => again.push(m)), name);
  assert.deepEqual(again, [], 'a second load neither reloads nor logs');
});

test('a forced native backend that is not installed throws naming the package and what to do', async (t) => {
  for (const [which, pkg] of [
    ['gpu', '@tensorflow/tfjs-node-gpu'],
    ['node', '@tensorflow/tfjs-node'],
  ] as const) {
    let loads = true;
    try {
      await import(pkg);
    } catch {
      loads = false;
    }
    if (loads) {
      t.diagnostic(`${pkg} is installed here; its failure path is not exercised`);
      continue;
    }
    await assert.rejects(loadBackend(which), (error: unknown) => {
      assert.ok(error instanceof BackendUnavailableError);
      assert.match(error.message, new RegExp(`backend '${which}' needs ${pkg.replace('/', '\\/')}`));
      assert.match(error.message, new RegExp(`npm install ${pkg.replace('/', '\\/')}`));
      assert.match(error.message, /'auto', 'wasm' or 'cpu'/);
      return true;
    });
  }
});

test('forcing cpu and then wasm switches the backend', async () => {
  assert.equal(await loadBackend('cpu'), 'cpu');
  assert.equal(currentBackend(), 'cpu');
  assert.equal(await loadBackend('wasm'), 'wasm');
  assert.equal(currentBackend(), 'wasm');
});
