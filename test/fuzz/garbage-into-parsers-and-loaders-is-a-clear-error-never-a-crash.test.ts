// Seeded fuzzing of what reads outside input: the action parsers with garbage and mangled model
// replies, the config loader and the task loader with broken files. Each input gives a result or
// the loader's own error naming the file; none throws anything else (a TypeError would be a crash
// of the worker that read it). The seed is fixed so that a failure reproduces.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config/load.js';
import { parseWebArenaAction } from '../../src/envs/actions/parse-webarena.js';
import { ActionParsingError } from '../../src/envs/actions/types.js';
import {
  formatTaskIssue,
  parseTtiReply,
  parseWebArenaReply,
  validateTaskFile,
} from '../../src/envs/index.js';
import { projectRoot } from '../../src/util/paths.js';
import { SeededRandom } from '../../src/util/random.js';

const random = new SeededRandom(20250607);
const pick = <T>(items: readonly T[]): T => items[Math.floor(random.next() * items.length)]!;
const PIECES = [
  '[',
  ']',
  '```',
  'Action:',
  'Thought:',
  '\n',
  '\0',
  '\\',
  '"',
  '{',
  '}',
  ':',
  '-1',
  '99999999999999999999',
  '💥',
  '\u202e',
  ' ',
  'N/A',
  'stop',
  'Click',
  'Type',
  'Scroll',
  'ANSWER',
  'goto',
  'tab_focus',
];

/** A mangled copy: characters dropped, swapped for others, pieces of syntax and junk spliced in. */
function mangle(text: string, edits: number): string {
  let s = text;
  for (let i = 0; i < edits; i++) {
    const at = Math.floor(random.next() * (s.length + 1));
    const op = random.next();
    if (op < 0.3) s = s.slice(0, at) + s.slice(at + 1 + Math.floor(random.next() * 5));
    else if (op < 0.6) s = s.slice(0, at) + pick(PIECES) + s.slice(at);
    else if (op < 0.8)
      s = s.slice(0, at) + String.fromCharCode(Math.floor(random.next() * 0x3000)) + s.slice(at + 1);
    else
      s = s.slice(0, at) + s.slice(at, at + 20).repeat(1 + Math.floor(random.next() * 3)) + s.slice(at + 20);
  }
  return s;
}

const randomBytes = (n: number) =>
  Buffer.from(Array.from({ length: n }, () => Math.floor(random.next() * 256))).toString('utf8');

test('the action parsers turn 3000 garbage and mangled replies into actions, never an exception', () => {
  const replies = [
    'Thought: the price is on the page.\nAction: ANSWER [$12.50]',
    'Thought: open it.\nAction: Click [42]',
    'Thought: search.\nAction: Type [7] [blue mug]',
    'Thought: more.\nAction: Scroll [3] [down]',
    "Let's think. In summary, the next action I will perform is ```type [5] [hello world] [0]```",
    'In summary, the next action I will perform is ```goto [http://x.test/a?b=1]```',
    '```tab_focus [2]```',
    'stop [N/A]',
  ];
  let none = 0;
  for (let i = 0; i < 3000; i++) {
    const reply =
      i % 10 === 0 ? randomBytes(1 + Math.floor(random.next() * 400)) : mangle(pick(replies), 1 + (i % 12));
    // The action-string parser raises WebArena's ActionParsingError, which the reply parser turns
    // into a none action; nothing else may come out of either.
    try {
      parseWebArenaAction(reply);
    } catch (error) {
      assert.ok(error instanceof ActionParsingError, `${(error as Error).name} on ${JSON.stringify(reply)}`);
    }
    for (const parse of [parseTtiReply, parseWebArenaReply]) {
      const action = parse(reply);
      assert.equal(typeof action.type, 'string', JSON.stringify(reply));
      if (action.type === 'none') {
        assert.ok(action.error.length > 0, 'a none action says why');
        none += 1;
      }
    }
  }
  assert.ok(none > 0, 'garbage was recognised as garbage');
  // One very long reply does not take long to refuse: linear parsing takes milliseconds, quadratic
  // backtracking over these 300k characters tens of seconds, so the bound is wide enough for any load.
  const started = Date.now();
  parseTtiReply(`Thought: ${'['.repeat(200_000)}\nAction: Click [${'9'.repeat(100_000)}`);
  parseWebArenaReply(`${'```'.repeat(50_000)}stop [${']'.repeat(100_000)}`);
  assert.ok(Date.now() - started < 10_000, 'no catastrophic backtracking');
});

test('150 broken config files are ConfigErrors naming the file, or load', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'tti-fuzz-config-'));
  const good = readFileSync(path.join(projectRoot, 'configs', 'miniarena.yaml'), 'utf8');
  let refused = 0;
  for (let i = 0; i < 150; i++) {
    const file = path.join(dir, `c${i}.yaml`);
    writeFileSync(file, i % 15 === 0 ? randomBytes(200) : mangle(good, 1 + (i % 8)));
    try {
      loadConfig(file);
    } catch (error) {
      assert.ok(
        error instanceof ConfigError,
        `c${i}.yaml threw ${(error as Error).name}: ${(error as Error).message}`,
      );
      assert.ok(error.message.includes(file), `the error names the file: ${error.message}`);
      refused += 1;
    }
  }
  assert.ok(refused > 50, `most broken configs are refused (${refused})`);
});

test('300 broken task files are reported issue by issue, never thrown', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'tti-fuzz-tasks-'));
  const suite = JSON.parse(
    readFileSync(path.join(projectRoot, 'tasks', 'miniarena', 'train.json'), 'utf8'),
  ) as unknown[];
  const good = JSON.stringify(suite.slice(0, 3), null, 1);
  const goodJsonl = suite
    .slice(0, 3)
    .map((t) => JSON.stringify(t))
    .join('\n');
  let broken = 0;
  for (let i = 0; i < 300; i++) {
    const jsonl = i % 2 === 1;
    const file = path.join(dir, `t${i}.${jsonl ? 'jsonl' : 'json'}`);
    writeFileSync(file, i % 15 === 0 ? randomBytes(300) : mangle(jsonl ? goodJsonl : good, 1 + (i % 10)));
    const report = validateTaskFile(file);
    for (const issue of report.issues) {
      assert.equal(issue.file, file);
      assert.ok(formatTaskIssue(issue).length > 0);
    }
    if (report.issues.length > 0) broken += 1;
  }
  assert.ok(broken > 100, `most broken task files have issues (${broken})`);
});
