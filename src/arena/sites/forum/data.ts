import type { SeededRandom } from '../../../util/index.js';
import {
  BIO_PHRASES,
  COMMENT_SENTENCES,
  FORUMS,
  HANDLE_ADJ,
  HANDLE_NOUN,
  POST_SENTENCES,
  POST_TITLE_PATTERNS,
} from '../../words.js';

export interface Forum {
  name: string;
  title: string;
  description: string;
  sidebar: string;
}
export interface ForumUser {
  username: string;
  password: string;
  bio: string;
  joined: number;
}
export interface Post {
  id: number;
  forum: string;
  author: string;
  title: string;
  body: string;
  /** Minutes since the epoch. */
  createdAt: number;
  /** Votes from everyone but the signed-in user. */
  baseScore: number;
}
export interface ForumComment {
  id: number;
  postId: number;
  author: string;
  body: string;
  createdAt: number;
  score: number;
}
export interface ForumState {
  forums: Forum[];
  users: ForumUser[];
  posts: Post[];
  comments: ForumComment[];
  /** user → post id → +1 / -1 */
  votes: Record<string, Record<number, 1 | -1>>;
  nextPostId: number;
  nextCommentId: number;
  /** Logical clock (minutes since the epoch) for posts and comments made at run time. */
  now: number;
}

export const FORUM_USER = 'MarvelsGrantMan136';
export const FORUM_PASSWORD = 'test1234';
export const FORUM_PAGE_SIZE = 20;
const T0 = Date.parse('2022-06-01T00:00:00Z') / 60_000;
export const FORUM_NOW = Date.parse('2024-03-01T12:00:00Z') / 60_000;

export function generateForum(rng: SeededRandom): ForumState {
  const handles = new Set<string>();
  while (handles.size < 90) handles.add(`${rng.pick(HANDLE_ADJ)}${rng.pick(HANDLE_NOUN)}${rng.int(1, 999)}`);
  const users: ForumUser[] = [FORUM_USER, ...handles].map((username, i) => ({
    username,
    password: i === 0 ? FORUM_PASSWORD : `pw-${username}`,
    bio: i === 0 ? 'Just here for the books and the memes.' : rng.chance(0.8) ? rng.pick(BIO_PHRASES) : '',
    joined: T0 - rng.int(0, 600) * 1440,
  }));
  const authors = users.slice(1).map((u) => u.username);
  const forums: Forum[] = FORUMS.map((f) => ({
    name: f.name,
    title: f.title,
    description: `A place to talk about ${f.title.toLowerCase()}: ${f.nouns.slice(0, 3).join(', ')} and more.`,
    sidebar: `Be kind. Stay on topic. No spam. Weekly threads on ${rng.pick(f.nouns)}.`,
  }));
  const posts: Post[] = [];
  const titles = new Set<string>();
  const comments: ForumComment[] = [];
  let nextId = 1000;
  for (const f of FORUMS) {
    const n = rng.int(24, 46);
    for (let k = 0; k < n; k++) {
      let title = '';
      for (let tries = 0; tries < 40 && !title; tries++) {
        const t = rng.pick(POST_TITLE_PATTERNS).replace('{n}', rng.pick(f.nouns));
        if (!titles.has(t)) title = t;
      }
      if (!title) continue;
      titles.add(title);
      const createdAt = T0 + rng.int(0, 630 * 1440);
      const post: Post = {
        id: nextId,
        forum: f.name,
        author: rng.pick(authors),
        title,
        body: rng.sample(POST_SENTENCES, rng.int(1, 3)).join(' '),
        createdAt,
        baseScore: rng.chance(0.1) ? rng.int(-8, 0) : Math.floor(rng.next() ** 2 * 400),
      };
      nextId += rng.int(1, 40);
      posts.push(post);
      const nc = rng.chance(0.2) ? 0 : rng.int(1, 11);
      let t = createdAt;
      for (let c = 0; c < nc; c++) {
        t += rng.int(5, 3000);
        comments.push({
          id: comments.length + 1,
          postId: post.id,
          author: rng.pick(authors),
          body: rng.pick(COMMENT_SENTENCES),
          createdAt: t,
          score: rng.int(-3, 60),
        });
      }
    }
  }
  // ids rise with creation time, as in a real forum
  posts.sort((a, b) => a.createdAt - b.createdAt);
  const ids = posts.map((p) => p.id).sort((a, b) => a - b);
  const remap = new Map<number, number>();
  posts.forEach((p, i) => {
    const id = ids[i] ?? p.id;
    remap.set(p.id, id);
    p.id = id;
  });
  for (const c of comments) c.postId = remap.get(c.postId) ?? c.postId;
  comments.sort((a, b) => a.createdAt - b.createdAt || a.id - b.id);
  comments.forEach((c, i) => {
    c.id = i + 1;
  });
  return {
    forums,
    users,
    posts,
    comments,
    votes: {},
    nextPostId: (ids[ids.length - 1] ?? 1000) + 1,
    nextCommentId: comments.length + 1,
    now: FORUM_NOW,
  };
}

export type ForumSort = 'hot' | 'new' | 'top';

export function postScore(st: ForumState, p: Post): number {
  let s = p.baseScore;
  for (const v of Object.values(st.votes)) s += v[p.id] ?? 0;
  return s;
}

export function commentCount(st: ForumState, postId: number): number {
  let n = 0;
  for (const c of st.comments) if (c.postId === postId) n++;
  return n;
}

export function sortPosts(st: ForumState, posts: Post[], sort: ForumSort): Post[] {
  const out = posts.slice();
  if (sort === 'new') return out.sort((a, b) => b.createdAt - a.createdAt || b.id - a.id);
  if (sort === 'top') return out.sort((a, b) => postScore(st, b) - postScore(st, a) || b.id - a.id);
  const hot = (p: Post) => (postScore(st, p) + 1) / ((FORUM_NOW - p.createdAt) / 60 / 24 + 2) ** 1.3;
  const h = new Map(out.map((p) => [p.id, hot(p)]));
  return out.sort((a, b) => (h.get(b.id) ?? 0) - (h.get(a.id) ?? 0) || b.id - a.id);
}

export function searchPosts(st: ForumState, q: string): Post[] {
  const needle = q.trim().toLowerCase();
  if (!needle) return [];
  return sortPosts(
    st,
    st.posts.filter((p) => `${p.title}\n${p.body}`.toLowerCase().includes(needle)),
    'new',
  );
}
