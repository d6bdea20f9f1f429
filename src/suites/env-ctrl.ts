// WebArena-Verified's env-ctrl: a small HTTP service beside each site (port 8877 in its
// containers) that resets the site to its first state. Its documentation names GET /health and
// POST /reset; its Python client reads JSON `{success, message, details}` from each. A reset here
// is POST /reset, then GET /health until it answers 2xx without `success: false` (a reset may
// answer before the site is back), within one deadline. Anything else is an error naming the site.
import { setTimeout as sleep } from 'node:timers/promises';

const POLL_MS = 500;
/** One request's own cap, inside the reset's deadline. */
const REQUEST_MS = 30000;

export class EnvCtrlError extends Error {
  override name = 'EnvCtrlError';
}

interface Answer {
  status: number;
  success: boolean | null;
  message: string;
}

async function ask(url: string, method: 'GET' | 'POST', timeoutMs: number): Promise<Answer> {
  const response = await fetch(url, {
    method,
    headers: { accept: 'application/json' },
    signal: AbortSignal.timeout(Math.max(1, timeoutMs)),
  });
  const text = await response.text();
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {
    // a plain-text answer: its status alone says
  }
  const body = (typeof json === 'object' && json !== null ? json : {}) as Record<string, unknown>;
  return {
    status: response.status,
    success: typeof body.success === 'boolean' ? body.success : null,
    message: typeof body.message === 'string' ? body.message : text.slice(0, 200),
  };
}

const fine = (a: Answer) => a.status >= 200 && a.status < 300 && a.success !== false;

function why(error: unknown, timeoutMs: number): string {
  const e = error as Error & { cause?: { code?: string } };
  if (e.name === 'TimeoutError') return `no answer within ${timeoutMs} ms`;
  return e.cause?.code ?? e.message;
}

/** Resets one site through its env-ctrl at `base`; resolves with how long it took (ms). */
export async function resetSite(site: string, base: string, timeoutMs: number): Promise<number> {
  const root = base.replace(/\/$/, '');
  const started = Date.now();
  const left = () => timeoutMs - (Date.now() - started);
  let reset: Answer;
  try {
    reset = await ask(`${root}/reset`, 'POST', Math.min(left(), REQUEST_MS * 20));
  } catch (error) {
    throw new EnvCtrlError(`reset of ${site} at ${root}/reset failed: ${why(error, timeoutMs)}`);
  }
  if (!fine(reset))
    throw new EnvCtrlError(
      `reset of ${site} at ${root}/reset answered ${reset.status}${reset.message ? `: ${reset.message}` : ''}`,
    );
  let last = 'no answer yet';
  while (left() > 0) {
    try {
      const health = await ask(`${root}/health`, 'GET', Math.min(left(), REQUEST_MS));
      if (fine(health)) return Date.now() - started;
      last = `${health.status}${health.message ? `: ${health.message}` : ''}`;
    } catch (error) {
      last = why(error, REQUEST_MS);
    }
    await sleep(Math.min(POLL_MS, Math.max(0, left())));
  }
  throw new EnvCtrlError(
    `${site} did not come back healthy within ${timeoutMs} ms of its reset (${root}/health: ${last})`,
  );
}

/**
 * Resets the given sites one after another through the configured env-ctrl endpoints (sites with
 * none are left alone); resolves with the sites reset, or throws at the first that fails.
 */
export async function resetSites(
  sites: readonly string[],
  endpoints: Readonly<Record<string, string>>,
  timeoutMs: number,
): Promise<string[]> {
  const reset: string[] = [];
  for (const site of new Set(sites)) {
    const base = endpoints[site];
    if (base === undefined) continue;
    await resetSite(site, base, timeoutMs);
    reset.push(site);
  }
  return reset;
}
