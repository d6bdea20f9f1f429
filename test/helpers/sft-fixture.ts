// A run directory whose replay holds kept trajectories with recorded screenshots, for the SFT
// export's tests and the trainer's GPU check (scripts/check-trainer-on-gpu.sh runs this file's main:
// `node dist/test/helpers/sft-fixture.js RUN_DIR OUT.jsonl`; screenshots already in RUN_DIR/episodes,
// real JPEGs the check writes, are kept).
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Trajectory } from '../../src/protocol/index.js';
import { ReplayLog } from '../../src/replay/replay-log.js';
import { runCli } from './run-fixture.js';

const noNodes = { ids: [], roles: [], names: [], depths: [], inViewport: [] };

export function sftTrajectory(id: string, reward: number, steps: number): Trajectory {
  return {
    type: 'trajectory',
    episodeId: id,
    taskId: `task-${id}`,
    site: 'shopping',
    intent: `Find the price (${id})`,
    horizon: 10,
    iteration: 1,
    reward,
    answer: '$5',
    steps: Array.from({ length: steps }, (_, i) => ({
      observation: `Tab 0 (current): page ${i}\n\n[${i}] RootWebArea 'page ${i}'`,
      url: `http://shop.test/p/${i}`,
      nodes: noNodes,
      note: null,
      reply:
        i === steps - 1
          ? 'Thought: found it.\nAction: ANSWER [$5]'
          : `Thought: step ${i}.\nAction: Click [${i}]`,
      action: `click [${i}]`,
      policyVersion: 0,
    })),
  };
}

/** Kept trajectories `a` (4 steps, screenshots of steps 0-2) and `b` (2 steps, none), and a failed one. */
export function writeSftRun(runDir: string): { kept: Trajectory[] } {
  const { log } = ReplayLog.open(path.join(runDir, 'replay'), 100);
  const kept = [sftTrajectory('a', 1, 4), sftTrajectory('b', 1, 2)];
  for (const t of kept) log.append(t);
  log.append({ ...sftTrajectory('failed', 0, 3), answer: null });
  log.close();
  const shots = path.join(runDir, 'episodes', 'a');
  mkdirSync(shots, { recursive: true });
  for (let i = 0; i < 3; i++) {
    const file = path.join(shots, `step-00${i}.jpg`);
    if (!existsSync(file)) writeFileSync(file, Buffer.from(`jpeg-${i}`));
  }
  return { kept };
}

// Its main runs only when given arguments: `npm test` loads every file under dist/test/, this one too.
const asMain =
  process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (asMain && process.argv.length > 2) {
  const [runDir, out] = process.argv.slice(2);
  if (runDir === undefined || out === undefined) {
    console.error('usage: sft-fixture.js RUN_DIR OUT.jsonl');
    process.exit(2);
  }
  writeSftRun(runDir);
  const result = await runCli(['export-sft', '--run-dir', runDir, '--out', out]);
  process.stdout.write(result.stdout);
  process.stderr.write(result.stderr);
  process.exit(result.code ?? 1);
}
