// `tti-run view` as a user starts it: a child process whose first line names its URL.
import { type ChildProcess, spawn } from 'node:child_process';
import { cliEntry, projectRoot } from '../../../src/util/paths.js';

export interface ViewerProcess {
  url: string;
  child: ChildProcess;
  output(): string;
  /** SIGTERM, as Ctrl-C would; resolves with the exit code. */
  stop(): Promise<number | null>;
}

export async function startViewerProcess(
  args: readonly string[],
  timeoutMs = 30_000,
): Promise<ViewerProcess> {
  const child = spawn(process.execPath, [cliEntry, 'view', ...args], { cwd: projectRoot });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`tti-run view printed no URL in ${timeoutMs} ms:\n${output}`));
    }, timeoutMs);
    const onData = (d: Buffer) => {
      output += d.toString();
      const m = /tti viewer: (http:\/\/127\.0\.0\.1:\d+\/)/.exec(output);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`tti-run view exited with ${code}:\n${output}`));
    });
  });
  return {
    url,
    child,
    output: () => output,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve(child.exitCode);
        child.once('exit', (code) => resolve(code));
        child.kill('SIGTERM');
      }),
  };
}
