// The live console view of a run (foreground `train`, `attach`) and `tti-run status`: what a user
// needs to follow a run, in words. Progress (iteration, episodes, env steps, horizon, policy
// version), success (collection, last eval), rates, the strategies that are on, each under its
// own name with the labels it declares, and one line per worker. Raw counter names stay in
// `status --json`; none is printed here.
import cliProgress from 'cli-progress';
import {
  describeSplit,
  type RunEvent,
  type StatusSnapshot,
  timeSplitOf,
  type WorkerSnapshot,
} from '../protocol/index.js';
import type { LastResults } from './last-results.js';
import type { StrategyBlock } from './view-strategies.js';

const BAR = {
  barsize: 24,
  barCompleteString: '█'.repeat(24),
  barIncompleteString: '░'.repeat(24),
  barGlue: '',
};

function bar(progress: number): string {
  return cliProgress.Format.BarFormat(Math.max(0, Math.min(1, progress)), BAR);
}

function age(ms: number | null): string {
  if (ms === null) return '-';
  return ms < 1000 ? `${ms}ms` : `${(ms / 1000).toFixed(1)}s`;
}

const percent = (fraction: number) => `${Math.round(fraction * 100)}%`;

export interface ViewOptions {
  iterations: number;
  /** the previous snapshot, for rates over the last refresh (null: rates over the run) */
  previous: StatusSnapshot | null;
  /** the strategies on in the run's config, each shown as a block of its counters (none: no block) */
  strategies?: readonly StrategyBlock[];
  /** the last finished iteration's collection success and the last eval (metrics.jsonl) */
  results?: LastResults;
}

/** A counter summed over workers. */
const total = (workers: readonly WorkerSnapshot[], key: string) =>
  workers.reduce((n, w) => n + (w.counters[key] ?? 0), 0);

function progressLines(snapshot: StatusSnapshot, options: ViewOptions, envs: WorkerSnapshot[]): string[] {
  const iterations = snapshot.iterations || options.iterations;
  const { done, total: phaseTotal } = snapshot.phaseProgress;
  const lines = [
    `iteration ${bar(iterations > 0 ? snapshot.iteration / iterations : 0)} ${snapshot.iteration}/${iterations}` +
      `   policy v${snapshot.policyVersion}   horizon ${snapshot.horizon}   backend ${snapshot.backend ?? '-'}`,
    `${snapshot.phase.padEnd(9)} ${bar(phaseTotal > 0 ? done / phaseTotal : 0)} ${done}/${phaseTotal} episodes`,
    `progress  ${snapshot.episodes.done} episodes   ${total(envs, 'steps')} env steps` +
      `   replay kept ${snapshot.replay.kept} of ${snapshot.replay.seen} trajectories`,
  ];
  const { collection, eval: lastEval } = options.results ?? { collection: null, eval: null };
  lines.push(
    `success   collection ${collection ? `${percent(collection.success)} of ${collection.episodes} episodes (iteration ${collection.iteration})` : 'none yet'}` +
      `   last eval ${lastEval ? `${percent(lastEval.success)} of ${lastEval.episodes} episodes (iteration ${lastEval.iteration})` : 'none yet'}` +
      `   over the run ${snapshot.episodes.success} of ${snapshot.episodes.done} episodes successful`,
  );
  return lines;
}

/** env steps/s and episodes/min since the previous snapshot, or over the run when there is none. */
function rateLine(snapshot: StatusSnapshot, previous: StatusSnapshot | null, envs: WorkerSnapshot[]): string {
  const since = previous !== null && snapshot.uptimeMs > previous.uptimeMs ? previous : null;
  const seconds = (snapshot.uptimeMs - (since?.uptimeMs ?? 0)) / 1000;
  const steps =
    total(envs, 'steps') -
    (since
      ? total(
          since.workers.filter((w) => w.role === 'env'),
          'steps',
        )
      : 0);
  const episodes = snapshot.episodes.done - (since?.episodes.done ?? 0);
  const per = (n: number, unit: number) => (seconds > 0 ? Math.max(0, (n * unit) / seconds) : 0).toFixed(1);
  // Further figures (env utilization, the supervisor's loop lag) join this line as they come.
  const parts = [`${per(steps, 1)} env steps/s`, `${per(episodes, 60)} episodes/min`];
  return `rates     ${parts.join('   ')}${since ? '' : '   (mean over the run)'}`;
}

/** A strategy's block: its name, then each counter it keeps summed over the env workers, in its words. */
function strategyLines(blocks: readonly StrategyBlock[], envs: WorkerSnapshot[]): string[] {
  const lines: string[] = [];
  for (const block of blocks) {
    const figures = Object.entries(block.metrics).map(([key, label]): [string, string] => [
      label,
      String(total(envs, key)),
    ]);
    const width = (i: 0 | 1) => Math.max(...figures.map((f) => f[i].length));
    lines.push('', block.name);
    for (const [label, n] of figures) lines.push(`  ${label.padEnd(width(0))}  ${n.padStart(width(1))}`);
    // a search in flight says where it is (the env worker's `search` label)
    if ('searchRollouts' in block.metrics) {
      for (const w of envs)
        if (w.labels.search !== undefined) lines.push(`  now ${w.id}: ${w.labels.search}`);
    }
  }
  return lines;
}

/** What a worker has done, in words, by its role. */
function workDone(w: WorkerSnapshot): string {
  const c = (key: string) => w.counters[key] ?? 0;
  if (w.role === 'env') return `${c('episodes')} episodes, ${c('steps')} env steps`;
  if (w.role === 'inference') return `${c('actions')} actions`;
  if (w.role === 'replay') return `${c('kept')} trajectories kept`;
  if (w.role === 'learner') return `${c('batches')} batches`;
  return '';
}

function workerLines(snapshot: StatusSnapshot, remote: boolean): string[] {
  const lines = [
    '',
    'worker        role       host          state       restarts  heartbeat  rejected  done',
  ];
  const row = (w: WorkerSnapshot) =>
    `${w.id.padEnd(13)} ${w.role.padEnd(10)} ${(w.host ?? '-').padEnd(13)} ` +
    `${w.state.padEnd(11)} ${String(w.restarts).padEnd(9)} ${age(w.lastHeartbeatMs).padEnd(10)} ` +
    `${String(w.rejectedFrames).padEnd(9)} ${workDone(w)}`.trimEnd();
  // Grouped by machine once there is more than one (workers that joined from elsewhere).
  const hosts = [...new Set(snapshot.workers.map((w) => w.host ?? '-'))];
  if (hosts.length <= 1 && !remote) return [...lines, ...snapshot.workers.map(row)];
  for (const host of hosts) {
    const members = snapshot.workers.filter((w) => (w.host ?? '-') === host);
    const where = members.every((w) => w.remote)
      ? 'remote'
      : members.some((w) => w.remote)
        ? 'local and remote'
        : 'local';
    lines.push(`host ${host} (${where}, ${members.length} workers)`, ...members.map(row));
  }
  return lines;
}

export function renderRun(
  snapshot: StatusSnapshot,
  events: readonly RunEvent[],
  options: ViewOptions,
): string {
  const uptime = Math.round(snapshot.uptimeMs / 1000);
  const envs = snapshot.workers.filter((w) => w.role === 'env');
  const lines = [
    `tti run ${snapshot.runId}  ${snapshot.state.toUpperCase()}  up ${uptime}s` +
      (snapshot.reason ? `  (${snapshot.reason})` : ''),
    ...progressLines(snapshot, options, envs),
    rateLine(snapshot, options.previous, envs),
  ];
  // A full disk pauses collection until space returns: say why.
  if (snapshot.paused) lines.push(`paused    ${snapshot.paused}`);
  // rollout.max_policy_lag ≥ 1: how far behind the learner collection samples.
  if (snapshot.lag !== undefined) {
    const { bound, last, max, stale, leftOut } = snapshot.lag;
    lines.push(
      `lag       ${last} version(s) now   ${max} at most   bound ${bound}   ${stale} stale left out` +
        (leftOut === undefined ? '' : `   ${leftOut} older kept trajectories not trained on`),
    );
  }
  // A chat policy's served model and the tokens it has used (summed over inference workers).
  const chat = snapshot.workers.filter((w) => w.role === 'inference' && w.labels.model !== undefined);
  if (chat.length > 0) {
    lines.push(
      `chat      model ${[...new Set(chat.map((w) => w.labels.model))].join(', ')}` +
        `   tokens ${total(chat, 'promptTokens')} prompt + ${total(chat, 'completionTokens')} completion` +
        `   retries ${total(chat, 'retries')}   failures ${total(chat, 'chatFailures')}`,
    );
  }
  // Env workers whose web host does not answer take no tasks: the run goes on with fewer hosts.
  const down = envs.filter((w) => (w.counters.hostDown ?? 0) > 0);
  if (down.length > 0) {
    lines.push(
      `hosts     ${envs.length - down.length} of ${envs.length} answering; ` +
        down.map((w) => `${w.id}: ${w.labels.host ?? 'unreachable'}`).join('; '),
    );
  }
  // Sites put back through env-ctrl after site-changing tasks, and what that cost.
  const resetting = envs.filter((w) => (w.counters.resets ?? 0) + (w.counters.resetFailures ?? 0) > 0);
  if (resetting.length > 0) {
    const resets = total(resetting, 'resets');
    const ms = total(resetting, 'resetMs');
    lines.push(
      `resets    ${resets} site resets, ${(ms / 1000).toFixed(1)} s in all (${resets > 0 ? Math.round(ms / resets) : 0} ms each)` +
        `   ${total(resetting, 'resetFailures')} failed`,
    );
  }
  // Where each env worker's time went: its busy share (env utilization) and the episode's parts.
  for (const w of envs) {
    const split = timeSplitOf(w.counters);
    if (split !== null) lines.push(`time      ${w.id}: ${describeSplit(split)}`);
  }
  // A run that listens: who joined from other machines, and the connections refused at the gate.
  const remote = snapshot.remote;
  if (remote !== undefined) {
    const joined = (role: string) =>
      snapshot.workers.filter((w) => w.remote && w.role === role && w.state === 'ready').length;
    lines.push(
      `remote    listening at ${remote.listen}   env ${joined('env')} of ${remote.expected.env} joined` +
        `   inference ${joined('inference')} of ${remote.expected.inference}` +
        `   refused connections ${remote.refusedConnections}` +
        (remote.wrongKeyMessages > 0 ? `   wrong-key messages ${remote.wrongKeyMessages}` : '') +
        ((remote.wrongWorkerReplies ?? 0) > 0
          ? `   wrong-worker act replies ${remote.wrongWorkerReplies}`
          : ''),
    );
  }
  lines.push(...strategyLines(options.strategies ?? [], envs));
  lines.push(...workerLines(snapshot, remote !== undefined));
  if (events.length > 0) {
    lines.push('');
    for (const event of events.slice(-5)) {
      lines.push(`${new Date(event.at).toISOString().slice(11, 19)} ${event.message}`);
    }
  }
  return lines.join('\n');
}

/** `tti-run status`'s table: the live view without events, its rates over the run. */
export function renderStatusTable(snapshot: StatusSnapshot, options: Omit<ViewOptions, 'previous'>): string {
  return renderRun(snapshot, [], { ...options, previous: null });
}
