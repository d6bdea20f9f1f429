// Which remote workers may connect to which of the run's CURVE server sockets. A credential is
// issued for one role (env | inference), and ZAP hears the socket a handshake is for (its domain:
// the socket's name, src/protocol/curve.ts), so the key gate (key-gate.ts) admits a credential only
// where its role has business: an env worker's key gets no weights or samples, an inference
// worker's key cannot ask for tasks or push trajectories. The run's own client key (spawned
// workers, the CLI; it never leaves the supervisor's machine) passes on every socket.
import type { Endpoints } from '../protocol/index.js';
import type { RemoteRole } from './credentials.js';

/** Every server socket's ZAP domain: its endpoint's name, and the act relay's two ends. */
export type SocketDomain = Exclude<keyof Endpoints, 'relay'> | 'relay-front' | 'relay-back';

/** The roles whose credentials may connect to each socket; the one table of it. */
export const REMOTE_ROLES_BY_SOCKET: Readonly<Record<SocketDomain, readonly RemoteRole[]>> = {
  // every worker registers and heartbeats here
  control: ['env', 'inference'],
  // episodes out, results in: env workers only
  tasks: ['env'],
  // the CLI (status, stop, inject_fault) and `attach` run with the run directory's own key
  status: [],
  events: [],
  // replay's: env workers push trajectories; samples are the (local) learner's alone
  trajectories: ['env'],
  samples: [],
  // the learner's PUB: inference workers load the weights
  weights: ['inference'],
  // a local inference worker's act socket and the relay's front: env workers ask for actions
  act: ['env'],
  'relay-front': ['env'],
  // the relay's back: remote inference workers take env workers' requests there
  'relay-back': ['inference'],
  // the fault role's probe exists for tests and chaos on this machine
  probe: [],
};

/** The roles that may connect on `domain`; none for a socket the table does not name (or none). */
export function rolesAllowedOn(domain: string): readonly RemoteRole[] {
  return Object.hasOwn(REMOTE_ROLES_BY_SOCKET, domain) ? REMOTE_ROLES_BY_SOCKET[domain as SocketDomain] : [];
}
