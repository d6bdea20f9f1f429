import type { ObservationNode } from '../../../envs/index.js';
import { type Driver, OracleError } from '../driver.js';
import { type Solver, slot } from '../types.js';

const MAX_PAGES = 12;

async function search(d: Driver, query: string): Promise<void> {
  await d.type(
    (x) => x.maybe((n) => n.role === 'searchbox' && n.name === 'Search posts'),
    query,
    'search box',
    {
      enter: true,
    },
  );
}

/** Listed submissions on the page (articles named by their titles). */
function submissions(d: Driver): ObservationNode[] {
  const list = d.maybe((n) => n.role === 'list' && n.name === 'Submissions');
  if (!list) return [];
  return d.descendants(list).filter((n) => n.role === 'article');
}

function postFacts(d: Driver, article: ObservationNode) {
  const under = d.descendants(article);
  const title = under.find((n) => n.role === 'link' && n.name === article.name);
  const author = under.find((n) => n.role === 'link' && d.linkUrl(n).includes('/forum/user/'));
  const forum = under.find((n) => n.role === 'link' && n.name.startsWith('f/'));
  const comments = under.find((n) => n.role === 'link' && /^\d+ comments?$/.test(n.name));
  return {
    title,
    author: author?.name,
    forum: forum?.name.slice(2),
    comments: comments ? Number(/^\d+/.exec(comments.name)?.[0]) : undefined,
  };
}

/** Pages through the listing until the submission titled `title` shows. */
async function findPost(d: Driver, title: string): Promise<ObservationNode> {
  for (let page = 0; page < MAX_PAGES; page++) {
    const a = submissions(d).find((n) => n.name === title);
    if (a) return a;
    if (!d.byName('link', 'Next')) break;
    await d.clickLink('Next');
  }
  throw new OracleError(`no submission titled "${title}" (${d.pathOf(d.url)})`);
}

function onForumPage(d: Driver, forum: string): boolean {
  return new URL(d.url).pathname === `/forum/f/${forum}` || new URL(d.url).pathname.endsWith(`/f/${forum}`);
}

/** Opens f/<forum>: through a link on this page when one is in view, else through the Forums list. */
async function openForum(d: Driver, forum: string): Promise<void> {
  if (onForumPage(d, forum) && !d.url.includes('sort=')) return;
  const direct = d.maybe((n) => n.role === 'link' && n.name === `f/${forum}`);
  if (direct && d.isVisible(direct)) {
    await d.click((x) => x.maybe((n) => n.role === 'link' && n.name === `f/${forum}`), `f/${forum}`);
    return;
  }
  await d.clickLink('Forums');
  await d.clickLink(`f/${forum}`);
}

async function sortBy(d: Driver, sort: 'New' | 'Top'): Promise<void> {
  await d.click((x) => {
    const nav = x.maybe((n) => n.role === 'navigation' && n.name === 'Sort submissions');
    return nav ? x.descendants(nav).find((n) => n.role === 'link' && n.name === sort) : undefined;
  }, `sort ${sort}`);
}

async function openPost(d: Driver, title: string): Promise<void> {
  await findPost(d, title);
  await d.click((x) => {
    const a = submissions(x).find((n) => n.name === title);
    return a ? postFacts(x, a).title : undefined;
  }, `post "${title}"`);
}

async function submitPost(d: Driver, forum: string, title: string, body: string): Promise<void> {
  await openForum(d, forum);
  await d.clickLink(`Submit a new post to f/${forum}`);
  await d.type((x) => x.byName('textbox', 'Title'), title, 'Title');
  await d.type((x) => x.byName('textbox', 'Body'), body, 'Body');
  await d.click((x) => x.byName('button', 'Create submission'), 'Create submission');
  if (!/\/forum\/f\/[^/]+\/\d+$/.test(new URL(d.url).pathname))
    throw new OracleError(`submitting did not open the new post (${d.pathOf(d.url)})`);
}

const rankSort = (which: string): 'New' | 'Top' => (which === 'newest' ? 'New' : 'Top');

export const forumSolvers: Record<string, Solver> = {
  forum_open_sorted: async (d, t) => {
    await openForum(d, slot(t, 'forum'));
    await sortBy(d, slot(t, 'order') === 'newest first' ? 'New' : 'Top');
    await d.stop();
  },
  forum_post_author: async (d, t) => {
    await search(d, slot(t, 'title'));
    const a = await findPost(d, slot(t, 'title'));
    const author = postFacts(d, a).author;
    if (!author) throw new OracleError('no author link');
    await d.stop(author);
  },
  forum_post_comment_count: async (d, t) => {
    const title = slot(t, 'title');
    let a = submissions(d).find((n) => n.name === title);
    if (!a) {
      await search(d, title);
      a = await findPost(d, title);
    }
    const n = postFacts(d, a).comments;
    if (n === undefined) throw new OracleError('no comment count');
    await d.stop(String(n));
  },
  forum_title_by_rank: async (d, t) => {
    await openForum(d, slot(t, 'forum'));
    await sortBy(d, rankSort(slot(t, 'which')));
    const first = submissions(d)[0];
    if (!first) throw new OracleError('the forum lists no submissions');
    await d.stop(first.name);
  },
  forum_vote_ranked: async (d, t) => {
    await openForum(d, slot(t, 'forum'));
    await sortBy(d, rankSort(slot(t, 'which')));
    const first = submissions(d)[0];
    if (!first) throw new OracleError('the forum lists no submissions');
    await openPost(d, first.name);
    const button = slot(t, 'action') === 'Upvote' ? 'Upvote' : 'Downvote';
    await d.click((x) => x.byName('button', button), button);
    await d.stop();
  },
  forum_reply: async (d, t) => {
    await search(d, slot(t, 'title'));
    await openPost(d, slot(t, 'title'));
    await d.type((x) => x.byName('textbox', 'Comment'), slot(t, 'comment'), 'Comment');
    await d.click((x) => x.byName('button', 'Post'), 'Post');
    await d.stop();
  },
  forum_submit: async (d, t) => {
    await submitPost(d, slot(t, 'forum'), slot(t, 'title'), slot(t, 'body'));
    await d.stop();
  },
  forum_user_post_count: async (d, t) => {
    const forum = slot(t, 'forum');
    let count = 0;
    for (let page = 0; page < MAX_PAGES; page++) {
      count += submissions(d).filter((a) => postFacts(d, a).forum === forum).length;
      if (!d.byName('link', 'Next')) break;
      await d.clickLink('Next');
    }
    await d.stop(String(count));
  },
  forum_set_bio: async (d, t) => {
    await d.clickLink('Profile');
    await d.clickLink('Edit biography');
    await d.type((x) => x.byName('textbox', 'Biography'), slot(t, 'bio'), 'Biography');
    await d.click((x) => x.byName('button', 'Save'), 'Save');
    await d.stop();
  },
  forum_most_commented_recent: async (d, t) => {
    const n = Number(slot(t, 'n'));
    await openForum(d, slot(t, 'forum'));
    await sortBy(d, 'New');
    const seen: Array<{ title: string; comments: number }> = [];
    for (let page = 0; page < MAX_PAGES && seen.length < n; page++) {
      if (page > 0) {
        if (!d.byName('link', 'Next')) break;
        await d.clickLink('Next');
      }
      for (const a of submissions(d)) {
        if (seen.length >= n) break;
        const c = postFacts(d, a).comments;
        if (c === undefined) throw new OracleError(`no comment count for "${a.name}"`);
        seen.push({ title: a.name, comments: c });
      }
    }
    const best = seen.reduce((b, x) => (x.comments > b.comments ? x : b), seen[0]!);
    await d.stop(best.title);
  },
  forum_crosspost: async (d, t) => {
    for (const f of ['f1', 'f2', 'f3']) await submitPost(d, slot(t, f), slot(t, 'title'), slot(t, 'body'));
    await d.stop();
  },
  forum_upvote_user_posts: async (d, t) => {
    const user = slot(t, 'user');
    const titles: string[] = [];
    for (let page = 0; page < MAX_PAGES; page++) {
      titles.push(...submissions(d).map((a) => a.name));
      if (!d.byName('link', 'Next')) break;
      await d.clickLink('Next');
    }
    if (titles.length === 0) throw new OracleError(`${user} has no submissions`);
    for (const [i, title] of titles.entries()) {
      if (i > 0) {
        // back to the user's page through the author link of the post just voted on
        await d.click((x) => {
          const art = x.maybe((n) => n.role === 'article');
          return art
            ? x
                .descendants(art)
                .find((n) => n.role === 'link' && n.name === user && x.linkUrl(n).includes('/user/'))
            : undefined;
        }, `author link ${user}`);
      }
      await openPost(d, title);
      await d.click((x) => x.byName('button', 'Upvote'), 'Upvote');
    }
    await d.stop();
  },
};
