// The live console view of a run (foreground `train` and `attach`): the run's state and progress,
// one line per worker, the rates, and the latest events.
import cliProgress from 'cli-progress';
import {
  describeSplit,
  isTimingCounter,
  type RunEvent,
  type StatusSnapshot,
  timeSplitOf,
} from '../protocol/index.js';

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

export interface ViewOptions {
  iterations: number;
  /** counters of the previous snapshot, for rates */
  previous: StatusSnapshot | null;
}

export function renderRun(
  snapshot: StatusSnapshot,
  events: readonly RunEvent[],
  options: ViewOptions,
): string {
  const lines: string[] = [];
  const uptime = Math.round(snapshot.uptimeMs / 1000);
  lines.push(
    `tti run ${snapshot.runId}  ${snapshot.state.toUpperCase()}  pid ${snapshot.pid}  up ${uptime}s` +
      (snapshot.reason ? `  (${snapshot.reason})` : ''),
  );
  const iterations = snapshot.iterations || options.iterations;
  lines.push(
    `iteration ${bar(iterations > 0 ? snapshot.iteration / iterations : 0)} ${snapshot.iteration}/${iterations}` +
      `   policy v${snapshot.policyVersion}   horizon ${snapshot.horizon}   backend ${snapshot.backend ?? '-'}`,
  );
  const { done, total } = snapshot.phaseProgress;
  lines.push(
    `${snapshot.phase.padEnd(9)} ${bar(total > 0 ? done / total : 0)} ${done}/${total} episodes` +
      `   episodes ${snapshot.episodes.done} (${snapshot.episodes.success} successful)` +
      `   replay ${snapshot.replay.kept} kept of ${snapshot.replay.seen}`,
  );
  // A full disk pauses collection until space returns: say why.
  if (snapshot.paused) lines.push(`paused    ${snapshot.paused}`);
  // A chat policy's served model and the tokens it has used (summed over inference workers).
  const chat = snapshot.workers.filter((w) => w.role === 'inference' && w.labels.model !== undefined);
  if (chat.length > 0) {
    const sum = (key: string) => chat.reduce((n, w) => n + (w.counters[key] ?? 0), 0);
    lines.push(
      `chat      model ${[...new Set(chat.map((w) => w.labels.model))].join(', ')}` +
        `   tokens ${sum('promptTokens')} prompt + ${sum('completionTokens')} completion` +
        `   retries ${sum('retries')}   failures ${sum('chatFailures')}`,
    );
  }
  // Env workers whose web host does not answer take no tasks: the run goes on with fewer hosts.
  const envs = snapshot.workers.filter((w) => w.role === 'env');
  const down = envs.filter((w) => (w.counters.hostDown ?? 0) > 0);
  if (down.length > 0) {
    lines.push(
      `hosts     ${envs.length - down.length} of ${envs.length} answering; ` +
        down.map((w) => `${w.id}: ${w.labels.host ?? 'unreachable'}`).join('; '),
    );
  }
  // Search while collecting (collect.search): what the env workers' searches did, and the ones in flight.
  const searching = envs.filter((w) => (w.counters.searchRollouts ?? 0) > 0);
  if (searching.length > 0) {
    const sum = (key: string) => searching.reduce((n, w) => n + (w.counters[key] ?? 0), 0);
    const now = searching
      .filter((w) => w.labels.search !== undefined)
      .map((w) => `${w.id}: ${w.labels.search}`);
    lines.push(
      `search    ${sum('searchRollouts')} rollouts   ${sum('searchCells')} pages found   ` +
        `${sum('searchDiverged')} replays diverged   ${sum('searchByUrl')} back by URL   ` +
        `${sum('searchSuccesses')} successes (${sum('searchSuccessesAfterDeadEnds')} after dead ends` +
        // collect.search_keep exploratory: the successes kept with their dead ends and the way back
        `${sum('exploratoryBackSteps') > 0 ? `, ${sum('exploratoryWithDeadEnds')} kept with ${sum('exploratoryBackSteps')} steps back` : ''})` +
        `${now.length > 0 ? `   now ${now.join('; ')}` : ''}`,
    );
  }
  // Stop probes while collecting (collect.stop_probes): answers scored, and what was kept or refused.
  const probing = envs.filter(
    (w) => (w.counters.stopProbes ?? 0) + (w.counters.stopProbesGuessable ?? 0) > 0,
  );
  if (probing.length > 0) {
    const sum = (key: string) => probing.reduce((n, w) => n + (w.counters[key] ?? 0), 0);
    lines.push(
      `probes    ${sum('stopProbes')} answers scored   ${sum('stopProbeHits')} successes kept   ` +
        `refused: ${sum('stopProbesUnevidenced')} beside nothing the task names, ${sum('stopProbesLucky')} lucky, ` +
        `${sum('stopProbesGuessable')} counts left to the policy`,
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
        (remote.wrongKeyMessages > 0 ? `   wrong-key messages ${remote.wrongKeyMessages}` : ''),
    );
  }
  const dt = options.previous ? (snapshot.uptimeMs - options.previous.uptimeMs) / 1000 : 0;
  lines.push('');
  lines.push('worker        pid      state       restarts  heartbeat  rejected  rates');
  // Grouped by machine once there is more than one (workers that joined from elsewhere).
  const hosts = [...new Set(snapshot.workers.map((w) => w.host ?? '-'))];
  const byHost =
    hosts.length > 1 || remote !== undefined
      ? hosts.flatMap((host) => {
          const members = snapshot.workers.filter((w) => (w.host ?? '-') === host);
          const where = members.every((w) => w.remote)
            ? 'remote'
            : members.some((w) => w.remote)
              ? 'local and remote'
              : 'local';
          return [{ header: `host ${host} (${where}, ${members.length} workers)` }, ...members];
        })
      : snapshot.workers;
  for (const w of byHost) {
    if ('header' in w) {
      lines.push(w.header);
      continue;
    }
    const before = options.previous?.workers.find((p) => p.id === w.id);
    const rates = Object.entries(w.counters)
      .filter(([key]) => key !== 'policyVersion' && key !== 'weightBytes' && !isTimingCounter(key))
      .map(([key, value]) => {
        const delta = before && dt > 0 ? (value - (before.counters[key] ?? 0)) / dt : 0;
        return `${key} ${value}${delta > 0 ? ` (${delta.toFixed(1)}/s)` : ''}`;
      })
      .join(', ');
    lines.push(
      `${w.id.padEnd(13)} ${String(w.pid ?? '-').padEnd(8)} ${w.state.padEnd(11)} ${String(w.restarts).padEnd(9)} ` +
        `${age(w.lastHeartbeatMs).padEnd(10)} ${String(w.rejectedFrames).padEnd(9)} ${rates}`,
    );
  }
  if (events.length > 0) {
    lines.push('');
    for (const event of events.slice(-5)) {
      lines.push(`${new Date(event.at).toISOString().slice(11, 19)} ${event.message}`);
    }
  }
  return lines.join('\n');
}

export function renderStatusTable(snapshot: StatusSnapshot, iterations: number): string {
  return renderRun(snapshot, [], { iterations, previous: null });
}
