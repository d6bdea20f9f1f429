// `tti-run chaos --cut-host HOST`: every worker of one machine (its hostname in status) stops at
// once, as when that machine's link is cut or it dies. Chaos runs beside the supervisor and reaches
// another machine only through it, so a spawned worker (on the supervisor's machine) is SIGKILLed,
// its pid checked as for any kill, and a worker that joined from HOST gets the `hang` fault: it
// goes silent (no heartbeat, no reply), as a worker behind a cut link looks to the supervisor,
// until its machine's manager restarts it.
import type { StatusSnapshot, WorkerSnapshot } from '../protocol/index.js';

export interface HostCutPlan {
  /** spawned workers on HOST: SIGKILL */
  kill: WorkerSnapshot[];
  /** workers that joined from HOST: the `hang` fault through the supervisor */
  hang: WorkerSnapshot[];
  /** every host in status, to name when HOST has no worker */
  hosts: string[];
}

const ALIVE = new Set(['starting', 'ready', 'unhealthy']);

export function planHostCut(status: StatusSnapshot, host: string): HostCutPlan {
  const on = status.workers.filter((w) => w.host === host && ALIVE.has(w.state));
  return {
    kill: on.filter((w) => w.remote !== true),
    hang: on.filter((w) => w.remote === true),
    hosts: [...new Set(status.workers.flatMap((w) => (w.host === undefined ? [] : [w.host])))].sort(),
  };
}
