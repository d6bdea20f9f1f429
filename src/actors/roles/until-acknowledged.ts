// Every message an env worker must not lose (a trajectory, an episode's result, an episode given
// back, an act request) is sent again until its peer answers: a peer that restarted lost what it
// held, and the first answer counts. One loop for all of them; each caller says how long to keep on.
import type { z } from 'zod';
import type { Received, Requester } from '../../protocol/index.js';

export interface Resend {
  /** how long one send waits for its answer */
  waitMs: number;
  /** the most sends (absent: as many as `withinMs` allows) */
  attempts?: number;
  /** the whole wait, over every send (absent: `attempts` × `waitMs`) */
  withinMs?: number;
  /** whether send `attempt` (from 1) goes out: a stopping worker sends no more */
  goesOn(attempt: number): boolean;
  /** a send that went unanswered */
  onUnanswered?(attempt: number): void;
  /** raw frames sent with each send */
  frames?: readonly Buffer[];
}

/** The first answer to `message` that `matches`, or null once `resend` gives up. */
export async function requestUntilAnswered<S extends z.ZodType>(
  requester: Requester<S>,
  message: object,
  matches: (reply: z.infer<S>) => boolean,
  resend: Resend,
): Promise<Received<z.infer<S>> | null> {
  const deadline = resend.withinMs === undefined ? Number.POSITIVE_INFINITY : Date.now() + resend.withinMs;
  const attempts = resend.attempts ?? Number.POSITIVE_INFINITY;
  for (let attempt = 1; attempt <= attempts; attempt++) {
    const left = deadline - Date.now();
    if (left <= 0 || !resend.goesOn(attempt)) return null;
    const reply = await requester.request(message, matches, Math.min(resend.waitMs, left), resend.frames);
    if (reply !== null) return reply;
    resend.onUnanswered?.(attempt);
  }
  return null;
}
