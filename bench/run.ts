// `npm run bench`: runs the benchmarks and writes bench/results/*.json. Names as arguments run only
// those (`node dist/bench/run.js inference learner`); the rest keep their last results.
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { projectRoot } from '../src/util/paths.js';
import { envBench } from './env.bench.js';
import { inferenceBench } from './inference.bench.js';
import { miniarenaBench } from './miniarena.bench.js';
import { miniwobBench } from './miniwob.bench.js';
import { screenshotBench } from './screenshot.bench.js';
import { transportBench } from './transport.bench.js';

const resultsDir = path.join(projectRoot, 'bench', 'results');
mkdirSync(resultsDir, { recursive: true });
const machine = {
  node: process.version,
  cpus: os.cpus().length,
  cpu: os.cpus()[0]?.model ?? '?',
  date: new Date().toISOString(),
  loadavg: os.loadavg().map((x) => Math.round(x * 100) / 100),
};
const only = new Set(process.argv.slice(2));
const selected = (name: string) => only.size === 0 || only.has(name);

if (selected('miniwob')) {
  const miniwob = await miniwobBench();
  writeFileSync(
    path.join(resultsDir, 'miniwob.json'),
    `${JSON.stringify({ machine, ...miniwob }, null, 2)}\n`,
  );
  process.stdout.write(
    `miniwob (real pages, ${miniwob.pages.length} tasks × ${miniwob.rounds} rounds): start ${miniwob.startMedianMs} ms, ` +
      `step ${miniwob.stepMedianMs} ms (medians), ${miniwob.envStepsPerS} env steps/s\n`,
  );
}

if (selected('transport')) {
  const transport = await transportBench({ rounds: 25, roundTrips: 500, pipelined: 2000, window: 32 });
  writeFileSync(
    path.join(resultsDir, 'transport.json'),
    `${JSON.stringify({ machine, ...transport }, null, 2)}\n`,
  );
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  const { latency: l, throughput: t, weights50MB: w } = transport;
  process.stdout.write(
    `transport (${transport.observation.encodedBytes} B observation, ipc), medians of interleaved rounds:\n` +
      `  round trip   ours ${l.oursUs.toFixed(1)} µs  bare ${l.bareUs.toFixed(1)} µs  overhead ${pct(l.overhead)} (paired ${pct(l.pairedOverhead)})\n` +
      `  CPU/trip     ours ${l.oursCpuUsPerRoundTrip.toFixed(1)} µs  bare ${l.bareCpuUsPerRoundTrip.toFixed(1)} µs  overhead ${pct(l.cpuOverhead)} (paired ${pct(l.pairedCpuOverhead)})\n` +
      `  throughput   ours ${t.oursPerS.toFixed(0)}/s  bare ${t.barePerS.toFixed(0)}/s  overhead ${pct(t.overheadVsBare)} (paired ${pct(t.pairedOverheadVsBare)})\n` +
      `  requester    round trip ${l.requesterUs.toFixed(1)} µs (${pct(l.requesterOverhead)} over bare)  ` +
      `${t.requesterPerS.toFixed(0)}/s vs bare windowed ${t.bareWindowedPerS.toFixed(0)}/s (${pct(t.requesterOverheadVsBareWindowed)}, paired ${pct(t.pairedRequesterOverheadVsBareWindowed)})\n` +
      `  load average ${transport.loadAverage.before.map((x) => x.toFixed(1)).join(' ')} → ${transport.loadAverage.after.map((x) => x.toFixed(1)).join(' ')}\n` +
      `  50 MB weights publish: median ${w.medianMs.toFixed(1)} ms (max ${w.maxMs.toFixed(1)} ms)\n`,
  );
}

if (selected('env')) {
  const env = await envBench();
  writeFileSync(path.join(resultsDir, 'env.json'), `${JSON.stringify({ machine, ...env }, null, 2)}\n`);
  process.stdout.write(
    `env (${env.page.axNodes} AX nodes, observe + act): ours ${env.ours.stepsPerS.toFixed(2)} steps/s  ` +
      `bare playwright-core ${env.bare.stepsPerS.toFixed(2)} steps/s  ratio ${env.ratio.toFixed(3)} ` +
      `(paired ${env.pairedRatio.toFixed(3)}, floor ${env.floor})\n`,
  );
}

if (selected('episode')) {
  const { episodeStartBench } = await import('./episode-start.bench.js');
  const e = await episodeStartBench();
  writeFileSync(path.join(resultsDir, 'episode.json'), `${JSON.stringify({ machine, ...e }, null, 2)}\n`);
  process.stdout.write(
    `episode start (MiniArena, reset + an answer): new context ${e.start.freshMs.toFixed(0)} ms  reused ` +
      `${e.start.reusedMs.toFixed(0)} ms (${e.start.speedup.toFixed(2)}×); a search typed by keys ` +
      `${e.type.keysMs.toFixed(0)} ms  inserted ${e.type.insertMs.toFixed(0)} ms (${e.type.speedup.toFixed(2)}×)\n`,
  );
}

if (selected('oracle-recording')) {
  const { oracleRecordingBench } = await import('./oracle-recording.bench.js');
  const r = await oracleRecordingBench();
  writeFileSync(
    path.join(resultsDir, 'oracle-recording.json'),
    `${JSON.stringify({ machine, ...r }, null, 2)}\n`,
  );
  process.stdout.write(
    `oracle recording (${r.tasks} train tasks, ${r.perTemplate} a template): before ${r.before.perDemoMs} ms a demo ` +
      `(${r.before.concurrency} browsers), after ${r.after.perDemoMs} ms (${r.after.concurrency} browsers), ` +
      `${r.speedup}×; ${r.extrapolated.tasks} demos ≈ ${r.extrapolated.beforeMin} → ${r.extrapolated.afterMin} min; ` +
      `${r.differing.length} demos differ\n`,
  );
}

if (selected('network-trace')) {
  const { networkTraceBench } = await import('./network-trace.bench.js');
  const n = await networkTraceBench();
  writeFileSync(
    path.join(resultsDir, 'network-trace.json'),
    `${JSON.stringify({ machine, ...n }, null, 2)}\n`,
  );
  process.stdout.write(
    `network trace (per step, shop listing): off ${n.step.offMs.toFixed(1)} ms  on ${n.step.onMs.toFixed(1)} ms  ` +
      `cost ${n.step.costMs.toFixed(2)} ms (${(n.step.costFraction * 100).toFixed(1)}%); per ${n.perEpisode.steps}-step episode ` +
      `${n.perEpisode.entries} entries, ${(n.perEpisode.harBytes / 1024).toFixed(0)} KiB HAR, stop ${n.perEpisode.stopMs.toFixed(1)} ms, score ${n.perEpisode.scoreMs.toFixed(2)} ms\n`,
  );
}

if (selected('screenshot')) {
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  const shots = await screenshotBench();
  writeFileSync(
    path.join(resultsDir, 'screenshot.json'),
    `${JSON.stringify({ machine, ...shots }, null, 2)}\n`,
  );
  process.stdout.write(
    `screenshot (JPEG, 1280×720) per env step: +${shots.step.costMs.toFixed(0)} ms on ${shots.step.offMs.toFixed(0)} ms ` +
      `(${pct(shots.step.costFraction)}; opt-in for training above ${pct(shots.threshold)}); alone ` +
      `${shots.alone.map((a) => `${a.page} ${a.medianMs.toFixed(0)} ms`).join(', ')}\n`,
  );
}

if (selected('miniarena')) {
  const arena = await miniarenaBench();
  writeFileSync(
    path.join(resultsDir, 'miniarena.json'),
    `${JSON.stringify({ machine, ...arena }, null, 2)}\n`,
  );
  process.stdout.write(
    `miniarena: reset p50 ${arena.reset.p50Ms} ms p95 ${arena.reset.p95Ms} ms; ` +
      `server time per page p50 ${arena.pageServerTime.p50Ms} ms p95 ${arena.pageServerTime.p95Ms} ms\n`,
  );
}
if (selected('inference')) {
  const inference = await inferenceBench();
  writeFileSync(
    path.join(resultsDir, 'inference.json'),
    `${JSON.stringify({ machine, ...inference }, null, 2)}\n`,
  );
  process.stdout.write(
    `inference (${inference.concurrentEnvs} concurrent envs, ${inference.backend}): batched ` +
      `${inference.batched.median.toFixed(1)} actions/s  unbatched ${inference.unbatched.median.toFixed(1)} actions/s  ` +
      `speedup ${inference.speedup.toFixed(2)}× (floor ${inference.floor}×); worker CPU per action ` +
      `${inference.batched.workerCpuMsMedian?.toFixed(2)} vs ${inference.unbatched.workerCpuMsMedian?.toFixed(2)} ms ` +
      `(${inference.cpuSpeedup?.toFixed(2)}×), mean batch ${inference.batched.meanBatch.join('/')}; ` +
      `p95 per action ${inference.batched.p95MsMedian} ms batched, ${inference.batchedFeaturizingInWorker.p95MsMedian} ms ` +
      `batched with the worker featurizing, ${inference.unbatched.p95MsMedian} ms unbatched; ` +
      `${inference.batchedAtEnvPace.p95MsMedian} ms batched with envs stepping ${Math.round(inference.batchedAtEnvPace.envStepMs)} ms between actions\n`,
  );
}
if (selected('restore')) {
  const { restoreBench } = await import('./restore.bench.js');
  const r = await restoreBench();
  writeFileSync(path.join(resultsDir, 'restore.json'), `${JSON.stringify({ machine, ...r }, null, 2)}\n`);
  process.stdout.write(
    `restore (MiniArena, tier 3): ms by depth ${JSON.stringify(r.msByDepth)}; ${r.msPerReplayedStep} ms per replayed step; ${r.diverged} diverged\n`,
  );
}
if (selected('learner')) await (await import('./learner.bench.js')).runLearnerBench(resultsDir, machine);
if (selected('adam')) await (await import('./adam.bench.js')).runAdamBench(resultsDir, machine);
if (selected('supervisor')) {
  const { describeSupervisorBench, supervisorBench } = await import('./supervisor.bench.js');
  // 32 then 128 simulated env workers in 4 processes of their own: where the supervisor's cost grows,
  // and how fast; then 128 with the supervisor's and the workers' sessions at a higher priority, to
  // see how much of a round trip is waiting for a core on this loaded machine. SUPERVISOR_BASELINE=<checkout of another
  // commit, built>: 128 workers on that build and on this one, alternating, for a ratio in one run.
  // SUPERVISOR_CPU_PROF=<dir>: the supervisor's profile over each window.
  const runs = [];
  const baseline = process.env.SUPERVISOR_BASELINE;
  const base = baseline
    ? {
        entry: path.join(baseline, 'bin', 'tti-run'),
        label: `baseline ${process.env.SUPERVISOR_BASELINE_LABEL ?? baseline}`,
      }
    : undefined;
  const plans: { workers: number; priorityNice?: number; cli?: { entry: string; label: string } }[] = [
    ...(base ? [{ workers: 128, cli: base }, { workers: 128 }, { workers: 128, cli: base }] : []),
    { workers: 128 },
    { workers: 32 },
    { workers: 128, priorityNice: -10 },
  ];
  for (const plan of plans) {
    const profileDir = process.env.SUPERVISOR_CPU_PROF;
    const r = await supervisorBench({
      ...plan,
      steps: 5,
      stepMs: 200,
      warmupMs: 5000,
      windowMs: 20000,
      port: 6500,
      processes: 4,
      ...(profileDir ? { cpuProfileDir: path.join(profileDir, `${runs.length}-${plan.workers}`) } : {}),
    });
    process.stdout.write(describeSupervisorBench(r));
    runs.push(r);
  }
  writeFileSync(path.join(resultsDir, 'supervisor.json'), `${JSON.stringify({ machine, runs }, null, 2)}\n`);
}
if (selected('chat')) {
  const { chatBench, describeChatBench } = await import('./chat.bench.js');
  // Both loops one after the other on the same machine, so that their ratio means something
  // (CHAT_MAX_POLICY_LAG: the asynchronous loop's bound, 1 by default), for each modelled
  // fine-tune time a sample (CHAT_TRAINER_MS: a comma list; 0 is a learner that returns at once).
  const trainerMs = (process.env.CHAT_TRAINER_MS ?? '0,50,250').split(',').map(Number);
  const sweep: Record<string, unknown>[] = [];
  for (const trainerMsPerSample of trainerMs) {
    const byLoop: Record<string, unknown> = {};
    const steps: Record<string, number> = {};
    for (const loop of ['sync', 'async'] as const) {
      const r = await chatBench({
        loop,
        maxPolicyLag: Number(process.env.CHAT_MAX_POLICY_LAG ?? 1),
        envWorkers: 16,
        iterations: 4,
        rolloutSize: 32,
        horizon: 6,
        // A served model's ~1.5 s median completion, scaled down by 4; vLLM-like cap of 8 sequences.
        endpoint: { medianMs: 400, sigma: 0.5, perSequence: 0.03, maxNumSeqs: 8, seed: 7 },
        answerChance: 0.35,
        timeoutMs: 60_000,
        trainerMsPerSample,
      });
      process.stdout.write(describeChatBench(r));
      byLoop[loop] = r;
      steps[loop] = r.envStepsPerS;
    }
    const asyncOverSync = Math.round(((steps.async ?? 0) / Math.max(0.001, steps.sync ?? 0)) * 100) / 100;
    process.stdout.write(
      `chat path, trainer ${trainerMsPerSample} ms a sample: asynchronous / synchronous env steps/s = ${asyncOverSync}\n`,
    );
    sweep.push({ trainerMsPerSample, ...byLoop, asyncOverSync });
  }
  writeFileSync(path.join(resultsDir, 'chat.json'), `${JSON.stringify({ machine, sweep }, null, 2)}\n`);
}
if (selected('miniwob-step')) {
  const { miniwobStepBench } = await import('./miniwob-step.bench.js');
  const m = await miniwobStepBench({ seeds: 3 });
  // the same run with the env's default quiet window in place of the suite's (the cut it measures)
  const envDefaultQuiet = await miniwobStepBench({ seeds: 3, quietMs: 50 });
  const { tti, bare, ratioPerStep, ratioPerEpisode, ttiMsPerStepByPart } = envDefaultQuiet;
  writeFileSync(
    path.join(resultsDir, 'miniwob-step.json'),
    `${JSON.stringify({ machine, ...m, quiet50: { tti, bare, ratioPerStep, ratioPerEpisode, ttiMsPerStepByPart } }, null, 2)}\n`,
  );
  process.stdout.write(
    `miniwob step (${m.tasks.length} tasks × ${m.seeds} seeds, horizon ${m.horizon}): tti ${(m.tti.sPerStep * 1000).toFixed(0)} ms/step ` +
      `${m.tti.sPerEpisode.toFixed(2)} s/episode, bare ${(m.bare.sPerStep * 1000).toFixed(0)} ms/step ` +
      `${m.bare.sPerEpisode.toFixed(2)} s/episode: ${m.ratioPerStep.toFixed(2)}× a step, ${m.ratioPerEpisode.toFixed(2)}× an episode; ` +
      `tti ms/step by part ${JSON.stringify(m.ttiMsPerStepByPart)}; with a 50 ms quiet window ${ratioPerStep.toFixed(2)}× a step\n`,
  );
}
process.exit(0);
