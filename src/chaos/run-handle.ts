// The run a chaos command works on, seen from outside as a user sees it: its supervisor (from
// supervisor.json), status over the status socket, and `tti-run train` / `stop` through the CLI.
// Every pid it hands out for killing is checked against the process table first, so that chaos
// only ever kills processes of this run.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Fault, StatusSnapshot } from '../protocol/index.js';
import {
  argsOf,
  curveFor,
  hasArg,
  isAlive,
  type RunDir,
  readRunToken,
  readSupervisorInfo,
  StatusClient,
  type SupervisorInfo,
  workerPid,
} from '../run/index.js';
import { cliEntry } from '../util/index.js';

const STATUS_TIMEOUT_MS = 3000;

export class RunHandle {
  private client: StatusClient | null = null;

  constructor(readonly runDir: RunDir) {}

  /** The live supervisor's info, or null when no supervisor of this run is alive. */
  supervisor(): SupervisorInfo | null {
    if (!existsSync(this.runDir.supervisorInfo)) return null;
    let info: SupervisorInfo;
    try {
      info = readSupervisorInfo(this.runDir);
    } catch {
      return null; // being rewritten
    }
    return isAlive(info.pid) && this.isSupervisor(info.pid) ? info : null;
  }

  /** `tti-run train … --run-dir THIS_RUN` (the foreground process a detached start leaves running). */
  isSupervisor(pid: number): boolean {
    const args = argsOf(pid);
    if (args === null) return false;
    return args.includes('train') && hasArg(args, '--run-dir', this.runDir.root);
  }

  /**
   * The pid of this run's worker with this id, spawned by its live supervisor, or null: the only
   * kind of pid chaos kills. Status names no pids; the process table does (src/run/process-table.ts).
   */
  workerPid(workerId: string): number | null {
    const info = this.supervisor();
    return info === null ? null : workerPid(this.runDir.root, workerId, info.pid);
  }

  async status(): Promise<StatusSnapshot | null> {
    const info = this.supervisor();
    if (info === null) return null;
    if (this.client === null || this.client.info.pid !== info.pid) {
      this.client?.close();
      this.client = new StatusClient(
        info,
        curveFor(info.statusEndpoint, this.runDir.root, info.curve ?? false),
      );
    }
    const reply = await this.client.request({ type: 'status_request' }, STATUS_TIMEOUT_MS);
    return reply?.type === 'status_reply' ? reply.snapshot : null;
  }

  async waitRunning(timeoutMs: number): Promise<StatusSnapshot> {
    const deadline = Date.now() + timeoutMs;
    let last: StatusSnapshot | null = null;
    while (Date.now() < deadline) {
      last = await this.status();
      if (last?.state === 'running') return last;
      await sleep(250);
    }
    throw new Error(
      `the run in ${this.runDir.root} was not running within ${timeoutMs} ms (last: ${last?.state})`,
    );
  }

  /** `tti-run train --detach` (with --resume when the run directory holds a run). */
  async start(trainArgs: readonly string[], resume: boolean): Promise<void> {
    const args = ['train', '--run-dir', this.runDir.root, '--detach', ...(resume ? ['--resume'] : [])];
    const result = await runCli([...args, ...(resume ? [] : trainArgs)]);
    if (result.code !== 0)
      throw new Error(`tti-run ${args.join(' ')} failed (exit ${result.code}): ${result.output.trim()}`);
  }

  /** `tti-run inject`: a fault for one worker through the supervisor (the way to a remote one). */
  async inject(workerId: string, fault: Fault): Promise<string> {
    const info = this.supervisor();
    if (info === null) return 'no supervisor';
    const client = new StatusClient(
      info,
      curveFor(info.statusEndpoint, this.runDir.root, info.curve ?? false),
    );
    try {
      const reply = await client.request(
        { type: 'inject_fault', token: readRunToken(this.runDir.token), workerId, fault },
        STATUS_TIMEOUT_MS,
      );
      return reply?.type === 'control_reply' ? reply.message : 'no answer from the supervisor';
    } finally {
      client.close();
    }
  }

  /** A graceful stop with the run's token; resolves once the supervisor is gone (or the wait ends). */
  async stop(timeoutMs: number): Promise<boolean> {
    const info = this.supervisor();
    if (info === null) return true;
    const client = new StatusClient(
      info,
      curveFor(info.statusEndpoint, this.runDir.root, info.curve ?? false),
    );
    try {
      await client.request(
        { type: 'stop_request', token: readRunToken(this.runDir.token) },
        STATUS_TIMEOUT_MS,
      );
    } finally {
      client.close();
    }
    return this.waitGone(info.pid, timeoutMs);
  }

  async waitGone(pid: number, timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (isAlive(pid) && Date.now() < deadline) await sleep(100);
    return !isAlive(pid);
  }

  close(): void {
    this.client?.close();
    this.client = null;
  }
}

function runCli(args: readonly string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    // The caller's working directory: a relative --config means what it says on their command line.
    const child = spawn(process.execPath, [cliEntry, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => {
      output += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      output += d.toString();
    });
    child.on('exit', (code) => resolve({ code, output }));
  });
}
