import { isoMinute } from '../../format.js';
import { type Html, html, layout, NO_ENTER_SUBMIT, pager, paginate, plural } from '../../html.js';
import { intParam, notFound, ok, Router, redirect, type SiteRequest, type SiteResponse } from '../../http.js';
import { type SiteContext, safeNext } from '../common.js';
import {
  commentCount,
  FORUM_PAGE_SIZE,
  type ForumSort,
  type ForumState,
  type Post,
  postScore,
  searchPosts,
  sortPosts,
} from './data.js';

const SORTS: Array<[ForumSort, string]> = [
  ['hot', 'Hot'],
  ['new', 'New'],
  ['top', 'Top'],
];

export function forumRoutes(ctx: SiteContext<ForumState>): Router {
  const page = (req: SiteRequest, title: string, body: Html | Html[]) =>
    ok(
      layout({
        siteName: 'Postmill Mini',
        base: req.base,
        title,
        nav: [
          ['/', 'Home'],
          ['/forums', 'Forums'],
          ['/submit', 'Submit'],
          ...(req.user ? ([[`/user/${req.user}`, 'Profile']] as Array<[string, string]>) : []),
        ],
        user: req.user,
        loginPath: '/login',
        search: { action: '/search', name: 'q', value: req.query.get('q') ?? '', label: 'Search posts' },
        flash: req.query.get('flash') ?? undefined,
        body,
      }),
    );
  const needLogin = (req: SiteRequest): SiteResponse | null =>
    req.user ? null : redirect(`${req.base}/login?next=${encodeURIComponent(`${req.base}${req.path}`)}`);
  const postUrl = (req: SiteRequest, p: Post) => `${req.base}/f/${p.forum}/${p.id}`;
  const voteClass = (st: ForumState, user: string | null, p: Post) => {
    const v = user ? st.votes[user]?.[p.id] : undefined;
    return v === 1 ? 'vote vote--user-upvoted' : v === -1 ? 'vote vote--user-downvoted' : 'vote';
  };
  const voteBox = (req: SiteRequest, p: Post) => {
    const st = ctx.state();
    return html`<div class="submission__vote"><form class="${voteClass(st, req.user, p)}" method="post" action="${postUrl(req, p)}/vote" aria-label="Vote on ${p.title}">
<button type="submit" name="direction" value="up" aria-label="Upvote">▲</button>
<span class="vote__net-score" aria-label="Score">${postScore(st, p)}</span>
<button type="submit" name="direction" value="down" aria-label="Downvote">▼</button></form></div>`;
  };
  const listing = (
    req: SiteRequest,
    posts: Post[],
    href: (q: URLSearchParams) => string,
    showSort = true,
  ): Html => {
    const st = ctx.state();
    const sort = (req.query.get('sort') as ForumSort | null) ?? 'hot';
    const sorted = showSort ? sortPosts(st, posts, SORTS.some(([k]) => k === sort) ? sort : 'hot') : posts;
    const pg = paginate(sorted, intParam(req.query.get('page'), 1), FORUM_PAGE_SIZE);
    const withParams = (changes: Record<string, string | null>) => {
      const q = new URLSearchParams(req.query);
      for (const [k, v] of Object.entries(changes)) {
        if (v === null) q.delete(k);
        else q.set(k, v);
      }
      return href(q);
    };
    return html`${
      showSort
        ? html`<nav aria-label="Sort submissions"><span>Sort by:</span> ${SORTS.map(([k, label]) =>
            k === sort
              ? html`<strong aria-current="true">${label}</strong> `
              : html`<a href="${withParams({ sort: k, page: null })}">${label}</a> `,
          )}</nav>`
        : ''
    }
${pg.total === 0 ? html`<p>There are no submissions to show.</p>` : ''}
<ol class="submission-list" aria-label="Submissions" start="${(pg.page - 1) * FORUM_PAGE_SIZE + 1}">${pg.items.map(
      (p) => html`<li class="submission card"><article aria-labelledby="post-${p.id}">
<h2 class="submission__title" id="post-${p.id}" style="font-size:1.05em;margin:0"><a href="${postUrl(req, p)}">${p.title}</a></h2>
<p class="muted">Submitted by <a href="${req.base}/user/${p.author}">${p.author}</a> in <a href="${req.base}/f/${p.forum}">f/${p.forum}</a> on <time datetime="${isoMinute(p.createdAt)}">${isoMinute(p.createdAt)}</time>
· <a href="${postUrl(req, p)}">${plural(commentCount(st, p.id), 'comment')}</a> · score ${postScore(st, p)}</p></article></li>`,
    )}</ol>
${pager(pg.page, pg.pages, (n) => withParams({ page: String(n) }))}`;
  };

  return new Router()
    .get(/^\/$/, (req) =>
      page(
        req,
        'All forums',
        html`<h1>Front page</h1>${listing(req, ctx.state().posts, (q) => `${req.base}/${q.size ? `?${q}` : ''}`)}`,
      ),
    )
    .get(/^\/forums$/, (req) => {
      const st = ctx.state();
      return page(
        req,
        'Forums',
        html`<h1>Forums</h1><table class="forum-list"><caption>All forums</caption><thead><tr><th scope="col">Forum</th><th scope="col">Description</th><th scope="col">Submissions</th></tr></thead>
<tbody>${st.forums.map(
          (f) =>
            html`<tr><td><a href="${req.base}/f/${f.name}">f/${f.name}</a></td><td>${f.description}</td><td>${st.posts.filter((p) => p.forum === f.name).length}</td></tr>`,
        )}</tbody></table>`,
      );
    })
    .get(/^\/f\/([A-Za-z0-9_]+)$/, (req, [name]) => {
      const st = ctx.state();
      const f = st.forums.find((x) => x.name === name);
      if (!f) return notFound(req.base);
      return page(
        req,
        `f/${f.name}`,
        html`<h1>${f.title} <span class="muted">f/${f.name}</span></h1>
<p><a href="${req.base}/submit?forum=${f.name}">Submit a new post to f/${f.name}</a></p>
${listing(
  req,
  st.posts.filter((p) => p.forum === f.name),
  (q) => `${req.base}/f/${f.name}${q.size ? `?${q}` : ''}`,
)}
<aside aria-labelledby="about"><h2 id="about">About f/${f.name}</h2><p class="forum-description">${f.description}</p><p class="forum-sidebar">${f.sidebar}</p></aside>`,
      );
    })
    .get(/^\/f\/([A-Za-z0-9_]+)\/(\d+)$/, (req, [name, id]) => {
      const st = ctx.state();
      const p = st.posts.find((x) => String(x.id) === id && x.forum === name);
      if (!p) return notFound(req.base);
      const cs = st.comments.filter((c) => c.postId === p.id);
      return page(
        req,
        p.title,
        html`<article class="submission" aria-labelledby="title">
<h1 id="title" class="submission__title">${p.title}</h1>
<p class="muted">Submitted by <a class="submission__author" href="${req.base}/user/${p.author}">${p.author}</a> in <a href="${req.base}/f/${p.forum}">f/${p.forum}</a> on <time>${isoMinute(p.createdAt)}</time></p>
${voteBox(req, p)}
<div class="submission__body">${p.body}</div>
</article>
<section aria-labelledby="comments-h" class="comments"><h2 id="comments-h">${plural(cs.length, 'comment')}</h2>
${cs.map(
  (
    c,
  ) => html`<article class="comment card" aria-label="Comment by ${c.author}"><p class="muted"><a class="comment__author" href="${req.base}/user/${c.author}">${c.author}</a> · <time>${isoMinute(c.createdAt)}</time> · ${c.score} points</p>
<div class="comment__body">${c.body}</div></article>`,
)}
<form method="post" action="${postUrl(req, p)}/comment" aria-labelledby="reply-h"><h3 id="reply-h">Post a comment</h3>
<label for="comment-body">Comment</label><textarea id="comment-body" name="body"></textarea>
<p><button type="submit">Post</button></p></form></section>`,
      );
    })
    .post(/^\/f\/([A-Za-z0-9_]+)\/(\d+)\/vote$/, (req, [name, id]) => {
      const denied = needLogin(req);
      if (denied || !req.user) return denied ?? redirect(`${req.base}/login`);
      const st = ctx.state();
      const p = st.posts.find((x) => String(x.id) === id && x.forum === name);
      if (!p) return notFound(req.base);
      const dir = req.form.get('direction') === 'down' ? -1 : 1;
      const mine = st.votes[req.user] ?? {};
      st.votes[req.user] = mine;
      if (mine[p.id] === dir) delete mine[p.id];
      else mine[p.id] = dir;
      return redirect(postUrl(req, p));
    })
    .post(/^\/f\/([A-Za-z0-9_]+)\/(\d+)\/comment$/, (req, [name, id]) => {
      const denied = needLogin(req);
      if (denied || !req.user) return denied ?? redirect(`${req.base}/login`);
      const st = ctx.state();
      const p = st.posts.find((x) => String(x.id) === id && x.forum === name);
      if (!p) return notFound(req.base);
      const body = (req.form.get('body') ?? '').trim();
      if (!body)
        return redirect(`${postUrl(req, p)}?flash=${encodeURIComponent('A comment cannot be empty.')}`);
      st.now += 1;
      st.comments.push({
        id: st.nextCommentId++,
        postId: p.id,
        author: req.user,
        body,
        createdAt: st.now,
        score: 1,
      });
      return redirect(postUrl(req, p));
    })
    .get(/^\/submit$/, (req) => {
      const denied = needLogin(req);
      if (denied) return denied;
      const st = ctx.state();
      const chosen = req.query.get('forum') ?? '';
      return page(
        req,
        'Create submission',
        html`<h1>Create submission</h1>
<form method="post" action="${req.base}/submit" aria-label="Create submission" ${NO_ENTER_SUBMIT}>
<label for="submission-forum">Forum</label><select id="submission-forum" name="forum">
<option value="">Choose one…</option>
${st.forums.map((f) => html`<option value="${f.name}" ${f.name === chosen ? 'selected' : ''}>${f.name}</option>`)}</select>
<label for="submission-title">Title</label><input id="submission-title" name="title">
<label for="submission-body">Body</label><textarea id="submission-body" name="body"></textarea>
<p><button type="submit">Create submission</button></p></form>`,
      );
    })
    .post(/^\/submit$/, (req) => {
      const denied = needLogin(req);
      if (denied || !req.user) return denied ?? redirect(`${req.base}/login`);
      const st = ctx.state();
      const forum = st.forums.find((f) => f.name === req.form.get('forum'));
      const title = (req.form.get('title') ?? '').trim();
      const body = (req.form.get('body') ?? '').trim();
      if (!forum || !title)
        return redirect(
          `${req.base}/submit?flash=${encodeURIComponent('Choose a forum and write a title.')}${forum ? `&forum=${forum.name}` : ''}`,
        );
      st.now += 1;
      const p: Post = {
        id: st.nextPostId++,
        forum: forum.name,
        author: req.user,
        title,
        body,
        createdAt: st.now,
        baseScore: 0,
      };
      st.posts.push(p);
      const mine = st.votes[req.user] ?? {};
      mine[p.id] = 1;
      st.votes[req.user] = mine;
      return redirect(postUrl(req, p));
    })
    .get(/^\/search$/, (req) => {
      const q = req.query.get('q') ?? '';
      return page(
        req,
        `Search: ${q}`,
        html`<h1>Search results for "${q}"</h1>${listing(req, searchPosts(ctx.state(), q), (s) => `${req.base}/search?${s}`, false)}`,
      );
    })
    .get(/^\/user\/([A-Za-z0-9_]+)$/, (req, [name]) => {
      const st = ctx.state();
      const u = st.users.find((x) => x.username === name);
      if (!u) return notFound(req.base);
      const posts = sortPosts(
        st,
        st.posts.filter((p) => p.author === u.username),
        'new',
      );
      const cs = st.comments.filter((c) => c.author === u.username).reverse();
      return page(
        req,
        u.username,
        html`<h1>${u.username}</h1>
<section aria-labelledby="bio-h"><h2 id="bio-h">Biography</h2><p class="user-bio__biography">${u.bio}</p>
${req.user === u.username ? html`<p><a href="${req.base}/user/${u.username}/edit_biography">Edit biography</a></p>` : ''}</section>
<section aria-labelledby="subs-h"><h2 id="subs-h">Submissions (${posts.length})</h2>
${listing(req, posts, (q) => `${req.base}/user/${u.username}${q.size ? `?${q}` : ''}`, false)}</section>
<section aria-labelledby="com-h"><h2 id="com-h">Comments (${cs.length})</h2><ul>${cs.slice(0, 20).map((c) => {
          const p = st.posts.find((x) => x.id === c.postId);
          return html`<li>${c.body} — on <a href="${p ? postUrl(req, p) : '#'}">${p?.title ?? ''}</a></li>`;
        })}</ul></section>`,
      );
    })
    .get(/^\/user\/([A-Za-z0-9_]+)\/edit_biography$/, (req, [name]) => {
      const denied = needLogin(req);
      if (denied) return denied;
      if (req.user !== name) return notFound(req.base);
      const u = ctx.state().users.find((x) => x.username === name);
      return page(
        req,
        'Edit biography',
        html`<h1>Edit biography</h1><form method="post" action="${req.base}/user/${name}/edit_biography" aria-label="Edit biography">
<label for="user_biography">Biography</label><textarea id="user_biography" name="biography">${u?.bio ?? ''}</textarea>
<p><button type="submit">Save</button></p></form>`,
      );
    })
    .post(/^\/user\/([A-Za-z0-9_]+)\/edit_biography$/, (req, [name]) => {
      const denied = needLogin(req);
      if (denied) return denied;
      const u = ctx.state().users.find((x) => x.username === name);
      if (!u || req.user !== name) return notFound(req.base);
      u.bio = (req.form.get('biography') ?? '').trim();
      return redirect(`${req.base}/user/${name}`);
    })
    .get(/^\/login$/, (req) =>
      page(
        req,
        'Log in',
        html`<h1>Log in</h1><form method="post" action="${req.base}/login" aria-label="Log in">
<input type="hidden" name="next" value="${req.query.get('next') ?? ''}">
<label for="login-username">Username</label><input id="login-username" name="username" autocomplete="username">
<label for="login-password">Password</label><input id="login-password" name="password" type="password" autocomplete="current-password">
<p><button type="submit">Log in</button></p></form>`,
      ),
    )
    .post(/^\/login$/, (req) => {
      const u = ctx
        .state()
        .users.find(
          (x) =>
            x.username === (req.form.get('username') ?? '').trim() && x.password === req.form.get('password'),
        );
      if (!u) return redirect(`${req.base}/login?flash=${encodeURIComponent('Invalid credentials.')}`);
      return redirect(safeNext(req.base, req.form.get('next')), { 'set-cookie': ctx.signIn(u.username) });
    })
    .post(/^\/logout$/, (req) => redirect(`${req.base}/`, { 'set-cookie': ctx.signOut() }));
}
