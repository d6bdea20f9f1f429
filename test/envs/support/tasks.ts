import type { Task, WebArenaEval } from '../../../src/envs/index.js';

/** A WebArena-kind task on our served pages. */
export function webarenaTask(
  startUrl: string | string[],
  evalBlock?: Partial<WebArenaEval>,
  intent = 'test task',
): Task {
  return {
    kind: 'webarena',
    confined: true,
    id: 'test',
    intent,
    sites: ['shopping'],
    startUrls: Array.isArray(startUrl) ? startUrl : [startUrl],
    requireLogin: false,
    storageState: null,
    eval: {
      eval_types: ['string_match'],
      reference_answers: { exact_match: 'yes' },
      reference_url: '',
      program_html: [],
      ...evalBlock,
    },
    intentTemplateId: null,
    source: { file: 'test', entry: 0, format: 'webarena-raw' },
  };
}
