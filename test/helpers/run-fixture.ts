// Starts real runs through the real CLI, for integration tests.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestContext } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Fault, StatusSnapshot } from '../../src/protocol/index.js';
import { RunDir, readRunToken, readSupervisorInfo, StatusClient, workerPid } from '../../src/run/index.js';
import { cliEntry, projectRoot } from '../../src/util/paths.js';
import { processesMatching } from './processes.js';

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runCli(args: readonly string[], timeoutMs = 60000): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cliEntry, ...args], { cwd: projectRoot });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/**
 * A run for a test that starts it detached (listeningTrainArgs): when the test ends, the sockets it
 * opened (`closers`) close, the run is stopped and its folder removed.
 */
export function detachedRun(t: TestContext): { run: RunFixture; closers: (() => void)[] } {
  const run = RunFixture.create();
  const closers: (() => void)[] = [];
  t.after(async () => {
    for (const close of closers) close();
    await runCli(['stop', '--run-dir', run.runDir], 30_000);
    await run.cleanup();
  });
  return { run, closers };
}

/** `train` detached on MiniArena, its sockets open to remote workers at `address` (`--listen`). */
export function listeningTrainArgs(runDir: string, address: string, sets: readonly string[]): string[] {
  return [
    'train',
    '--config',
    'configs/miniarena.yaml',
    '--run-dir',
    runDir,
    '--detach',
    '--listen',
    address,
    ...['collect.stop_probes=false', ...sets].flatMap((s) => ['--set', s]),
  ];
}

/** Settings that keep a test run small and quick to fail over. */
export const SMALL_RUN = [
  // the runs here test the loop's machinery on TTI's episodes, scripted or any-answer; stop probes
  // (on in configs/miniarena.yaml) are tested on their own (test/search/probing-stops-…)
  'collect.stop_probes=false',
  'workers.env=1',
  'workers.inference=1',
  'workers.replay=1',
  'workers.learner=1',
  'supervisor.heartbeat_interval_ms=200',
  'supervisor.heartbeat_timeout_ms=4000',
  'supervisor.backoff_initial_ms=50',
  'supervisor.shutdown_timeout_ms=5000',
];

export class RunFixture {
  foreground: ChildProcess | null = null;
  foregroundOutput = '';

  private constructor(readonly runDir: string) {}

  static create(): RunFixture {
    return new RunFixture(mkdtempSync(path.join(tmpdir(), 'tti-run-')));
  }

  /** A run in a given folder (one on a filesystem of the test's own, e.g. a small tmpfs). */
  static at(runDir: string): RunFixture {
    return new RunFixture(runDir);
  }

  /** Starts a detached run and waits for every worker to register. */
  async startDetached(sets: readonly string[] = []): Promise<StatusSnapshot> {
    const args = ['train', '--config', 'configs/miniarena.yaml', '--run-dir', this.runDir, '--detach'];
    for (const s of [...SMALL_RUN, ...sets]) args.push('--set', s);
    const result = await runCli(args);
    if (result.code !== 0) throw new Error(`train --detach failed (${result.code}): ${result.stderr}`);
    return this.waitFor((s) => s.state === 'running', 60000, 'all workers registered');
  }

  /** Starts `train` in the foreground (as a user's terminal would) and returns once it is running. */
  async startForeground(sets: readonly string[] = [], waitRunning = true): Promise<void> {
    const args = ['train', '--config', 'configs/miniarena.yaml', '--run-dir', this.runDir, '--view', 'log'];
    for (const s of [...SMALL_RUN, ...sets]) args.push('--set', s);
    this.foreground = spawn(process.execPath, [cliEntry, ...args], { cwd: projectRoot });
    this.foreground.stdout?.on('data', (d: Buffer) => {
      this.foregroundOutput += d.toString();
    });
    this.foreground.stderr?.on('data', (d: Buffer) => {
      this.foregroundOutput += d.toString();
    });
    if (waitRunning) await this.waitFor((s) => s.state === 'running', 60000, 'all workers registered');
  }

  foregroundExit(timeoutMs: number): Promise<number | null> {
    const child = this.foreground;
    if (child === null) throw new Error('no foreground run');
    if (child.exitCode !== null) return Promise.resolve(child.exitCode);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`train did not exit in ${timeoutMs} ms`)), timeoutMs);
      child.on('exit', (code) => {
        clearTimeout(timer);
        resolve(code);
      });
    });
  }

  /** `tti-run inject` through the real CLI; throws if it does not exit 0. */
  async inject(workerId: string, fault: string): Promise<void> {
    const args = ['inject', '--run-dir', this.runDir, '--worker', workerId, '--fault', fault];
    const result = await runCli(args);
    if (result.code !== 0)
      throw new Error(`inject ${fault} into ${workerId} failed (${result.code}): ${result.stderr}`);
  }

  /**
   * A fault injected in-process, with the client and token `tti-run inject` uses, for a test where
   * the fault must arrive at once: a CLI start on a loaded machine takes seconds. Throws unless the
   * supervisor accepts it.
   */
  async injectNow(workerId: string, fault: Fault): Promise<void> {
    const runDir = new RunDir(this.runDir);
    const client = StatusClient.forRun(runDir);
    try {
      const token = readRunToken(runDir.token);
      const reply = await client.request({ type: 'inject_fault', token, workerId, fault }, 5000);
      if (reply?.type !== 'control_reply' || !reply.ok)
        throw new Error(`inject ${fault} into ${workerId} was not accepted: ${JSON.stringify(reply)}`);
    } finally {
      client.close();
    }
  }

  /**
   * One status snapshot, or null when no supervisor answers. Asked in-process, with the client
   * `tti-run status` uses: a CLI process per poll would cost a core's worth of CPU while a test
   * waits, taken from the run it waits for. The command itself has tests of its own.
   */
  async status(): Promise<StatusSnapshot | null> {
    const runDir = new RunDir(this.runDir);
    if (!existsSync(runDir.supervisorInfo)) return null;
    let client: StatusClient;
    try {
      client = StatusClient.forRun(runDir);
    } catch {
      return null; // supervisor.json being rewritten (a resume)
    }
    try {
      const reply = await client.request({ type: 'status_request' }, 5000);
      return reply?.type === 'status_reply' ? reply.snapshot : null;
    } finally {
      client.close();
    }
  }

  async waitFor(
    predicate: (s: StatusSnapshot) => boolean,
    timeoutMs: number,
    what: string,
  ): Promise<StatusSnapshot> {
    const deadline = Date.now() + timeoutMs;
    let last: StatusSnapshot | null = null;
    while (Date.now() < deadline) {
      last = await this.status();
      if (last !== null && predicate(last)) return last;
      await sleep(250);
    }
    throw new Error(`timed out waiting for ${what}; last status: ${JSON.stringify(last)}`);
  }

  /** The supervisor's pid, from RUN_DIR/supervisor.json (status names no pids). */
  supervisorPid(): number {
    return readSupervisorInfo(new RunDir(this.runDir)).pid;
  }

  /** The live process of this run's worker with this id (status names no pids), or null. */
  workerPid(id: string): number | null {
    return workerPid(this.runDir, id);
  }

  /** Processes of this run still in the OS process table. */
  processes(): number[] {
    return processesMatching(this.runDir).map((p) => p.pid);
  }

  async waitNoProcesses(timeoutMs: number): Promise<number[]> {
    const deadline = Date.now() + timeoutMs;
    let left = this.processes();
    while (left.length > 0 && Date.now() < deadline) {
      await sleep(100);
      left = this.processes();
    }
    return left;
  }

  /** Never leak: whatever a failed test left running is killed. */
  async cleanup(): Promise<void> {
    for (const pid of this.processes()) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone
      }
    }
    // TTI_KEEP_RUNS=1 keeps run directories (logs, records) for a look after a failure.
    if (process.env.TTI_KEEP_RUNS) process.stderr.write(`kept ${this.runDir}\n`);
    else rmSync(this.runDir, { recursive: true, force: true });
  }
}
