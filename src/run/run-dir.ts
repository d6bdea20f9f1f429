// The run directory: where a run keeps its config, token, sockets, logs and state. Files a crash
// could tear are written to a temp name, fsynced and renamed, and the folder fsynced after.
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  closeSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
} from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { Endpoints } from '../protocol/index.js';
import { fsyncDir, writeAll } from '../util/index.js';

export class RunDir {
  readonly root: string;
  constructor(root: string) {
    this.root = path.resolve(root);
  }
  get config(): string {
    return path.join(this.root, 'config.yaml');
  }
  get supervisorInfo(): string {
    return path.join(this.root, 'supervisor.json');
  }
  get state(): string {
    return path.join(this.root, 'state.json');
  }
  get token(): string {
    return path.join(this.root, 'token');
  }
  get logs(): string {
    return path.join(this.root, 'logs');
  }
  get sockets(): string {
    return path.join(this.root, 'sock');
  }
  /** The run's folders, 0700 whatever the umask: its logs, sockets and secrets are the owner's alone. */
  create(): void {
    for (const dir of [this.root, this.logs, this.sockets]) {
      if (!existsSync(dir)) {
        mkdirSync(dir, { recursive: true, mode: 0o700 });
        // A created folder survives a crash once its parent is fsynced.
        fsyncDir(path.dirname(dir));
      }
      chmodSync(dir, 0o700);
    }
  }
}

export function writeFileAtomic(file: string, data: string | Buffer, mode = 0o644): void {
  const temp = `${file}.${process.pid}.tmp`;
  const fd = openSync(temp, 'w', mode);
  try {
    writeAll(fd, typeof data === 'string' ? Buffer.from(data) : data, 0);
    fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    // A full disk: the old file stays whole, and the half-written temp must not hold the space.
    rmSync(temp, { force: true });
    throw error;
  }
  closeSync(fd);
  renameSync(temp, file);
  fsyncDir(path.dirname(file));
}

/** A fresh secret for mutating commands, readable by the run's owner only (0600). */
export function createRunToken(runDir: RunDir): string {
  const token = randomBytes(24).toString('hex');
  writeFileAtomic(runDir.token, `${token}\n`, 0o600);
  return token;
}

export class TokenUnavailable extends Error {
  override readonly name = 'TokenUnavailable';
}

export function readRunToken(file: string): string {
  try {
    return readFileSync(file, 'utf8').trim();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'EACCES' ? 'permission denied (it is readable by the run owner only)' : String(code);
    throw new TokenUnavailable(`cannot read the run token ${file}: ${why}`);
  }
}

/** What `tti-run train` publishes about a live supervisor, for status / attach / stop. */
export const SupervisorInfo = z.object({
  pid: z.number().int(),
  runId: z.string(),
  startedAt: z.number(),
  statusEndpoint: z.string(),
  eventsEndpoint: z.string(),
  /** every socket of the run, for `tti-run worker --control` on another host and for probes */
  endpoints: Endpoints,
  /** the run's sockets take CURVE (off loopback, or listening for remote workers) */
  curve: z.boolean().optional(),
});
export type SupervisorInfo = z.infer<typeof SupervisorInfo>;

export function readSupervisorInfo(runDir: RunDir): SupervisorInfo {
  let text: string;
  try {
    text = readFileSync(runDir.supervisorInfo, 'utf8');
  } catch {
    throw new Error(
      `no supervisor in ${runDir.root}: ${runDir.supervisorInfo} does not exist (is the run started?)`,
    );
  }
  const parsed = SupervisorInfo.safeParse(JSON.parse(text));
  if (!parsed.success) throw new Error(`${runDir.supervisorInfo} is malformed: ${parsed.error.message}`);
  return parsed.data;
}
