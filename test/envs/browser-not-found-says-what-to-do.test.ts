import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { BrowserNotFoundError, findChromium } from '../../src/envs/index.js';

const empty = () => mkdtempSync(path.join(tmpdir(), 'tti-nochrome-'));

test('with no browser anywhere, the error says to apt-get install chromium or set TTI_CHROMIUM', () => {
  assert.throws(
    () => findChromium({ env: { PATH: empty() }, skipPlaywright: true }),
    (e: unknown) =>
      e instanceof BrowserNotFoundError &&
      e.message.includes('apt-get install -y chromium') &&
      e.message.includes('TTI_CHROMIUM=/path/to/chrome'),
  );
});

test('TTI_CHROMIUM wins, CHROME_PATH is accepted, and a wrong path is named', () => {
  const dir = empty();
  const fake = path.join(dir, 'my-chrome');
  writeFileSync(fake, '#!/bin/sh\n');
  chmodSync(fake, 0o755);
  assert.equal(findChromium({ env: { TTI_CHROMIUM: fake, PATH: '' } }), fake);
  assert.equal(findChromium({ env: { CHROME_PATH: fake, PATH: '' } }), fake);
  assert.throws(
    () => findChromium({ env: { TTI_CHROMIUM: '/no/such/chrome', PATH: '' } }),
    /TTI_CHROMIUM=\/no\/such\/chrome is not an executable file/,
  );
});

test('system chromium-browser / google-chrome on PATH are found', () => {
  const dir = empty();
  const chrome = path.join(dir, 'google-chrome');
  writeFileSync(chrome, '#!/bin/sh\n');
  chmodSync(chrome, 0o755);
  assert.equal(findChromium({ env: { PATH: dir }, skipPlaywright: true }), chrome);
  // and on this machine, the real one
  assert.match(findChromium(), /chrom/);
});
