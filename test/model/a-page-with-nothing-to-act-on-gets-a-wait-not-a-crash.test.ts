// A page can offer the token policy no candidate at all (only text, or a canvas): the decision is
// TTI's Wait, an action the env runs, where it used to read past the end of the candidate list.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseTtiReply } from '../../src/envs/index.js';
import { decide } from '../../src/model/policy.js';

test('no candidates: a Wait the env parses, greedy or sampled', () => {
  for (const greedy of [true, false]) {
    const d = decide([], new Float32Array(0), { greedy, temperature: 1, random: () => 0.5 });
    assert.equal(d.action, 'Wait');
    assert.equal(d.candidates, 0);
    assert.deepEqual(parseTtiReply(d.reply), { type: 'wait' });
  }
});
