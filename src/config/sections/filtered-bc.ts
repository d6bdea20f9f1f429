// Filtered BC's section (learner.algorithm filtered_bc, TTI's; src/model/filtered-bc.ts): the
// transforms applied to a kept trajectory before it is imitated.
import { z } from 'zod';
import { defineSection } from '../section.js';

export const filteredBc = defineSection({
  name: 'filtered-bc',
  owner: 'src/model',
  about: 'filtered BC (learner.algorithm filtered_bc): what of a kept trajectory is imitated',
  keys: {
    learner: {
      /**
       * leave out of imitation a kept trajectory's edits (Type, Select) that a later edit of the
       * same field on the same page replaced (src/model/overwritten.ts); they stay in history
       */
      skip_overwritten_edits: z.boolean().default(true),
      /**
       * imitate a kept trajectory without its detours and tours, the link clicks, searches and
       * going back that led where an earlier page already led (src/model/detours.ts; one-page tasks
       * never leave their page, so nothing of theirs is cut)
       */
      cut_detours: z.boolean().default(true),
    },
  },
});
