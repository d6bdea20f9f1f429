// Search over the stop action alone (`collect.stop_probes`). Where a task's verdict reads only the
// answer and the URL, or only the sites' state (src/envs/evaluators/stop-probe.ts), stopping
// changes nothing it reads, so
// every answer a page offers can be scored without going back: a search whose branches cost no env
// step. A collection episode that probes ends on the first page where an answer succeeds, with the
// shortest such answer (the most specific; longer ones only add to it). Trying every answer finds
// the reference by coincidence too ("5 comments" in another post's row), so a success counts only
// where the answer stands by what the task names (`evidence`), and a count under 100
// (smallCount, src/envs/evaluators/stop-probe.ts) is tried only in the row the task names, read
// from a text that names what the task counts (`counted`: "5 comments" for "How many comments …").
import { type ProbedStop, type StopProbeKind, smallCount } from '../envs/index.js';

/** What probing needs of an env: BrowserEnv's `stopProbe` and `probeStop`. */
export interface StopProber {
  readonly stopProbe: StopProbeKind | null;
  probeStop(answer: string): Promise<ProbedStop | null>;
}

/** What probing reads of a policy's candidate action (src/model's Candidate has it). */
export interface StopCandidate {
  kind: string;
  /** the answer, for kind 'answer' */
  text: string;
  /** 'done' for the stop that answers nothing of its own */
  source: string;
  /** how near the answer stands to what the task names (src/model/evidence.ts) */
  evidence: 'row' | 'section' | null;
  /** whether the text the answer is read from names what the task counts (src/model/evidence.ts) */
  counted: boolean;
}

export interface StopProbeCounts {
  /** answers scored */
  probes: number;
  /** passes that were luck (a list, another number) */
  lucky: number;
  /** counts under 100 left unscored (to the policy): outside the task's row, or not naming what it counts */
  guessable: number;
  /** successes left unkept: the answer stood by nothing the task names */
  unevidenced: number;
}

export interface StopProbeResult<C> {
  /** the answer that ends the episode with a success here, or null */
  found: C | null;
  /** the answers scored a plain failure here (not a guess, not luck's pass): the policy need not draw them */
  failed: Set<string>;
}

/**
 * The answer candidate that ends the episode with a success here (null when none does or the task
 * cannot be probed), and the answers scored failures. A verdict that reads only the URL or the
 * state is probed once, with the stop that answers nothing of its own (`Done`).
 */
export async function probeStops<C extends StopCandidate>(
  env: StopProber,
  candidates: readonly C[],
  counts?: StopProbeCounts,
): Promise<StopProbeResult<C>> {
  const kind = env.stopProbe;
  const failed = new Set<string>();
  if (kind === null) return { found: null, failed };
  const answers = candidates.filter((c) => c.kind === 'answer');
  // a verdict that reads only the URL, or only the sites' state, gives every answer one score
  const tried = kind === 'answer' ? answers : answers.filter((c) => c.source === 'done').slice(0, 1);
  let best: C | null = null;
  for (const c of tried) {
    // a count under 100 is on most pages, often in a block that names the task's subject too (a
    // project's "Milestones (3)" under its name, for an issue count): left to the policy unless it
    // stands in the task's row and says what it counts ("5 comments" beside the post's title)
    if (kind === 'answer' && smallCount(c.text) && !(c.evidence === 'row' && c.counted)) {
      if (counts) counts.guessable++;
      continue;
    }
    const probed = await env.probeStop(c.text);
    if (counts) {
      counts.probes++;
      if (probed?.lucky) counts.lucky++;
    }
    if (!probed?.success) {
      if (probed) {
        failed.add(c.text);
        // the URL or the state decides alone: every answer fails where Done fails
        if (kind !== 'answer') for (const a of answers) failed.add(a.text);
      }
      continue;
    }
    // a verdict on the URL or the state is about what the episode did; an answer needs the task's words beside it
    if (kind === 'answer' && c.evidence === null) {
      if (counts) counts.unevidenced++;
      continue;
    }
    if (best === null || c.text.length < best.text.length) best = c;
  }
  return { found: best, failed };
}
