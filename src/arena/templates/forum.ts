import {
  commentCount,
  FORUM_PAGE_SIZE,
  FORUM_USER,
  type ForumState,
  type Post,
  postScore,
  sortPosts,
} from '../sites/forum/data.js';
import { type Instance, pageOf, programHtml, stringMatch, type Template, urlMatch } from './types.js';

const R = '__REDDIT__';
const postUrl = (p: Post) => `${R}/f/${p.forum}/${p.id}`;
const VOTE_LOCATOR =
  "document.querySelector('div.submission__vote').querySelector('form').getAttribute('class')";
const NEWEST_TITLE = "document.querySelector('.submission__title').textContent.trim()";

function inForum(st: ForumState, forum: string, sort: 'hot' | 'new' | 'top'): Post[] {
  return sortPosts(
    st,
    st.posts.filter((p) => p.forum === forum),
    sort,
  );
}

const COMMENTS = [
  'Thanks for sharing this',
  'I had the same question last week',
  'Following this thread',
  'Great write-up, bookmarked',
  'Could you post an update later?',
  'This changed my mind, thank you',
];
const OPENERS = [
  'Weekly discussion',
  'Show and tell',
  'Quick question',
  'Beginner thread',
  'Looking back on',
];
const BODIES = [
  'Share what you have been up to.',
  'All experience levels welcome.',
  'Links and photos are encouraged.',
  'Please keep it friendly.',
];
const BIOS = [
  'Reader, runner, occasional poster',
  'Here for the book threads',
  'I test things so you do not have to',
  'Mostly lurking, sometimes helpful',
  'Powered by tea and curiosity',
  'Ask me about sourdough',
];

export const forumTemplates: Template[] = [
  {
    id: 2001,
    key: 'forum_open_sorted',
    site: 'reddit',
    intent: 'Show me the posts in the {{forum}} forum, {{order}}',
    tier: 2,
    instances: (w) =>
      w.forum.forums.flatMap((f) =>
        (
          [
            ['newest first', 'new'],
            ['highest scored first', 'top'],
          ] as const
        ).map(
          ([order, sort]): Instance => ({
            dict: { forum: f.name, order },
            start_url: R,
            eval: urlMatch(`${R}/f/${f.name}?sort=${sort}`),
            steps: 4,
          }),
        ),
      ),
  },
  {
    id: 2002,
    key: 'forum_post_author',
    site: 'reddit',
    intent: 'Who submitted the post titled "{{title}}"?',
    tier: 1,
    instances: (w) =>
      w.forum.posts.map(
        (p): Instance => ({
          dict: { title: p.title },
          start_url: R,
          eval: stringMatch({ must_include: [p.author] }, p.author),
          steps: 2,
          evidence: [postUrl(p)],
        }),
      ),
  },
  {
    id: 2003,
    key: 'forum_post_comment_count',
    site: 'reddit',
    intent: 'How many comments are there on the post "{{title}}"?',
    tier: 1,
    instances: (w) =>
      w.forum.posts.map((p): Instance => {
        const page = pageOf(inForum(w.forum, p.forum, 'hot').indexOf(p), FORUM_PAGE_SIZE);
        const n = commentCount(w.forum, p.id);
        return {
          dict: { title: p.title },
          start_url: `${R}/f/${p.forum}`,
          eval: stringMatch({ must_include: [String(n)] }, String(n)),
          steps: Math.min(page, 2),
          features: page > 1 ? ['second-page'] : [],
          evidence: [postUrl(p)],
        };
      }),
  },
  {
    id: 2004,
    key: 'forum_title_by_rank',
    site: 'reddit',
    intent: 'What is the title of the {{which}} post in the {{forum}} forum?',
    tier: 2,
    instances: (w) =>
      w.forum.forums.flatMap((f) =>
        (
          [
            ['newest', 'new'],
            ['highest-scoring', 'top'],
          ] as const
        ).flatMap(([which, sort]): Instance[] => {
          const [a, b] = inForum(w.forum, f.name, sort);
          if (!a || (sort === 'top' && b && postScore(w.forum, b) === postScore(w.forum, a))) return [];
          return [
            {
              dict: { which, forum: f.name },
              start_url: R,
              eval: stringMatch({ must_include: [a.title] }, a.title),
              steps: 4,
              evidence: [`${R}/f/${f.name}?sort=${sort}`],
            },
          ];
        }),
      ),
  },
  {
    id: 2005,
    key: 'forum_vote_ranked',
    site: 'reddit',
    intent: '{{action}} the {{which}} post in the {{forum}} forum',
    tier: 2,
    instances: (w) =>
      w.forum.forums.flatMap((f) =>
        (
          [
            ['newest', 'new'],
            ['highest-scoring', 'top'],
          ] as const
        ).flatMap(([which, sort]) =>
          (['Upvote', 'Downvote'] as const).flatMap((action): Instance[] => {
            const [a, b] = inForum(w.forum, f.name, sort);
            if (!a || (sort === 'top' && b && postScore(w.forum, b) === postScore(w.forum, a))) return [];
            return [
              {
                dict: { action, which, forum: f.name },
                start_url: R,
                eval: programHtml([
                  {
                    url: postUrl(a),
                    locator: VOTE_LOCATOR,
                    required_contents: {
                      must_include: [
                        action === 'Upvote' ? 'vote vote--user-upvoted' : 'vote vote--user-downvoted',
                      ],
                    },
                  },
                ]),
                steps: 6,
                mutates: true,
                network: [
                  {
                    url: `${postUrl(a)}/vote`,
                    post_data: { direction: action === 'Upvote' ? 'up' : 'down' },
                  },
                ],
              },
            ];
          }),
        ),
      ),
  },
  {
    id: 2006,
    key: 'forum_reply',
    site: 'reddit',
    intent: 'Reply to the post "{{title}}" with the comment "{{comment}}"',
    tier: 2,
    instances: (w, rng) =>
      w.forum.posts.map((p): Instance => {
        const comment = rng.pick(COMMENTS);
        return {
          dict: { title: p.title, comment },
          start_url: R,
          eval: programHtml([
            {
              url: postUrl(p),
              locator:
                "[...document.querySelectorAll('.comment')].map(c => c.querySelector('.comment__author').textContent + ': ' + c.querySelector('.comment__body').textContent).join('\\n')",
              required_contents: { must_include: [`${FORUM_USER}: ${comment}`] },
            },
          ]),
          steps: 5,
          mutates: true,
          network: [{ url: `${postUrl(p)}/comment`, post_data: { body: comment } }],
        };
      }),
  },
  {
    id: 2007,
    key: 'forum_submit',
    site: 'reddit',
    intent: 'Create a post in the {{forum}} forum titled "{{title}}" with the body "{{body}}"',
    tier: 2,
    instances: (w, rng) =>
      w.forum.forums.flatMap((f) =>
        OPENERS.map((opener): Instance => {
          const title = `${opener}: ${f.title.toLowerCase()} edition`;
          const body = rng.pick(BODIES);
          return {
            dict: { forum: f.name, title, body },
            start_url: R,
            eval: programHtml([
              {
                url: `${R}/f/${f.name}?sort=new`,
                locator: NEWEST_TITLE,
                required_contents: { exact_match: title },
              },
              {
                url: `${R}/f/${f.name}/${w.forum.nextPostId}`,
                locator: "document.querySelector('.submission__body').textContent.trim()",
                required_contents: { exact_match: body },
              },
            ]),
            steps: 7,
            features: ['form'],
            mutates: true,
            network: [{ url: `${R}/submit`, post_data: { forum: f.name, title, body } }],
          };
        }),
      ),
  },
  {
    id: 2008,
    key: 'forum_user_post_count',
    site: 'reddit',
    intent: 'How many posts has {{user}} submitted to the {{forum}} forum?',
    tier: 1,
    instances: (w) =>
      w.forum.users.flatMap((u) => {
        const mine = w.forum.posts.filter((p) => p.author === u.username);
        const forums = [...new Set(mine.map((p) => p.forum))].sort();
        return forums.map((forum): Instance => {
          const n = mine.filter((p) => p.forum === forum).length;
          return {
            dict: { user: u.username, forum },
            start_url: `${R}/user/${u.username}`,
            eval: stringMatch({ must_include: [String(n)] }, String(n)),
            steps: 1 + (pageOf(Math.max(0, mine.length - 1), FORUM_PAGE_SIZE) - 1),
          };
        });
      }),
  },
  {
    id: 2009,
    key: 'forum_set_bio',
    site: 'reddit',
    intent: 'Set my forum biography to "{{bio}}"',
    tier: 2,
    instances: () =>
      BIOS.flatMap((a) =>
        ['', '!', ' :)'].map(
          (suffix): Instance => ({
            dict: { bio: `${a}${suffix}` },
            start_url: R,
            eval: programHtml([
              {
                url: `${R}/user/${FORUM_USER}`,
                locator: "document.querySelector('.user-bio__biography').outerText",
                required_contents: { exact_match: `${a}${suffix}` },
              },
            ]),
            steps: 5,
            features: ['form'],
            mutates: true,
            network: [
              { url: `${R}/user/${FORUM_USER}/edit_biography`, post_data: { biography: `${a}${suffix}` } },
            ],
          }),
        ),
      ),
  },
  {
    id: 2010,
    key: 'forum_most_commented_recent',
    site: 'reddit',
    intent: 'Among the {{n}} newest posts in the {{forum}} forum, which one has the most comments?',
    tier: 2,
    instances: (w) =>
      w.forum.forums.flatMap((f) =>
        [5, 10, 25].flatMap((n): Instance[] => {
          const top = inForum(w.forum, f.name, 'new').slice(0, n);
          const counts = top.map((p) => commentCount(w.forum, p.id));
          const max = Math.max(...counts);
          if (counts.filter((c) => c === max).length !== 1) return [];
          const best = top[counts.indexOf(max)] as Post;
          return [
            {
              dict: { n, forum: f.name },
              start_url: R,
              eval: stringMatch({ must_include: [best.title] }, best.title),
              steps: n > FORUM_PAGE_SIZE ? 5 : 4,
              features: n > FORUM_PAGE_SIZE ? ['facts-on-several-pages'] : [],
              evidence: [postUrl(best)],
            },
          ];
        }),
      ),
  },
  {
    id: 2011,
    key: 'forum_crosspost',
    site: 'reddit',
    intent: 'Post "{{title}}" with the body "{{body}}" in each of these forums: {{f1}}, {{f2}} and {{f3}}',
    tier: 3,
    instances: (w, rng) => {
      const names = w.forum.forums.map((f) => f.name);
      const out: Instance[] = [];
      for (let i = 0; i < 60; i++) {
        const [f1, f2, f3] = rng.sample(names, 3) as [string, string, string];
        const title = `${rng.pick(OPENERS)} #${i + 1}`;
        const body = rng.pick(BODIES);
        out.push({
          dict: { title, body, f1, f2, f3 },
          start_url: R,
          eval: programHtml(
            [f1, f2, f3].map((f) => ({
              url: `${R}/f/${f}?sort=new`,
              locator: NEWEST_TITLE,
              required_contents: { exact_match: title },
            })),
          ),
          steps: 3 * 6 + 1,
          features: ['form', 'backtracking'],
          mutates: true,
          network: [f1, f2, f3].map((f) => ({
            url: `${R}/submit`,
            post_data: { forum: f, title, body },
            several: true,
          })),
        });
      }
      return out;
    },
  },
  {
    id: 2012,
    key: 'forum_upvote_user_posts',
    site: 'reddit',
    intent: 'Upvote every post that {{user}} has submitted',
    tier: 3,
    instances: (w) =>
      w.forum.users.flatMap((u): Instance[] => {
        const mine = w.forum.posts.filter((p) => p.author === u.username);
        if (mine.length < 3 || mine.length > 7) return [];
        return [
          {
            dict: { user: u.username },
            start_url: `${R}/user/${u.username}`,
            eval: programHtml(
              mine.map((p) => ({
                url: postUrl(p),
                locator: VOTE_LOCATOR,
                required_contents: { must_include: ['vote vote--user-upvoted'] },
              })),
            ),
            steps: 3 * mine.length,
            features: ['backtracking'],
            mutates: true,
            network: mine.map((p) => ({
              url: `${postUrl(p)}/vote`,
              post_data: { direction: 'up' },
              several: true,
            })),
          },
        ];
      }),
  },
];
