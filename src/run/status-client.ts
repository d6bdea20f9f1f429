// The CLI's side of the status socket: one request, one reply, a bounded wait.
import { existsSync, readFileSync } from 'node:fs';
import {
  Channel,
  type CurveSocketKeys,
  Inbound,
  RejectedFrames,
  Requester,
  type SocketTuning,
} from '../protocol/index.js';
import { curveFor } from './curve-keys.js';
import { type RunDir, readSupervisorInfo, type SupervisorInfo } from './run-dir.js';

export type StatusReply = ReturnType<typeof Inbound.statusToClient.parse>;

export class StatusClient {
  private readonly requester: Requester<typeof Inbound.statusToClient>;
  readonly rejected = new RejectedFrames(() => undefined);

  /** how this client's sockets are set up (CURVE keys when the run's sockets are off loopback) */
  readonly tuning: SocketTuning;

  constructor(
    readonly info: SupervisorInfo,
    curve?: CurveSocketKeys,
  ) {
    this.tuning = { lingerMs: 0, heartbeatIntervalMs: 0, heartbeatTimeoutMs: 0, ...(curve ? { curve } : {}) };
    const channel = Channel.create('status', 'dealer', Inbound.statusToClient, this.rejected, this.tuning);
    channel.connect(info.statusEndpoint);
    this.requester = new Requester(channel);
  }

  static forRun(runDir: RunDir): StatusClient {
    const info = readSupervisorInfo(runDir);
    return new StatusClient(info, curveFor(info.statusEndpoint, runDir.root, info.curve ?? false));
  }

  /** The reply, or null when the supervisor did not answer in time. */
  async request(message: object, timeoutMs = 3000): Promise<StatusReply | null> {
    const reply = await this.requester.request(message, () => true, timeoutMs);
    return reply?.message ?? null;
  }

  close(): void {
    this.requester.close();
  }
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  // A killed process its parent has not reaped yet (a zombie) still takes signal 0, but it is
  // gone: `kill -9` then `--resume` must not find it "running". Linux says so in /proc.
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat[stat.lastIndexOf(')') + 2] !== 'Z';
  } catch (error) {
    // no /proc (macOS): trust the signal; the entry vanished meanwhile: gone
    return (error as NodeJS.ErrnoException).code !== 'ENOENT' || !existsSync('/proc/self/stat');
  }
}
