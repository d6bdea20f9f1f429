// Where a run's sockets live. ipc:// files in the run directory by default: they need no port and
// only the run's owner can reach them (the folder is 0700). When the run directory's path is too
// long for a Unix socket, a short private folder (mkdtemp: 0700) under the system's temp folder
// holds them instead, never plaintext tcp: loopback tcp is open to every local user. tcp:// on
// loopback (or a configured host) only when asked for.
// A run that listens for remote workers (`transport.listen: tcp://ADDR:PORT`) puts every socket on
// ADDR at fixed ports from PORT in a fixed order (control first), so a firewall rule or a
// Kubernetes Service can name them; `listenPorts` says which.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Config } from '../../config/index.js';
import type { Endpoints } from '../../protocol/index.js';

// sun_path holds 108 bytes including the terminating NUL.
const MAX_IPC_PATH = 107;

async function freePorts(host: string, count: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<import('node:net').Server>((resolve, reject) => {
          const server = createServer();
          server.once('error', reject);
          server.listen(0, host, () => resolve(server));
        }),
    ),
  );
  const ports = servers.map((s) => {
    const address = s.address();
    return typeof address === 'object' && address !== null ? address.port : 0;
  });
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  return ports;
}

/** The sockets of a run in the order their ports follow a listening run's PORT. */
function socketNames(config: Config, workerIds: { inference: string[]; fault: string[] }): string[] {
  return [
    'control',
    'tasks',
    'status',
    'events',
    'trajectories',
    'samples',
    'weights',
    ...(config.remote.inference > 0 ? ['relay-front', 'relay-back'] : []),
    ...workerIds.inference.map((id) => `act-${id}`),
    ...workerIds.fault.map((id) => `probe-${id}`),
  ];
}

/** A listening run's host and its ports, PORT to PORT + n − 1; null when the run does not listen. */
export function listenPorts(
  config: Config,
  workerIds: { inference: string[]; fault: string[] },
): { host: string; first: number; last: number } | null {
  const listen = config.transport.listen;
  if (listen === null) return null;
  const cut = listen.lastIndexOf(':');
  const first = Number(listen.slice(cut + 1));
  return {
    host: listen.slice('tcp://'.length, cut),
    first,
    last: first + socketNames(config, workerIds).length - 1,
  };
}

export async function planEndpoints(
  socketDir: string,
  config: Config,
  workerIds: { inference: string[]; fault: string[] },
): Promise<{ endpoints: Endpoints; note: string | null }> {
  const names = socketNames(config, workerIds);
  let note: string | null = null;
  let address: (name: string, i: number) => string;
  const longestIn = (dir: string) => Math.max(...names.map((n) => path.join(dir, `${n}.sock`).length));
  const listen = listenPorts(config, workerIds);
  if (listen !== null) {
    address = (_name, i) => `tcp://${listen.host}:${listen.first + i}`;
  } else if (config.transport.kind === 'ipc') {
    let dir = socketDir;
    if (longestIn(dir) > MAX_IPC_PATH) {
      dir = mkdtempSync(path.join(tmpdir(), 'tti-sock-'));
      // Gone with the supervisor; a killed one leaves an empty-of-meaning folder in the temp folder.
      process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
      if (longestIn(dir) > MAX_IPC_PATH)
        throw new Error(
          `no folder short enough for ipc sockets (${socketDir}, ${dir}): set transport.kind=tcp, or a shorter --run-dir or TMPDIR`,
        );
      note = `run directory path too long for ipc sockets (${longestIn(socketDir)} > ${MAX_IPC_PATH}); sockets in the private folder ${dir} (0700)`;
    }
    address = (name) => `ipc://${path.join(dir, `${name}.sock`)}`;
  } else {
    const host = config.transport.host;
    const ports = await freePorts(host, names.length);
    address = (_name, i) => `tcp://${host}:${ports[i]}`;
  }
  const at = (name: string): string => address(name, names.indexOf(name));
  return {
    endpoints: {
      control: at('control'),
      tasks: at('tasks'),
      status: at('status'),
      events: at('events'),
      trajectories: at('trajectories'),
      samples: at('samples'),
      weights: at('weights'),
      act: Object.fromEntries(workerIds.inference.map((id) => [id, at(`act-${id}`)])),
      probe: Object.fromEntries(workerIds.fault.map((id) => [id, at(`probe-${id}`)])),
      ...(config.remote.inference > 0 ? { relay: { front: at('relay-front'), back: at('relay-back') } } : {}),
    },
    note,
  };
}
