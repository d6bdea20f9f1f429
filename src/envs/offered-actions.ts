// Which actions a task offers and which can change a site: a stop where pages end their episodes
// themselves, or navigation on a one-page task, is an invalid action (a note); a state probe's
// verdict stands until an action that can change what a site stores.
import type { Action } from './actions/types.js';

/** The note for a stop on a task that offers none. */
export const NO_STOP_NOTE =
  'this task offers no ANSWER/stop: the page ends the episode itself once the task is done';
export const NO_NAVIGATION_NOTE =
  'this task offers no going back, forward, to a URL or to another tab: it is one page';
/** BrowserGym's nav and tab subsets: the actions a suite without navigation refuses */
export const NAVIGATION = new Set<Action['type']>([
  'go_back',
  'go_forward',
  'goto',
  'new_tab',
  'tab_focus',
  'close_tab',
]);
