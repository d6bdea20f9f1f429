// What the mutating commands (`stop`, `inject`) share: they carry the run's token to the supervisor's
// status socket and read its control reply.
import { type RunDir, readRunToken, StatusClient } from '../run/index.js';

export const EXIT_REFUSED = 2;

export function token(runDir: RunDir, tokenFile: string | undefined): string {
  return readRunToken(tokenFile ?? runDir.token);
}

export async function send(
  runDir: RunDir,
  message: object,
  timeoutMs = 5000,
): Promise<{ ok: boolean; message: string; pid: number } | null> {
  const client = StatusClient.forRun(runDir);
  try {
    const reply = await client.request(message, timeoutMs);
    if (reply?.type !== 'control_reply') return null;
    return { ok: reply.ok, message: reply.message, pid: client.info.pid };
  } finally {
    client.close();
  }
}
