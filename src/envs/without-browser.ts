// The env's API that needs no browser: episode records, task labels and the text of the notes an
// observation carries. Parts that read what episodes left behind (the viewer, the supervisor's eval
// summary, chat prompts) import this entry, so they do not load Playwright with index.ts.
export { FAILURE_NOTE_PREFIXES, RECHECK_NOTE } from './notes.js';
export type {
  ActedElement,
  EndReason,
  EpisodeRecord,
  EpisodeRunInfo,
  EpisodeSummary,
  StepRecord,
  SummarySource,
} from './record.js';
export { summarizeEpisode, writeEpisodeRecord } from './record.js';
export type { TaskLabel, TaskLabels } from './tasks/labels.js';
export { labelKey, labelOf, NO_LABEL, readTaskLabels, templateIn } from './tasks/labels.js';
