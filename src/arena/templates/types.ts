import type { SeededRandom } from '../../util/index.js';
import type { ArenaState } from '../seed-data.js';

/** WebArena's evaluator block (config_files/*.json), as MiniArena fills it. */
export interface ReferenceAnswers {
  exact_match?: string;
  must_include?: string[];
  fuzzy_match?: string[] | 'N/A';
}
export interface ProgramHtmlTarget {
  url: string;
  locator: string;
  required_contents: { exact_match?: string; must_include?: string[] };
}
/** As in WebArena's files: string_match tasks carry string_note and reference_answer_raw_annotation,
 *  url_match tasks carry url_note ("GOLD in PRED"); program_html-only tasks carry neither. */
export interface TaskEval {
  eval_types: Array<'string_match' | 'url_match' | 'program_html'>;
  reference_answers: ReferenceAnswers | null;
  reference_url: string;
  program_html: ProgramHtmlTarget[];
  string_note?: string;
  url_note?: 'GOLD in PRED';
  reference_answer_raw_annotation?: string;
}

export type Tier = 1 | 2 | 3;
export type Feature =
  | 'second-page'
  | 'misleading-first-result'
  | 'facts-on-several-pages'
  | 'backtracking'
  | 'form';

/** MiniArena's extra field on each task. `estimated_steps` is a hand estimate of the minimal
 *  solution length (actions including the final answer/stop); `oracle_steps` is the length the
 *  scripted oracle measured through the env (tasks/miniarena/oracle-lengths.json), null until
 *  measured. `tier` follows `oracle_steps` when there is one (`steps_source: "oracle"`). */
export interface MiniArenaMeta {
  template: string;
  split: 'train' | 'test';
  held_out_template: boolean;
  tier: Tier;
  estimated_steps: number;
  oracle_steps: number | null;
  steps_source: 'estimate' | 'oracle';
  features: Feature[];
  /** Pages where the reference answer can be read (string_match tasks whose answer is shown verbatim). */
  evidence_urls: string[];
  seed: number;
}

export type WebArenaSiteName = 'shopping' | 'reddit' | 'gitlab';

export interface MiniArenaTask {
  sites: WebArenaSiteName[];
  task_id: number;
  require_login: boolean;
  storage_state: string | null;
  start_url: string;
  geolocation: null;
  intent_template: string;
  instantiation_dict: Record<string, string | number>;
  intent: string;
  require_reset: boolean;
  eval: TaskEval;
  intent_template_id: number;
  miniarena: MiniArenaMeta;
  /** The requests a site-changing task sends: only in a suite generated `withNetwork` (the task files hold none). */
  network?: SiteRequest[];
}

/** One instantiation of a template, before ids and splits are assigned. */
export interface Instance {
  dict: Record<string, string | number>;
  start_url: string;
  eval: TaskEval;
  steps: number;
  features?: Feature[];
  /** True when solving it changes the site's state. */
  mutates?: boolean;
  /** Pages (with placeholders) on which every must_include / exact_match answer appears verbatim. */
  evidence?: string[];
  /** For a task that changes a site: the requests that change it (WebArena-Verified's network checks). */
  network?: SiteRequest[];
}

/**
 * A request a site-changing task sends (a form's POST, answered with a redirect): its URL with
 * placeholders and the form fields that say what it changed. `several`: the task sends more than
 * one to this path (one per item), and any of them may be this one.
 */
export interface SiteRequest {
  url: string;
  post_data: Record<string, string>;
  several?: boolean;
}

export interface Template {
  id: number;
  key: string;
  site: WebArenaSiteName;
  /** Intent template with {{slots}}. */
  intent: string;
  /** The tier this template is designed for (instances may land one step either side of it). */
  tier: Tier;
  /** Every valid instantiation over the seeded world, in a deterministic order. */
  instances(world: ArenaState, rng: SeededRandom): Instance[];
}

export function tierOf(steps: number): Tier {
  return steps <= 3 ? 1 : steps <= 10 ? 2 : 3;
}

export function stringMatch(ref: ReferenceAnswers, raw: string): TaskEval {
  return {
    eval_types: ['string_match'],
    reference_answers: ref,
    reference_url: '',
    program_html: [],
    string_note: '',
    reference_answer_raw_annotation: raw,
  };
}

export function urlMatch(url: string): TaskEval {
  return {
    eval_types: ['url_match'],
    reference_answers: null,
    reference_url: url,
    program_html: [],
    url_note: 'GOLD in PRED',
  };
}

export function programHtml(targets: ProgramHtmlTarget[]): TaskEval {
  return { eval_types: ['program_html'], reference_answers: null, reference_url: '', program_html: targets };
}

/** A JS string literal for a locator expression. */
export function jsString(s: string): string {
  return JSON.stringify(s);
}

export function fill(template: string, dict: Record<string, string | number>): string {
  return template.replace(/\{\{(\w+)\}\}/g, (_, k: string) => {
    const v = dict[k];
    if (v === undefined) throw new Error(`template slot ${k} is not instantiated`);
    return String(v);
  });
}

export function pageOf(index: number, perPage: number): number {
  return Math.floor(index / perPage) + 1;
}
