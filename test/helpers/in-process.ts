// What the supervisor's module tests share: real sockets on ipc:// in a temporary folder, a logger
// whose lines the test can read, and nact actors that record what they are told.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { dispatch, type Ref, spawnStateless } from 'nact';
import winston from 'winston';
import type { WorkerMsg } from '../../src/actors/supervisor/worker-actor.js';
import type { Logger } from '../../src/log/index.js';

export class SocketDir {
  readonly root = mkdtempSync(path.join(tmpdir(), 'tti-sup-'));
  endpoint(name: string): string {
    return `ipc://${path.join(this.root, `${name}.sock`)}`;
  }
  remove(): void {
    rmSync(this.root, { recursive: true, force: true });
  }
}

/** A logger whose messages land in `lines` as "level: message". */
export function recordingLogger(): { log: Logger; lines: string[] } {
  const lines: string[] = [];
  const stream = new Writable({
    objectMode: true,
    write(info: { level: string; message: string }, _encoding, done) {
      lines.push(`${info.level}: ${info.message}`);
      done();
    },
  });
  const log = winston.createLogger({
    level: 'debug',
    transports: [new winston.transports.Stream({ stream })],
  });
  return { log, lines };
}

/**
 * A real actor in the worker actor's place: it records every message, answers a snapshot query with
 * `snapshot`, a `send` with `sends()` (true: the child got it), a fault with its name.
 */
export function recordingWorker(
  system: Ref<never>,
  name: string,
  o: { sends?: () => boolean } = {},
): { ref: Ref<WorkerMsg>; got: WorkerMsg[] } {
  const got: WorkerMsg[] = [];
  const ref = spawnStateless(
    system,
    (msg: WorkerMsg) => {
      got.push(msg);
      if (msg.kind === 'send') dispatch(msg.replyTo, o.sends?.() ?? true);
      if (msg.kind === 'fault') dispatch(msg.replyTo, `${name}: ${msg.fault} injected`);
    },
    name,
  );
  return { ref, got };
}

/** Polls `check` until it holds (or fails after `ms`). */
export async function eventually(check: () => boolean, ms = 5000, what = 'the condition'): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}
