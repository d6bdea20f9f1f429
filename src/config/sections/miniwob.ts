// The MiniWoB++ suite's section (src/suites/miniwob; env.suite: miniwob): where its html/ folder
// is, which tasks, how many seeds, and BrowserGym's page settings.
import { z } from 'zod';
import { defineSection } from '../section.js';
import { PositiveInt } from './keys.js';

interface View {
  env: { suite: string; miniwob: { url: string | null; dir: string | null } };
}

export const miniwob = defineSection({
  name: 'miniwob',
  owner: 'src/suites/miniwob',
  about: "MiniWoB++ (env.suite miniwob): its html/ folder, tasks, seeds and BrowserGym's page settings",
  keys: {
    'env.miniwob': {
      /** a served copy of MiniWoB++'s html/ folder (BrowserGym's MINIWOB_URL), e.g. http://localhost:8000/html/ */
      url: z.string().url().nullable().default(null),
      /** a local html/ folder; each env worker serves it on loopback */
      dir: z.string().min(1).nullable().default(null),
      /** task names (html/miniwob/<name>.html), or 'all' (needs dir) */
      tasks: z.union([z.literal('all'), z.array(z.string().min(1)).min(1)]).default('all'),
      /** training seeds per task (drawn uniformly); disjoint from the test seeds 0…eval_episodes-1 */
      train_seeds: PositiveInt.default(100),
      /** test episodes per task: seeds 0…eval_episodes-1 */
      eval_episodes: PositiveInt.default(10),
      /** core.EPISODE_MAX_TIME: large, so the horizon and not the page's 10–30 s timer ends an episode (BrowserGym) */
      episode_max_time_ms: PositiveInt.default(1_000_000),
      /** 'browsergym': BrowserGym's 332×214 page; 'webarena': 1280×720 */
      viewport: z.enum(['browsergym', 'webarena']).default('browsergym'),
      /** offer `stop [answer]` (ANSWER): off, as BrowserGym's MiniWoB++ action set, since the page ends each episode */
      offer_stop: z.boolean().default(false),
      /** offer going back/forward, goto and tabs: off, as BrowserGym's MiniWoB++ action set (a task is one page) */
      offer_navigation: z.boolean().default(false),
      /** hide MiniWoB++'s human display (reward, timer, episode count, the instruction) from the page, as BrowserGym does */
      remove_human_display: z.boolean().default(true),
    },
  },
  rules: [
    {
      path: ['env', 'miniwob', 'dir'],
      broken: (c: View) =>
        c.env.suite === 'miniwob' && c.env.miniwob.url === null && c.env.miniwob.dir === null,
      message:
        "env.suite is miniwob: set env.miniwob.dir (a local copy of MiniWoB++'s html/ folder) or env.miniwob.url (a served one)",
    },
    {
      path: ['env', 'miniwob', 'url'],
      broken: (c: View) =>
        c.env.suite === 'miniwob' && c.env.miniwob.url !== null && c.env.miniwob.dir !== null,
      message: 'set only one of env.miniwob.url and env.miniwob.dir',
    },
  ],
});
