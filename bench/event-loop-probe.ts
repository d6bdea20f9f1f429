// Loaded into a benchmarked process by `NODE_OPTIONS=--import …/event-loop-probe.js` with
// TTI_BENCH_PROBE_DIR set: every second it appends to <dir>/<pid>.jsonl the lateness of a 20 ms timer
// (the event loop's delay: how long a message that arrived waited before it could be handled) and
// the process's CPU time, so the bench can read them for its window without touching the code under
// test. Without the variable it does nothing. With TTI_BENCH_CPU_PROF=<dir> as well, the `train`
// process (the supervisor; not its children) is profiled from SIGUSR2 (the bench's window) until SIGTERM and the profile written to
// <dir>/<pid>.cpuprofile (`--cpu-prof` is not allowed in NODE_OPTIONS, and a detached supervisor
// is started without its parent's flags).
import { appendFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import path from 'node:path';

const dir = process.env.TTI_BENCH_PROBE_DIR;
if (dir) {
  const file = path.join(dir, `${process.pid}.jsonl`);
  let lags: number[] = [];
  let expected = performance.now() + 20;
  setInterval(() => {
    const now = performance.now();
    lags.push(Math.round(Math.max(0, now - expected) * 100) / 100);
    expected = now + 20;
  }, 20).unref();
  setInterval(() => {
    const { user, system } = process.cpuUsage();
    appendFileSync(file, `${JSON.stringify({ at: Date.now(), cpuUs: user + system, lagMs: lags })}\n`);
    lags = [];
  }, 1000).unref();
}

const profileDir = process.env.TTI_BENCH_CPU_PROF;
if (dir && profileDir && process.argv.includes('train')) {
  const session = new Session();
  session.connect();
  session.post('Profiler.enable');
  session.post('Profiler.setSamplingInterval', { interval: 500 });
  process.once('SIGUSR2', () => session.post('Profiler.start'));
  process.once('SIGTERM', () => {
    // A session on the main thread answers synchronously: the profile is written before the exit.
    session.post('Profiler.stop', (error, result) => {
      if (!error)
        writeFileSync(path.join(profileDir, `${process.pid}.cpuprofile`), JSON.stringify(result.profile));
    });
  });
}
