// `tti-run export-sft`'s file is what scripts/train_sft.py hands TRL: system, then user and
// assistant turns in turn, the step's reply as the last (assistant) turn, and one image part per
// recorded screenshot shown. The script's own reading of the file (`--check-data`, standard library
// only, run with the real python3) turns each image part into one `{"type": "image"}` placeholder
// with one image beside it, keeps the assistant turn alone as the completion, and names the file
// and line of a malformed sample.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import type { SftSample } from '../../src/export/sft.js';
import { projectRoot } from '../../src/util/index.js';
import { runCli } from '../helpers/run-fixture.js';
import { writeSftRun } from '../helpers/sft-fixture.js';

const script = path.join(projectRoot, 'scripts', 'train_sft.py');
const hasPython = spawnSync('python3', ['--version']).status === 0;

function imageUrls(sample: SftSample): string[] {
  return sample.messages.flatMap((m) =>
    typeof m.content === 'string'
      ? []
      : m.content.flatMap((p) => (p.type === 'image_url' ? [p.image_url.url] : [])),
  );
}

function checkData(file: string): {
  code: number | null;
  json: Record<string, unknown> | null;
  stderr: string;
} {
  const r = spawnSync('python3', ['-B', script, '--check-data', '--data', file, '--out', `${file}.out`], {
    encoding: 'utf8',
  });
  return { code: r.status, json: r.status === 0 ? JSON.parse(r.stdout) : null, stderr: r.stderr };
}

test('the SFT export is the trainer’s conversational format: roles, image placeholders, the reply last', async (t) => {
  const runDir = mkdtempSync(path.join(tmpdir(), 'tti-sft-format-'));
  t.after(() => rmSync(runDir, { recursive: true, force: true }));
  const { kept } = writeSftRun(runDir);
  const files = path.join(runDir, 'files.jsonl');
  const urls = path.join(runDir, 'urls.jsonl');
  for (const [out, images] of [
    [files, 'files'],
    [urls, 'data_url'],
  ] as const) {
    const r = await runCli(['export-sft', '--run-dir', runDir, '--out', out, '--images', images]);
    assert.equal(r.code, 0, r.stderr);
  }
  const samples = readFileSync(files, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as SftSample);
  assert.equal(
    samples.length,
    kept.reduce((n, k) => n + k.steps.length, 0),
  );
  let shown = 0;
  for (const s of samples) {
    const roles = s.messages.map((m) => m.role);
    assert.equal(roles[0], 'system');
    assert.equal(roles.at(-1), 'assistant', 'the target reply is the last turn');
    // after the system turn: user, assistant, user, …, assistant
    assert.deepEqual(
      roles.slice(1),
      roles.slice(1).map((_, i) => (i % 2 === 0 ? 'user' : 'assistant')),
    );
    const last = s.messages.at(-1)!;
    assert.equal(typeof last.content, 'string', 'the reply carries no image');
    const steps = kept.find((k) => k.episodeId === s.metadata.episode_id)!.steps;
    assert.equal(last.content, steps[s.metadata.step]!.reply);
    // trajectory a recorded screenshots of steps 0-2; b none; at most 3 shown (max_images)
    const expected = s.metadata.episode_id === 'a' ? Math.min(3, s.metadata.step + 1) : 0;
    const images = imageUrls(s);
    assert.equal(images.length, expected, `${s.metadata.episode_id} step ${s.metadata.step}`);
    for (const f of images) assert.ok(path.isAbsolute(f) && existsSync(f), f);
    shown += images.length;
  }
  assert.ok(shown > 0);

  if (!hasPython) {
    t.diagnostic('python3 is not on PATH: the trainer’s own reading of the file was not run');
    return;
  }
  for (const [file, kind] of [
    [files, 'path'],
    [urls, 'bytes'],
  ] as const) {
    const r = checkData(file);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(r.json, {
      samples: samples.length,
      images: shown,
      placeholders: shown,
      completionRoles: ['assistant'],
      promptRoles: ['assistant', 'system', 'user'],
      imageKinds: [kind],
    });
  }

  // A sample whose last turn is not the reply, and one whose screenshot is gone, are named.
  const bad = path.join(runDir, 'bad.jsonl');
  const lines = readFileSync(files, 'utf8').trim().split('\n');
  const first = JSON.parse(lines[0]!) as SftSample;
  writeFileSync(bad, `${lines[1]}\n${JSON.stringify({ ...first, messages: first.messages.slice(0, -1) })}\n`);
  const r = checkData(bad);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /bad\.jsonl:2: the last turn must be the assistant's reply/);
  const withImage = lines.find((l) => imageUrls(JSON.parse(l) as SftSample).length > 0)!;
  const gone = imageUrls(JSON.parse(withImage) as SftSample)[0]!;
  rmSync(gone);
  writeFileSync(bad, `${withImage}\n`);
  const missing = checkData(bad);
  assert.equal(missing.code, 2);
  assert.ok(
    missing.stderr.includes(`bad.jsonl:1 messages[`) && missing.stderr.includes(`${gone} does not exist`),
  );
});
