import { displayDate, isoDate } from '../../format.js';
import { type Html, html, layout, NO_ENTER_SUBMIT, pager, paginate, plural } from '../../html.js';
import { intParam, notFound, ok, Router, redirect, type SiteRequest, type SiteResponse } from '../../http.js';
import { type SiteContext, safeNext } from '../common.js';
import {
  filterIssues,
  ISSUES_PAGE_SIZE,
  type Issue,
  type IssueFilter,
  type IssueSort,
  type Project,
  type TrackerState,
} from './data.js';

const P = '([a-z0-9-]+)\\/([a-z0-9.-]+)';
const re = (s: string) => new RegExp(`^\\/${P}${s}$`);
const SORTS: Array<[IssueSort, string]> = [
  ['created_desc', 'Created date (newest)'],
  ['created_asc', 'Created date (oldest)'],
  ['updated_desc', 'Last updated'],
];

export function readFilter(q: URLSearchParams): IssueFilter {
  const state = q.get('state');
  const sort = q.get('sort');
  return {
    state: state === 'closed' || state === 'all' ? state : 'opened',
    labels: q.getAll('label_name[]').filter((l) => l !== ''),
    milestone: q.get('milestone_title') || null,
    assignee: q.get('assignee_username') || null,
    author: q.get('author_username') || null,
    search: q.get('search') ?? '',
    sort: SORTS.some(([k]) => k === sort) ? (sort as IssueSort) : 'created_desc',
  };
}

export function trackerRoutes(ctx: SiteContext<TrackerState>): Router {
  const page = (req: SiteRequest, title: string, body: Html | Html[], project?: Project) =>
    ok(
      layout({
        siteName: 'MiniTracker',
        base: req.base,
        title,
        nav: [
          ['/', 'Projects'],
          ['/dashboard/issues', 'Issues assigned to me'],
          ...(project
            ? ([
                [`/${project.path}`, `${project.path}`],
                [`/${project.path}/-/issues`, 'Issues'],
                [`/${project.path}/-/labels`, 'Labels'],
                [`/${project.path}/-/milestones`, 'Milestones'],
                [`/${project.path}/-/project_members`, 'Members'],
              ] as Array<[string, string]>)
            : []),
        ],
        user: req.user,
        loginPath: '/users/sign_in',
        search: {
          action: '/search',
          name: 'search',
          value: req.query.get('search') ?? '',
          label: 'Search issues',
        },
        flash: req.query.get('flash') ?? undefined,
        body,
      }),
    );
  const needLogin = (req: SiteRequest): SiteResponse | null =>
    req.user
      ? null
      : redirect(`${req.base}/users/sign_in?next=${encodeURIComponent(`${req.base}${req.path}`)}`);
  const findProject = (ns = '', name = '') => ctx.state().projects.find((p) => p.path === `${ns}/${name}`);
  const issueUrl = (req: SiteRequest, i: Issue) => `${req.base}/${i.project}/-/issues/${i.iid}`;
  const userName = (u: string | null) =>
    u ? (ctx.state().users.find((x) => x.username === u)?.name ?? u) : 'None';

  const issueRows = (req: SiteRequest, issues: Issue[], listHref: (label: string) => string) =>
    html`<ul class="issues-list" aria-label="Issues">${issues.map(
      (i) => html`<li class="issue card"><a class="issue-title" href="${issueUrl(req, i)}">${i.title}</a> ${
        i.state === 'closed' ? html`<strong class="issue-closed">CLOSED</strong>` : ''
      }
<p class="muted">${i.project} #${i.iid} · opened ${displayDate(isoDate(i.createdDay))} by ${userName(i.author)}${
        i.milestone ? ` · milestone ${i.milestone}` : ''
      } · ${plural(i.notes.length, 'comment')} · updated ${displayDate(isoDate(i.updatedDay))}</p>
<p>${i.labels.map((l) => html`<a class="label" href="${listHref(l)}">${l}</a>`)} ${
        i.assignee ? html`<span class="assignee">Assignee: ${userName(i.assignee)}</span>` : ''
      }</p></li>`,
    )}</ul>`;

  const issueList = (req: SiteRequest, project: Project): Html => {
    const st = ctx.state();
    const f = readFilter(req.query);
    const all = st.issues.filter((i) => i.project === project.path);
    const base = `${req.base}/${project.path}/-/issues`;
    const withParams = (mutate: (q: URLSearchParams) => void) => {
      const q = new URLSearchParams(req.query);
      q.delete('page');
      mutate(q);
      return q.size ? `${base}?${q}` : base;
    };
    const counts = (state: IssueFilter['state']) => filterIssues(all, { ...f, state }).length;
    const list = filterIssues(all, f);
    const pg = paginate(list, intParam(req.query.get('page'), 1), ISSUES_PAGE_SIZE);
    const tab = (state: IssueFilter['state'], label: string) =>
      f.state === state
        ? html`<li><strong aria-current="true">${label} ${counts(state)}</strong></li>`
        : html`<li><a href="${withParams((q) => q.set('state', state))}">${label} ${counts(state)}</a></li>`;
    const filtered = f.labels.length > 0 || f.milestone || f.assignee || f.author || f.search;
    return html`<nav aria-label="Issue state"><ul style="list-style:none;display:flex;gap:12px;padding:0">${tab('opened', 'Open')}${tab('closed', 'Closed')}${tab('all', 'All')}</ul></nav>
<form method="get" action="${base}" role="search" aria-label="Search or filter issues">
<input type="hidden" name="state" value="${f.state}">
${f.labels.map((l) => html`<input type="hidden" name="label_name[]" value="${l}">`)}
${f.milestone ? html`<input type="hidden" name="milestone_title" value="${f.milestone}">` : ''}
${f.assignee ? html`<input type="hidden" name="assignee_username" value="${f.assignee}">` : ''}
<label for="issue-search" style="display:inline">Search issues by title</label> <input id="issue-search" type="search" name="search" value="${f.search}"> <button type="submit">Filter</button>
</form>
<details class="filters" open><summary>Filters</summary>
<p><span>Label:</span> ${project.labels.map((l) =>
      f.labels.includes(l)
        ? html`<strong class="label">${l}</strong>`
        : html`<a class="label" href="${withParams((q) => q.append('label_name[]', l))}">${l}</a>`,
    )}</p>
<p><span>Milestone:</span> ${project.milestones.map((m) =>
      f.milestone === m.title
        ? html`<strong>${m.title}</strong> `
        : html`<a href="${withParams((q) => q.set('milestone_title', m.title))}">${m.title}</a> `,
    )}</p>
<p><span>Assignee:</span> ${project.members.map((m) =>
      f.assignee === m.username
        ? html`<strong>${userName(m.username)}</strong> `
        : html`<a href="${withParams((q) => q.set('assignee_username', m.username))}">${userName(m.username)}</a> `,
    )}</p>
<p><span>Sort by:</span> ${SORTS.map(([k, label]) =>
      f.sort === k
        ? html`<strong aria-current="true">${label}</strong> `
        : html`<a href="${withParams((q) => q.set('sort', k))}">${label}</a> `,
    )}</p>
${filtered ? html`<p><a href="${base}?state=${f.state}">Clear filters</a></p>` : ''}
</details>
<p class="issue-count">Showing ${pg.items.length ? `${(pg.page - 1) * ISSUES_PAGE_SIZE + 1}-${(pg.page - 1) * ISSUES_PAGE_SIZE + pg.items.length}` : 0} of ${pg.total} issues</p>
${issueRows(req, pg.items, (l) => `${base}?state=${f.state}&label_name%5B%5D=${encodeURIComponent(l)}`)}
${pager(pg.page, pg.pages, (n) => {
  const q = new URLSearchParams(req.query);
  q.set('page', String(n));
  return `${base}?${q}`;
})}`;
  };

  return new Router()
    .get(/^\/$/, (req) => {
      const st = ctx.state();
      return page(
        req,
        'Projects',
        html`<h1>Projects</h1><ul class="project-list" aria-label="Projects">${st.projects.map((p) => {
          const open = st.issues.filter((i) => i.project === p.path && i.state === 'opened').length;
          return html`<li class="card"><a class="project-name" href="${req.base}/${p.path}">${p.path}</a><p class="muted">${p.description}</p><p class="muted">${plural(open, 'open issue')} · ${plural(p.members.length, 'member')}</p></li>`;
        })}</ul>`,
      );
    })
    .get(/^\/dashboard\/issues$/, (req) => {
      const denied = needLogin(req);
      if (denied || !req.user) return denied ?? redirect(`${req.base}/users/sign_in`);
      const st = ctx.state();
      const f = readFilter(req.query);
      const list = filterIssues(st.issues, {
        ...f,
        assignee: req.query.get('assignee_username') || req.user,
      });
      const pg = paginate(list, intParam(req.query.get('page'), 1), ISSUES_PAGE_SIZE);
      return page(
        req,
        'Issues assigned to me',
        html`<h1>Issues assigned to ${userName(req.user)}</h1><p class="issue-count">${pg.total} ${f.state === 'all' ? '' : f.state === 'opened' ? 'open ' : 'closed '}issues</p>
${issueRows(req, pg.items, (l) => `${req.base}/dashboard/issues?label_name%5B%5D=${encodeURIComponent(l)}`)}
${pager(pg.page, pg.pages, (n) => `${req.base}/dashboard/issues?page=${n}`)}`,
      );
    })
    .get(/^\/search$/, (req) => {
      const st = ctx.state();
      const q = (req.query.get('search') ?? '').trim().toLowerCase();
      const projects = q
        ? st.projects.filter((p) => p.path.includes(q) || p.description.toLowerCase().includes(q))
        : [];
      const issues = q
        ? filterIssues(st.issues, {
            state: 'all',
            labels: [],
            milestone: null,
            assignee: null,
            author: null,
            search: q,
            sort: 'created_desc',
          })
        : [];
      const pg = paginate(issues, intParam(req.query.get('page'), 1), ISSUES_PAGE_SIZE);
      return page(
        req,
        'Search',
        html`<h1>Search results</h1>
<section aria-labelledby="sp"><h2 id="sp">Projects (${projects.length})</h2><ul>${projects.map((p) => html`<li><a href="${req.base}/${p.path}">${p.path}</a></li>`)}</ul></section>
<section aria-labelledby="si"><h2 id="si">Issues (${pg.total})</h2>${issueRows(req, pg.items, (l) => `${req.base}/search?search=${encodeURIComponent(l)}`)}
${pager(pg.page, pg.pages, (n) => `${req.base}/search?search=${encodeURIComponent(q)}&page=${n}`)}</section>`,
      );
    })
    .get(/^\/users\/sign_in$/, (req) =>
      page(
        req,
        'Sign in',
        html`<h1>Sign in</h1><form method="post" action="${req.base}/users/sign_in" aria-label="Sign in">
<input type="hidden" name="next" value="${req.query.get('next') ?? ''}">
<label for="user_login">Username</label><input id="user_login" name="username" autocomplete="username">
<label for="user_password">Password</label><input id="user_password" name="password" type="password" autocomplete="current-password">
<p><button type="submit">Sign in</button></p></form>`,
      ),
    )
    .post(/^\/users\/sign_in$/, (req) => {
      const u = ctx
        .state()
        .users.find(
          (x) =>
            x.username === (req.form.get('username') ?? '').trim() && x.password === req.form.get('password'),
        );
      if (!u)
        return redirect(
          `${req.base}/users/sign_in?flash=${encodeURIComponent('Invalid login or password.')}`,
        );
      return redirect(safeNext(req.base, req.form.get('next')), { 'set-cookie': ctx.signIn(u.username) });
    })
    .post(/^\/logout$/, (req) => redirect(`${req.base}/`, { 'set-cookie': ctx.signOut() }))
    .get(/^\/users\/([a-z0-9.-]+)$/, (req, [name]) => {
      const st = ctx.state();
      const u = st.users.find((x) => x.username === name);
      if (!u) return notFound(req.base);
      const projects = st.projects.filter((p) => p.members.some((m) => m.username === u.username));
      return page(
        req,
        u.name,
        html`<h1>${u.name}</h1><p class="muted">@${u.username}</p><section aria-labelledby="up"><h2 id="up">Projects</h2><ul>${projects.map(
          (p) =>
            html`<li><a href="${req.base}/${p.path}">${p.path}</a> — ${p.members.find((m) => m.username === u.username)?.role ?? ''}</li>`,
        )}</ul></section>`,
      );
    })
    .get(re(''), (req, [ns, name]) => {
      const p = findProject(ns, name);
      if (!p) return notFound(req.base);
      const st = ctx.state();
      const issues = st.issues.filter((i) => i.project === p.path);
      return page(
        req,
        p.path,
        html`<h1>${p.path}</h1><p class="project-description">${p.description}</p>
<ul><li><a href="${req.base}/${p.path}/-/issues">Issues</a> (${issues.filter((i) => i.state === 'opened').length} open)</li>
<li><a href="${req.base}/${p.path}/-/labels">Labels</a> (${p.labels.length})</li>
<li><a href="${req.base}/${p.path}/-/milestones">Milestones</a> (${p.milestones.length})</li>
<li><a href="${req.base}/${p.path}/-/project_members">Members</a> (${p.members.length})</li></ul>`,
        p,
      );
    })
    .get(re('\\/-\\/issues'), (req, [ns, name]) => {
      const p = findProject(ns, name);
      if (!p) return notFound(req.base);
      return page(
        req,
        `Issues · ${p.path}`,
        html`<h1>Issues</h1><p><a href="${req.base}/${p.path}/-/issues/new">New issue</a></p>${issueList(req, p)}`,
        p,
      );
    })
    .post(re('\\/-\\/issues'), (req, [ns, name]) => {
      const denied = needLogin(req);
      if (denied || !req.user) return denied ?? redirect(`${req.base}/users/sign_in`);
      const p = findProject(ns, name);
      if (!p) return notFound(req.base);
      const st = ctx.state();
      const title = (req.form.get('title') ?? '').trim();
      if (!title)
        return redirect(
          `${req.base}/${p.path}/-/issues/new?flash=${encodeURIComponent("Title can't be blank")}`,
        );
      const assignee = req.form.get('assignee_username') || null;
      const milestone = req.form.get('milestone_title') || null;
      const issue: Issue = {
        project: p.path,
        iid: p.nextIid++,
        title,
        body: (req.form.get('description') ?? '').trim(),
        state: 'opened',
        labels: req.form
          .getAll('label_name[]')
          .filter((l) => p.labels.includes(l))
          .sort(),
        milestone: p.milestones.some((m) => m.title === milestone) ? milestone : null,
        assignee: p.members.some((m) => m.username === assignee) ? assignee : null,
        author: req.user,
        createdDay: st.today,
        updatedDay: st.today,
        notes: [],
      };
      st.issues.push(issue);
      return redirect(issueUrl(req, issue));
    })
    .get(re('\\/-\\/issues\\/new'), (req, [ns, name]) => {
      const denied = needLogin(req);
      if (denied) return denied;
      const p = findProject(ns, name);
      if (!p) return notFound(req.base);
      return page(
        req,
        `New issue · ${p.path}`,
        html`<h1>New issue</h1><form method="post" action="${req.base}/${p.path}/-/issues" aria-label="New issue" ${NO_ENTER_SUBMIT}>
<label for="issue_title">Title</label><input id="issue_title" name="title">
<label for="issue_description">Description</label><textarea id="issue_description" name="description"></textarea>
<fieldset><legend>Assignee</legend><label><input type="radio" name="assignee_username" value="" checked> Unassigned</label>
${p.members.map((m) => html`<label><input type="radio" name="assignee_username" value="${m.username}"> ${userName(m.username)}</label>`)}</fieldset>
<fieldset><legend>Labels</legend>${p.labels.map((l) => html`<label><input type="checkbox" name="label_name[]" value="${l}"> ${l}</label>`)}</fieldset>
<fieldset><legend>Milestone</legend><label><input type="radio" name="milestone_title" value="" checked> No milestone</label>
${p.milestones.filter((m) => m.state === 'active').map((m) => html`<label><input type="radio" name="milestone_title" value="${m.title}"> ${m.title}</label>`)}</fieldset>
<p><button type="submit">Create issue</button></p></form>`,
        p,
      );
    })
    .get(re('\\/-\\/issues\\/(\\d+)'), (req, [ns, name, iid]) => {
      const p = findProject(ns, name);
      const i = ctx.state().issues.find((x) => x.project === `${ns}/${name}` && String(x.iid) === iid);
      if (!p || !i) return notFound(req.base);
      const action = (verb: string, label: string) =>
        html`<form class="inline" method="post" action="${issueUrl(req, i)}/${verb}"><button type="submit">${label}</button></form>`;
      return page(
        req,
        `${i.title} (#${i.iid})`,
        html`<article class="issue-detail" aria-labelledby="issue-title">
<p><span class="issue-state">${i.state === 'opened' ? 'Open' : 'Closed'}</span> · Issue #${i.iid} opened ${displayDate(isoDate(i.createdDay))} by ${userName(i.author)}</p>
<h1 id="issue-title" class="title">${i.title}</h1>
<div class="description">${i.body}</div>
<aside aria-label="Issue details"><dl>
<dt>Assignee</dt><dd class="assignee">${userName(i.assignee)}</dd>
<dt>Labels</dt><dd class="labels">${i.labels.length ? i.labels.map((l) => html`<a class="label" href="${req.base}/${p.path}/-/issues?label_name%5B%5D=${encodeURIComponent(l)}">${l}</a>`) : 'None'}</dd>
<dt>Milestone</dt><dd class="milestone">${i.milestone ?? 'None'}</dd>
</dl></aside>
<p>${i.state === 'opened' ? action('close', 'Close issue') : action('reopen', 'Reopen issue')}</p>
</article>
<section aria-labelledby="notes-h"><h2 id="notes-h">Activity (${plural(i.notes.length, 'comment')})</h2>
<ul class="notes">${i.notes.map((n) => html`<li class="note card"><p class="muted">${userName(n.author)} · ${displayDate(isoDate(n.day))}</p><p class="note-text">${n.body}</p></li>`)}</ul>
<form method="post" action="${issueUrl(req, i)}/notes" aria-labelledby="add-note"><h3 id="add-note">Add a comment</h3>
<label for="note-body">Comment</label><textarea id="note-body" name="note"></textarea>
<p><button type="submit">Comment</button></p></form></section>`,
        p,
      );
    })
    .post(re('\\/-\\/issues\\/(\\d+)\\/(close|reopen|notes)'), (req, [ns, name, iid, verb]) => {
      const denied = needLogin(req);
      if (denied || !req.user) return denied ?? redirect(`${req.base}/users/sign_in`);
      const st = ctx.state();
      const i = st.issues.find((x) => x.project === `${ns}/${name}` && String(x.iid) === iid);
      if (!i) return notFound(req.base);
      if (verb === 'close') i.state = 'closed';
      else if (verb === 'reopen') i.state = 'opened';
      else {
        const body = (req.form.get('note') ?? '').trim();
        if (!body)
          return redirect(`${issueUrl(req, i)}?flash=${encodeURIComponent("Comment can't be blank")}`);
        i.notes.push({ author: req.user, body, day: st.today });
      }
      i.updatedDay = st.today;
      return redirect(issueUrl(req, i));
    })
    .get(re('\\/-\\/labels'), (req, [ns, name]) => {
      const p = findProject(ns, name);
      if (!p) return notFound(req.base);
      const st = ctx.state();
      return page(
        req,
        `Labels · ${p.path}`,
        html`<h1>Labels</h1><ul class="label-list">${p.labels.map((l) => {
          const n = st.issues.filter(
            (i) => i.project === p.path && i.labels.includes(l) && i.state === 'opened',
          ).length;
          return html`<li><a class="label" href="${req.base}/${p.path}/-/issues?label_name%5B%5D=${encodeURIComponent(l)}">${l}</a> <span class="muted">${plural(n, 'open issue')}</span></li>`;
        })}</ul>`,
        p,
      );
    })
    .get(re('\\/-\\/milestones'), (req, [ns, name]) => {
      const p = findProject(ns, name);
      if (!p) return notFound(req.base);
      return page(
        req,
        `Milestones · ${p.path}`,
        html`<h1>Milestones</h1><table class="milestones"><caption>Milestones of ${p.path}</caption><thead><tr><th scope="col">Milestone</th><th scope="col">Due date</th><th scope="col">State</th></tr></thead>
<tbody>${p.milestones.map(
          (m) =>
            html`<tr><td><a href="${req.base}/${p.path}/-/milestones/${m.id}">${m.title}</a></td><td class="milestone-due">${displayDate(m.due)}</td><td>${m.state === 'active' ? 'Open' : 'Closed'}</td></tr>`,
        )}</tbody></table>`,
        p,
      );
    })
    .get(re('\\/-\\/milestones\\/(\\d+)'), (req, [ns, name, id]) => {
      const p = findProject(ns, name);
      const m = p?.milestones.find((x) => String(x.id) === id);
      if (!p || !m) return notFound(req.base);
      return page(
        req,
        `${m.title} · ${p.path}`,
        html`<h1>Milestone ${m.title}</h1><p>${m.state === 'active' ? 'Open' : 'Closed'} · Due ${displayDate(m.due)}</p><p>${m.description}</p>
<p><a href="${req.base}/${p.path}/-/issues?state=all&milestone_title=${encodeURIComponent(m.title)}">Issues in this milestone</a></p>`,
        p,
      );
    })
    .get(re('\\/-\\/project_members'), (req, [ns, name]) => {
      const p = findProject(ns, name);
      if (!p) return notFound(req.base);
      return page(
        req,
        `Members · ${p.path}`,
        html`<h1>Project members</h1><table class="members"><caption>Members of ${p.path}</caption><thead><tr><th scope="col">Name</th><th scope="col">Username</th><th scope="col">Role</th></tr></thead>
<tbody>${p.members.map((m) => html`<tr><td><a href="${req.base}/users/${m.username}">${userName(m.username)}</a></td><td>@${m.username}</td><td class="member-role">${m.role}</td></tr>`)}</tbody></table>`,
        p,
      );
    });
}
