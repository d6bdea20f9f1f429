import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runCli } from '../helpers/run-fixture.js';

test("tasks check --json runs MiniArena's oracle on a sample and reports the rate by tier", async () => {
  const result = await runCli(['tasks', 'check', '--split', 'test', '--limit', '3', '--json'], 120000);
  assert.equal(result.code, 0, result.stderr);
  const report = JSON.parse(result.stdout) as {
    tasks: number;
    solved: number;
    rate: number;
    byTier: Record<string, { tasks: number; solved: number }>;
    failures: unknown[];
  };
  assert.equal(report.tasks, 3);
  assert.equal(report.rate, report.solved / report.tasks);
  assert.ok(report.rate >= 0.99, JSON.stringify(report.failures));
  assert.deepEqual(Object.keys(report.byTier).sort(), ['1', '2', '3']);
});
