// `npm run bench`: runs the benchmarks and writes bench/results/*.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { projectRoot } from '../src/paths.js';
import { transportBench } from './transport.bench.js';

const resultsDir = path.join(projectRoot, 'bench', 'results');
mkdirSync(resultsDir, { recursive: true });
const machine = {
  node: process.version,
  cpus: os.cpus().length,
  cpu: os.cpus()[0]?.model ?? '?',
  date: new Date().toISOString(),
};

const transport = await transportBench({ rounds: 5, roundTrips: 2000, pipelined: 5000 });
writeFileSync(
  path.join(resultsDir, 'transport.json'),
  `${JSON.stringify({ machine, ...transport }, null, 2)}\n`,
);
const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
process.stdout.write(
  `transport (${transport.observation.encodedBytes} B observation, ipc):\n` +
    `  round trip  ours ${transport.oursLatencyUs.toFixed(1)} µs  bare ${transport.bareLatencyUs.toFixed(1)} µs  overhead ${pct(transport.latencyOverhead)}\n` +
    `  throughput  ours ${transport.oursThroughputPerS.toFixed(0)}/s  bare ${transport.bareThroughputPerS.toFixed(0)}/s  overhead ${pct(transport.throughputOverhead)}\n` +
    `  CPU/message ours ${transport.oursCpuPerMessageUs.toFixed(1)} µs  bare ${transport.bareCpuPerMessageUs.toFixed(1)} µs  overhead ${pct(transport.cpuOverhead)}\n` +
    `  50 MB weights publish: median ${transport.weights50MB.medianMs.toFixed(1)} ms (max ${transport.weights50MB.maxMs.toFixed(1)} ms)\n`,
);
process.exit(0);
