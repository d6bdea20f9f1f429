// What the policy reads of an observation, by name and size: the token bags, the exact-match
// facts of a candidate, the flags of a task token and the facts of the observation as a whole.
// The encoder (encode.ts) fills them and the network (network.ts) is shaped by them.
import { KINDS } from './candidates.js';

/** Hash buckets of the default network (network.ts), here so that env workers need not load it. */
export const DEFAULT_BUCKETS = 16384;

/** Task tokens kept (longer tasks are cut; MiniArena's longest is ≈45). */
export const MAX_TASK_TOKENS = 64;

/** Per candidate: the bags pooled into embeddings. */
export const CANDIDATE_BAGS = ['self', 'context', 'label', 'argument', 'value'] as const;
/** Per observation. */
export const OBSERVATION_BAGS = ['url', 'title', 'history', 'last'] as const;
export const BAG_CAP = {
  self: 24,
  context: 32,
  label: 12,
  argument: 24,
  value: 12,
  url: 16,
  title: 16,
  history: 64,
  last: 24,
};

/** Exact-match facts of a candidate, general to any page (each in [0, 1] or a small range). */
export const SCALARS = [
  'self_in_task', // share of the candidate's content words that the task has
  'task_in_self', // share of the task's content words the candidate has
  'context_in_task',
  'task_in_context',
  'argument_in_task',
  'task_in_argument',
  'label_in_task',
  'context_inside_task', // the longest text of the row that the task quotes whole (share of its words)
  'self_is_phrase', // the element's text is one of the task's phrases (quoted, a name)
  'self_inside_task', // the element's whole text appears in the task
  'argument_inside_task',
  'acted_before', // the same element (role, name, rank) was acted on earlier in the episode
  'acted_here', // … on this very page
  'name_acted', // an element of this name was acted on
  'typed_before', // this text was typed earlier
  'value_is_argument', // the field already holds this text
  'value_set', // the field holds some text
  'in_viewport',
  'y', // box top / viewport height
  'depth',
  'rank', // among elements of the same role and name
  'position', // in the page's node order
  'kind_count', // log of the candidates of this kind
  'argument_after_field_word', // the task has the typed text just after a word of the field's name or label
  'affix_of_task', // quoted task words that begin or end a longer word of the element (of two)
  'ordinal_in_task', // the task's "3rd" or "third" is this element's place among its like
  'fresh', // the element appeared since the last observation (a suggestion, a folder's files)
  'inside_is_most', // no candidate's row quotes more of the task (the product named in full, not its prefix)
] as const;
export const SCALAR_SIZE = SCALARS.length;

/** Facts of a task token. */
export const TOKEN_FLAGS = [
  'quoted',
  'capitalised',
  'numeric',
  'content',
  'in_page',
  'in_url',
  'in_title',
  'in_history', // the trail has it: a done part of the task (a forum already posted to)
  'in_past_urls',
] as const;
export const TOKEN_FLAG_SIZE = TOKEN_FLAGS.length;

export const OBSERVATION_SCALARS = [
  'step',
  'first_step',
  'steps_left',
  'note',
  'history_length',
  'task_in_history', // share of the task's content words the trail has acted on or typed
  'quoted_in_history', // … of its quoted words
  'task_on_page', // share of the task's content words the page shows
] as const;
export const OBSERVATION_SCALAR_SIZE = OBSERVATION_SCALARS.length;

export const KIND_SIZE = KINDS.length;

/** Index lists of hashed tokens, one list per row (CSR). */
export interface Bags {
  tok: Int32Array;
  /** row r's tokens are tok[off[r]] … tok[off[r + 1] - 1] */
  off: Int32Array;
}
