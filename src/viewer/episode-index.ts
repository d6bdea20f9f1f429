// The episodes of a run directory as the viewer lists them: one summary per RUN_DIR/episodes/<id>/
// that has its record.json (written last, so the rest is there too). A scan only reads the folders
// it has not indexed yet, so following a live run costs a readdir per poll. Records from before
// summary.json (or with an unreadable one) are summarised from record.json, and their labels come
// from the task file when it is still there; whatever is unknown stays null (shown as "–").
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
// Straight from the two modules, not envs/index.js: the viewer needs no browser or MiniArena.
import {
  type EpisodeSummary,
  labelKey,
  NO_LABEL,
  readTaskLabels,
  summarizeEpisode,
  type TaskLabel,
  type TaskLabels,
} from '../envs/without-browser.js';

const END_REASONS = [
  'answer',
  'horizon',
  'early_stop',
  'task_done',
  'left_page',
  'episode_timeout',
  'action_timeout',
  'crash',
  'error',
] as const;
const STATUSES = ['scored', 'unscored', 'error'] as const;

const nullableNumber = z.number().nullable().catch(null);
const nullableString = z.string().nullable().catch(null);

const SummaryFile = z.object({
  episodeId: z.string(),
  taskId: z.string(),
  intent: z.string().catch(''),
  sites: z.array(z.string()).catch([]),
  taskFile: z.string().catch(''),
  template: nullableString,
  tier: nullableNumber,
  iteration: nullableNumber,
  split: z.enum(['train', 'test']).nullable().catch(null),
  mode: z.enum(['collect', 'eval']).nullable().catch(null),
  workerId: nullableString,
  policyVersions: z.array(z.number()).catch([]),
  steps: z.number(),
  success: z.boolean(),
  score: z.number().catch(0),
  status: z.enum(STATUSES).catch('error'),
  why: z.string().catch(''),
  endReason: z.enum(END_REASONS).catch('error'),
  answer: z.string().catch(''),
  screenshots: z.number().catch(0),
  startedAt: z.string().catch(''),
  durationMs: z.number().catch(0),
});

/** The parts of record.json a summary needs; older records lack run, labels and versions. */
const RecordFile = z.object({
  episodeId: z.string(),
  task: z.object({
    id: z.string(),
    intent: z.string().catch(''),
    sites: z.array(z.string()).catch([]),
    source: z.object({ file: z.string() }).catch({ file: '' }),
    template: z.string().nullable().optional().catch(undefined),
    tier: z.number().nullable().optional().catch(undefined),
  }),
  run: z
    .object({
      iteration: z.number(),
      split: z.enum(['train', 'test']),
      mode: z.enum(['collect', 'eval']),
      workerId: z.string(),
      taskFile: z.string(),
    })
    .optional()
    .catch(undefined),
  steps: z.array(
    z.object({
      policyVersion: z.number().optional().catch(undefined),
      screenshotFile: z.string().optional().catch(undefined),
    }),
  ),
  verdict: z.object({
    success: z.boolean(),
    score: z.number().catch(0),
    status: z.enum(STATUSES).catch('error'),
    why: z.string().catch(''),
  }),
  endReason: z.enum(END_REASONS).catch('error'),
  answer: z.string().catch(''),
  startedAt: z.string().catch(''),
  durationMs: z.number().catch(0),
});

/** Episode ids are folder names the env writes; anything else in a URL is refused. */
export const EPISODE_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/;
export const SCREENSHOT_FILE = /^step-\d{3,6}\.jpg$/;

export interface IndexWarning {
  episodeId: string;
  text: string;
}

export class EpisodeIndex {
  readonly dir: string;
  readonly #summaries: EpisodeSummary[] = [];
  readonly #known = new Set<string>();
  /** Folders that could not be read; tried again only when their record.json changes. */
  readonly #broken = new Map<string, number>();
  readonly #labels = new Map<string, TaskLabels | null>();
  readonly warnings: IndexWarning[] = [];

  constructor(runDir: string) {
    this.dir = path.join(runDir, 'episodes');
  }

  /** Every indexed summary, in the order found (a scan adds new ones sorted by start time). */
  get summaries(): readonly EpisodeSummary[] {
    return this.#summaries;
  }

  has(episodeId: string): boolean {
    return this.#known.has(episodeId);
  }

  /** Indexes the episodes written since the last scan; returns how many were added. */
  scan(): number {
    if (!existsSync(this.dir)) return 0;
    const found: EpisodeSummary[] = [];
    for (const entry of readdirSync(this.dir, { withFileTypes: true })) {
      const id = entry.name;
      if (!entry.isDirectory() || this.#known.has(id) || !EPISODE_ID.test(id)) continue;
      const summary = this.#read(id);
      if (summary !== null) found.push(summary);
    }
    found.sort((a, b) => a.startedAt.localeCompare(b.startedAt) || a.episodeId.localeCompare(b.episodeId));
    for (const s of found) {
      this.#known.add(s.episodeId);
      this.#summaries.push(s);
    }
    return found.length;
  }

  /** The record.json path of an indexed episode (null for an unknown id). */
  recordFile(episodeId: string): string | null {
    return this.#known.has(episodeId) ? path.join(this.dir, episodeId, 'record.json') : null;
  }

  /** A step screenshot of an indexed episode, if that file exists. */
  screenshotFile(episodeId: string, file: string): string | null {
    if (!this.#known.has(episodeId) || !SCREENSHOT_FILE.test(file)) return null;
    const full = path.join(this.dir, episodeId, file);
    return existsSync(full) ? full : null;
  }

  #read(id: string): EpisodeSummary | null {
    const folder = path.join(this.dir, id);
    const recordFile = path.join(folder, 'record.json');
    let recordText: string;
    try {
      recordText = readFileSync(recordFile, 'utf8');
    } catch {
      return null; // not written yet: the next scan looks again
    }
    if (this.#broken.get(id) === recordText.length) return null;
    try {
      const summaryText = readFileSync(path.join(folder, 'summary.json'), 'utf8');
      const parsed = SummaryFile.safeParse(JSON.parse(summaryText));
      if (parsed.success && parsed.data.episodeId === id) return parsed.data;
    } catch {
      // no summary.json (an older record) or a bad one: summarise the record instead
    }
    try {
      const parsed = RecordFile.safeParse(JSON.parse(recordText));
      if (!parsed.success) throw new Error(parsed.error.issues[0]?.message ?? 'not an episode record');
      const record = parsed.data;
      const label =
        record.task.template === undefined && record.task.tier === undefined
          ? this.#labelFromTaskFile(record.run?.taskFile ?? record.task.source.file, record.task.id)
          : { template: record.task.template ?? null, tier: record.task.tier ?? null };
      return summarizeEpisode({ ...record, task: { ...record.task, ...label } });
    } catch (error) {
      this.#broken.set(id, recordText.length);
      this.warnings.push({ episodeId: id, text: `${recordFile}: ${(error as Error).message}; not listed` });
      return null;
    }
  }

  /** Labels from the task file the record names, when it is still there and readable. */
  #labelFromTaskFile(file: string, taskId: string): TaskLabel {
    if (file === '') return NO_LABEL;
    let labels = this.#labels.get(file);
    if (labels === undefined) {
      try {
        labels = readTaskLabels(file);
      } catch {
        labels = null;
      }
      this.#labels.set(file, labels);
    }
    return labels?.get(labelKey(file, taskId)) ?? NO_LABEL;
  }
}
