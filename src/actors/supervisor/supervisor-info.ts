// RUN_DIR/supervisor.json: how `status`, `attach` and `stop` find a live run (its pid, endpoints
// and whether its sockets use CURVE), written atomically once the sockets are bound.
import type { Logger } from '../../log/index.js';
import type { Endpoints } from '../../protocol/index.js';
import { type RunDir, type SupervisorInfo, writeFileAtomic } from '../../run/index.js';

export function announceSupervisor(
  runDir: RunDir,
  run: { runId: string; startedAt: number; endpoints: Endpoints; curve: boolean },
  specs: readonly unknown[],
  log: Logger,
): SupervisorInfo {
  const { runId, startedAt, endpoints, curve } = run;
  const info: SupervisorInfo = {
    pid: process.pid,
    runId,
    startedAt,
    statusEndpoint: endpoints.status,
    eventsEndpoint: endpoints.events,
    endpoints,
    curve,
  };
  writeFileAtomic(runDir.supervisorInfo, `${JSON.stringify(info, null, 2)}\n`);
  log.info(
    `run ${runId}: supervisor pid ${process.pid}, ${specs.length} workers, status at ${endpoints.status}`,
  );
  return info;
}
