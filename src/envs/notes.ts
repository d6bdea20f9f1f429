// The notes the env adds to an observation, as text shared by the env and the prompts that render them.

/** After an answer that is not yet final (min_try > 1): TTI's re-check request. */
export const RECHECK_NOTE =
  'You have just given an answer. Before it is final, pause and check the page again: if the task is ' +
  'done, double-check (and revise if needed) and answer again; if it is not done, continue with the task.';

/** Prefixes of the notes that say the last action failed or could not be read. */
export const FAILURE_NOTE_PREFIXES = ['Invalid action: ', 'The action "'] as const;
