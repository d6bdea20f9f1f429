// `credentials issue` and `revoke` rewrite the allow-list; run at once from several processes, each
// edit holds the list's lock, so every issued key is in the list and every revoke took.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { issueCredential, readAllowList, withAllowListLock } from '../../src/run/index.js';
import { runCli } from '../helpers/run-fixture.js';

// eight CLI processes start at once: on a loaded 2-core machine each can take a minute to load
const CLI_MS = 240000;

test('issues and revokes from several processes at once lose no edit', async (t) => {
  const runDir = mkdtempSync(path.join(tmpdir(), 'tti-lock-'));
  t.after(() => rmSync(runDir, { recursive: true, force: true }));
  const first = issueCredential(runDir, 'inference');
  const second = issueCredential(runDir, 'inference');
  const issues = Array.from({ length: 6 }, (_, i) =>
    runCli(
      [
        'credentials',
        'issue',
        '--run-dir',
        runDir,
        '--role',
        'env',
        '--out',
        path.join(runDir, `env-${i}.json`),
      ],
      CLI_MS,
    ),
  );
  const revokes = [first, second].map((c) =>
    runCli(['credentials', 'revoke', '--run-dir', runDir, '--id', c.id], CLI_MS),
  );
  for (const result of await Promise.all([...issues, ...revokes]))
    assert.equal(result.code, 0, result.stderr);
  const list = readAllowList(runDir);
  assert.equal(list.keys.filter((k) => k.role === 'env').length, 6);
  assert.equal(new Set(list.keys.map((k) => k.id)).size, 8);
  assert.ok(list.keys.filter((k) => k.role === 'inference').every((k) => k.revokedAt !== null));
});

test("a lock left by a process that died is taken over, and a live holder's is waited for", (t) => {
  const runDir = mkdtempSync(path.join(tmpdir(), 'tti-lock-'));
  t.after(() => rmSync(runDir, { recursive: true, force: true }));
  issueCredential(runDir, 'env');
  // pid 2^22 + 1 is beyond Linux's pid_max default: no such process
  writeFileSync(path.join(runDir, 'curve', 'allow.json.lock'), String(4_194_305));
  issueCredential(runDir, 'env');
  assert.equal(readAllowList(runDir).keys.length, 2);
  // Held by a live process (this one, inside an edit): the nested edit cannot take it and times out.
  assert.throws(
    () => withAllowListLock(runDir, () => withAllowListLock(runDir, () => undefined)),
    /is held \(pid \d+\)/,
  );
});
