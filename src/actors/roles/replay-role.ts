// The replay role: receives finished trajectories, keeps the successful ones (TTI's filter) in a
// durable append-only log (src/replay), and serves samples of them to the learner. With
// `learner.algorithm: awr` the failures go to a second log, since the critic learns from them too.
// A trajectory is taken only from the worker it names, by that worker's key (src/run/speaker-check.ts).
import path from 'node:path';
import { Channel, Inbound } from '../../protocol/index.js';
import { isKept, ReplayLog, sampleTrajectories } from '../../replay/index.js';
import { SeededRandom } from '../../util/index.js';
import type { RoleMain } from './worker-shell.js';

export const replayRole: RoleMain = async (ctx) => {
  if (ctx.runDir === null) throw new Error('the replay role needs --run-dir for its log');
  const { log, report } = ReplayLog.open(path.join(ctx.runDir, 'replay'), ctx.config.capacity);
  if (report.truncatedBytes > 0) {
    ctx.log.warn(`replay log: cut ${report.truncatedBytes} bytes from its tail (${report.reason})`);
  }
  ctx.log.info(`replay log: ${report.records} kept trajectories`);
  const failures =
    ctx.config.learner.algorithm === 'awr'
      ? ReplayLog.open(path.join(ctx.runDir, 'replay-failures'), ctx.config.capacity)
      : null;
  if (failures !== null) {
    if (failures.report.truncatedBytes > 0)
      ctx.log.warn(
        `failures log: cut ${failures.report.truncatedBytes} bytes from its tail (${failures.report.reason})`,
      );
    ctx.log.info(`failures log: ${failures.report.records} failed trajectories`);
  }

  const incoming = Channel.create(
    'trajectories',
    'router',
    Inbound.trajectoriesToReplay,
    ctx.rejected,
    ctx.tuning,
  );
  await incoming.bind(ctx.endpoints.trajectories);
  const samples = Channel.create('samples', 'router', Inbound.samplesToReplay, ctx.rejected, ctx.tuning);
  await samples.bind(ctx.endpoints.samples);

  const count = (key: string) => {
    ctx.counters[key] = (ctx.counters[key] ?? 0) + 1;
  };
  ctx.counters.kept = log.size;
  ctx.counters.received = 0;
  if (failures !== null) ctx.counters.failures = failures.log.size;

  // Each trajectory is acknowledged once it is durable (append fsyncs) or known to be filtered out;
  // a resent one (the env did not hear the ack) is a duplicate by episode id and acknowledged again.
  const receiving = incoming.serve(async ({ message: sent, peer }) => {
    // One that speaks for another worker is dropped unanswered: its sender learns nothing.
    if (!ctx.speaks(sent, 'trajectories')) return;
    // The log and the learner's samples keep the trajectory, never its sender's key.
    const { workerId: _sender, key: _key, ...message } = sent;
    count('received');
    let kept = false;
    let duplicate = false;
    if (isKept(message)) {
      if (log.append(message)) {
        count('appended');
        kept = true;
      } else {
        count('duplicates');
        duplicate = true;
        kept = log.has(message.episodeId);
      }
    } else if (failures !== null) {
      if (failures.log.append(message)) count('appendedFailures');
      else duplicate = true;
      ctx.counters.failures = failures.log.size;
    }
    ctx.counters.kept = log.size;
    if (peer === null) return;
    await incoming
      .sendTo(peer, { type: 'trajectory_ack', episodeId: message.episodeId, kept, duplicate })
      .catch((error: Error) => ctx.log.warn(`ack for ${message.episodeId} lost: ${error.message}`));
  });
  const serving = samples.serve(async ({ message, peer }) => {
    if (peer === null) return;
    const random = new SeededRandom(message.seed).next;
    const batch = sampleTrajectories(log.trajectories(), message.maxTrajectories, random);
    if (failures !== null && (message.maxFailures ?? 0) > 0)
      batch.push(...sampleTrajectories(failures.log.trajectories(), message.maxFailures ?? 0, random));
    await samples
      .sendTo(peer, { type: 'sample_batch', trajectories: batch })
      .catch((error: Error) => ctx.log.warn(`sample batch lost: ${error.message}`));
  });

  return {
    async stop() {
      incoming.close();
      samples.close();
      await Promise.allSettled([receiving, serving]);
      log.close();
      failures?.log.close();
    },
  };
};
