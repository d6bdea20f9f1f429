// The replay role: receives finished trajectories, keeps the successful ones (TTI's filter) in a
// durable append-only log (src/replay), and serves samples of them to the learner (with
// rollout.max_policy_lag ≥ 1, only of those sampled under a recent enough policy). With
// `learner.algorithm: awr` the failures go to a second log, since the critic learns from them too.
// A trajectory is taken only from the worker it names, by that worker's key (src/run/speaker-check.ts).
//
// The logs open in the background: the worker heartbeats and serves what is read so far. A
// trajectory that cannot be written (a full disk) is not acknowledged: its env worker sends it
// again, and replay says why in its `paused` label, which pauses collection (the supervisor hands
// out no episodes) until a write succeeds again; the trajectory is also retried here each second,
// so the run goes on by itself when space returns.
import path from 'node:path';
import type { Logger } from '../../log/index.js';
import { Channel, Inbound, type Trajectory } from '../../protocol/index.js';
import {
  isKept,
  type OpenReport,
  RecordTooLarge,
  ReplayLog,
  ReplayWriteFailed,
  sampleTrajectories,
  withinPolicyVersion,
} from '../../replay/index.js';
import { SeededRandom } from '../../util/index.js';
import type { RoleContext, RoleMain } from './worker-shell.js';

/** How often a trajectory that could not be written is tried again. */
const RETRY_MS = 1000;
/** After a compaction that failed (no room for the copy), how long until the next try. */
const COMPACT_BACKOFF_MS = 30000;
/** Trajectories held for a retry at most (one per env worker in flight, normally). */
const MAX_PENDING = 256;

/** One log of the role, opened in the background, and compacted when it holds much it dropped. */
function openLog(
  ctx: RoleContext,
  name: string,
  what: string,
): { log: ReplayLog; loaded: Promise<OpenReport> } {
  const opened = ReplayLog.openInBackground(path.join(ctx.runDir ?? '', name), ctx.config.capacity);
  const loaded = opened.loaded.then((report) => {
    if (report.migrated) ctx.log.warn(`${what} log: rewritten from the layout before record magic`);
    if (report.badRanges > 0) {
      ctx.log.warn(
        `${what} log: ${report.badRanges} bad byte range(s), ${report.badBytes} bytes, ` +
          `${report.sideFile ? `moved to ${report.sideFile}` : 'left in place (the side file could not be written)'}; ` +
          `every valid record kept (${report.reasons.join('; ')})`,
      );
    }
    ctx.log.info(`${what} log: ${report.records} records read, ${opened.log.size} kept in memory`);
    return report;
  });
  return { log: opened.log, loaded };
}

class Compactor {
  private failedAt = 0;
  constructor(
    private readonly log: ReplayLog,
    private readonly what: string,
    private readonly logger: Logger,
  ) {}

  maybe(): void {
    if (!this.log.wantsCompaction || Date.now() - this.failedAt < COMPACT_BACKOFF_MS) return;
    this.log.compact().then(
      () => this.logger.info(`${this.what} log compacted to ${this.log.size} records`),
      (error: Error) => {
        this.failedAt = Date.now();
        this.logger.warn(`${this.what} log: compaction failed (${error.message}); tried again later`);
      },
    );
  }
}

export const replayRole: RoleMain = async (ctx) => {
  if (ctx.runDir === null) throw new Error('the replay role needs --run-dir for its log');
  const kept = openLog(ctx, 'replay', 'replay');
  const failures =
    ctx.config.learner.algorithm === 'awr' ? openLog(ctx, 'replay-failures', 'failures') : null;
  const log = kept.log;
  const compactors = [
    new Compactor(log, 'replay', ctx.log),
    ...(failures ? [new Compactor(failures.log, 'failures', ctx.log)] : []),
  ];

  const count = (key: string, by = 1) => {
    ctx.counters[key] = (ctx.counters[key] ?? 0) + by;
  };
  const showSizes = () => {
    ctx.counters.kept = log.size;
    if (failures !== null) ctx.counters.failures = failures.log.size;
    ctx.counters.loading = log.isLoading || failures?.log.isLoading ? 1 : 0;
  };
  ctx.counters.received = 0;
  showSizes();
  // A log that cannot be read is a crash like any other (the supervisor restarts the worker).
  const opened = Promise.all([kept.loaded, failures?.loaded]).then(([report, failed]) => {
    ctx.counters.badRanges = report.badRanges + (failed?.badRanges ?? 0);
    showSizes();
    for (const compactor of compactors) compactor.maybe();
  });
  opened.catch((error: Error) => {
    setImmediate(() => {
      throw error;
    });
  });

  // Writes that failed, tried again each second; the first success ends the pause.
  const pending = new Map<string, { trajectory: Trajectory; into: ReplayLog }>();
  const paused = (why: string | null) => {
    if (why === null) {
      if (ctx.labels.paused !== undefined)
        ctx.log.info(`replay: writing again (${ctx.labels.paused} is over)`);
      delete ctx.labels.paused;
      return;
    }
    // The first failure says since when; later ones while paused change nothing.
    if (ctx.labels.paused !== undefined) return;
    ctx.log.error(`${why}: collection pauses until it can write`);
    ctx.labels.paused = why;
  };
  /** Appends; true: durable (or already kept), false: not written, held for a retry. */
  const write = (
    into: ReplayLog,
    trajectory: Trajectory,
  ): 'appended' | 'duplicate' | 'failed' | 'refused' => {
    try {
      const appended = into.append(trajectory);
      pending.delete(trajectory.episodeId);
      if (pending.size === 0) paused(null);
      compactors[into === log ? 0 : 1]?.maybe();
      return appended ? 'appended' : 'duplicate';
    } catch (error) {
      if (error instanceof RecordTooLarge) {
        count('oversized');
        ctx.log.error(`${error.message}: not kept`);
        return 'refused';
      }
      if (!(error instanceof ReplayWriteFailed)) throw error;
      count('writeFailures');
      if (pending.size < MAX_PENDING) pending.set(trajectory.episodeId, { trajectory, into });
      const where = path.relative(ctx.runDir ?? '', error.file);
      paused(
        error.outOfSpace
          ? `replay: disk full at ${new Date().toISOString()} (${error.code} writing ${where})`
          : `replay: cannot write ${where} since ${new Date().toISOString()} (${error.code})`,
      );
      return 'failed';
    }
  };
  const retry = setInterval(() => {
    for (const { trajectory, into } of [...pending.values()]) {
      const outcome = write(into, trajectory);
      if (outcome === 'failed') break;
      if (outcome === 'appended') count(into === log ? 'appended' : 'appendedFailures');
    }
    showSizes();
  }, RETRY_MS);
  retry.unref();

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

  // Each trajectory is acknowledged once it is durable (append fsyncs) or known to be filtered out;
  // a resent one (the env did not hear the ack) is a duplicate by episode id and acknowledged again.
  // One that could not be written gets no answer: its env worker keeps it and sends it again.
  const receiving = incoming.serve(async ({ message: sent, peer }) => {
    // One that speaks for another worker is dropped unanswered: its sender learns nothing.
    if (!ctx.speaks(sent, 'trajectories')) return;
    // The log and the learner's samples keep the trajectory, never its sender's key.
    const { workerId: _sender, key: _key, ...message } = sent;
    count('received');
    let isStored = false;
    let duplicate = false;
    const into = isKept(message) ? log : failures?.log;
    if (into !== undefined) {
      const outcome = write(into, message);
      if (outcome === 'failed') {
        showSizes();
        return;
      }
      if (outcome === 'appended') count(into === log ? 'appended' : 'appendedFailures');
      if (outcome === 'duplicate') {
        duplicate = true;
        if (into === log) count('duplicates');
      }
      isStored = into === log && outcome !== 'refused' && log.has(message.episodeId);
    }
    showSizes();
    if (peer === null) return;
    await incoming
      .sendTo(peer, { type: 'trajectory_ack', episodeId: message.episodeId, kept: isStored, duplicate })
      .catch((error: Error) => ctx.log.warn(`ack for ${message.episodeId} lost: ${error.message}`));
  });
  // Served from what is read so far while the log still opens.
  const serving = samples.serve(async ({ message, peer }) => {
    if (peer === null) return;
    const random = new SeededRandom(message.seed).next;
    // rollout.max_policy_lag ≥ 1: what was sampled under a policy older than the bound is left
    // out before the draw, so the learner still gets up to maxTrajectories within it.
    const min = message.minPolicyVersion;
    const kept = withinPolicyVersion(log.trajectories(), min);
    const batch = sampleTrajectories(kept.fresh, message.maxTrajectories, random);
    let stale = kept.stale;
    if (failures !== null && (message.maxFailures ?? 0) > 0) {
      const failed = withinPolicyVersion(failures.log.trajectories(), min);
      stale += failed.stale;
      batch.push(...sampleTrajectories(failed.fresh, message.maxFailures ?? 0, random));
    }
    if (min !== undefined) {
      ctx.counters.staleLeftOut = stale;
      ctx.counters.minPolicyVersion = min;
    }
    await samples
      .sendTo(peer, {
        type: 'sample_batch',
        trajectories: batch,
        ...(min === undefined ? {} : { stale }),
      })
      .catch((error: Error) => ctx.log.warn(`sample batch lost: ${error.message}`));
  });

  return {
    async stop() {
      clearInterval(retry);
      incoming.close();
      samples.close();
      await Promise.allSettled([receiving, serving]);
      log.close();
      failures?.log.close();
    },
  };
};
