import { forumTemplates } from './forum.js';
import { shopTemplates } from './shop.js';
import { trackerTemplates } from './tracker.js';
import type { Template } from './types.js';

export const TEMPLATES: readonly Template[] = [...shopTemplates, ...forumTemplates, ...trackerTemplates];

/** Templates whose tasks appear only in the test split. */
export const HELD_OUT_TEMPLATES: readonly string[] = [
  'shop_sku',
  'shop_order_contents',
  'forum_set_bio',
  'forum_most_commented_recent',
  'tracker_milestone_due',
  'tracker_compare_label_across_projects',
];
