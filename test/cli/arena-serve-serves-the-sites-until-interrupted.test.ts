import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { test } from 'node:test';
import { cliEntry, projectRoot } from '../../src/util/paths.js';

test('tti-run arena serve serves the shop, forum and tracker and stops on SIGINT', async (t) => {
  const child = spawn(process.execPath, [cliEntry, 'arena', 'serve', '--port', '0'], { cwd: projectRoot });
  // A failed test leaves no server behind.
  t.after(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  let output = '';
  const origin = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no origin printed: ${output}`)), 60_000);
    child.stdout.on('data', (d: Buffer) => {
      output += d.toString();
      const match = /at (http:\/\/127\.0\.0\.1:\d+)\//.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
  });
  for (const site of ['shop', 'forum', 'tracker']) {
    const response = await fetch(`${origin}/${site}/`);
    assert.equal(response.status, 200, site);
    assert.match(await response.text(), /<html/i);
  }
  child.kill('SIGINT');
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  assert.equal(code, 0);
});
