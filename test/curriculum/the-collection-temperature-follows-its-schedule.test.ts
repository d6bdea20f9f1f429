import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { loadConfig } from '../../src/config/load.js';
import { finalTemperature, temperatureAt } from '../../src/curriculum/temperature-schedule.js';

test('one temperature holds at every iteration', () => {
  assert.deepEqual(
    [1, 2, 10].map((i) => temperatureAt(1, i)),
    [1, 1, 1],
  );
  assert.equal(finalTemperature(0.8), 0.8);
});

test('a list gives one temperature per iteration and its last entry repeats', () => {
  const schedule = [1, 1, 0.7, 0.5];
  assert.deepEqual(
    [1, 2, 3, 4, 5, 12].map((i) => temperatureAt(schedule, i)),
    [1, 1, 0.7, 0.5, 0.5, 0.5],
  );
  assert.equal(finalTemperature(schedule), 0.5);
  assert.throws(() => temperatureAt(schedule, 0), /iteration must be ≥ 1/);
});

test('the config takes a number or a list, and a bad entry names the key', () => {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'tti-temperature-')), 'c.yaml');
  writeFileSync(file, '');
  assert.equal(loadConfig(file).temperature, 1);
  assert.deepEqual(loadConfig(file, ['temperature=[1, 0.5]']).temperature, [1, 0.5]);
  assert.equal(loadConfig(file, ['temperature=0.5']).temperature, 0.5);
  assert.throws(() => loadConfig(file, ['temperature=[1, -0.5]']), /key 'temperature/);
  assert.throws(() => loadConfig(file, ['temperature=[]']), /key 'temperature'/);
  assert.throws(
    () => loadConfig(file, ['temperature=hot']),
    /key 'temperature': got "hot"; expected a temperature ≥ 0, or a list of them/,
  );
});
