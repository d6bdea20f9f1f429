import type { ObservationNode } from '../../../envs/index.js';
import { type Driver, OracleError } from '../driver.js';
import { type Solver, slot } from '../types.js';

const MAX_PAGES = 12;

const isIssueLink = (d: Driver, n: ObservationNode) =>
  n.role === 'link' && /\/-\/issues\/\d+$/.test(d.linkUrl(n));

interface IssueRow {
  link: ObservationNode;
  title: string;
  project: string;
  iid: string;
  labels: string[];
  assignee: string | null;
}

/** Issue rows of a list: the title link, then its "project #iid · …" line, label links, assignee. */
function issueRows(d: Driver): IssueRow[] {
  const list = d.maybe((n) => n.role === 'list' && n.name === 'Issues');
  if (!list) return [];
  const under = d.descendants(list);
  const rows: IssueRow[] = [];
  for (const n of under) {
    if (isIssueLink(d, n)) {
      rows.push({ link: n, title: n.name, project: '', iid: '', labels: [], assignee: null });
      continue;
    }
    const row = rows.at(-1);
    if (!row) continue;
    if (n.role === 'StaticText') {
      const meta = /^(\S+\/\S+) #(\d+) · /.exec(n.name);
      if (meta && !row.iid) {
        row.project = meta[1]!;
        row.iid = meta[2]!;
      }
      if (n.name.startsWith('Assignee: ')) row.assignee = n.name.slice('Assignee: '.length);
    } else if (n.role === 'link' && d.linkUrl(n).includes('label_name')) row.labels.push(n.name);
  }
  return rows;
}

/** Pages through an issue list until a row matches. */
async function findIssue(d: Driver, match: (r: IssueRow) => boolean, what: string): Promise<IssueRow> {
  for (let page = 0; page < MAX_PAGES; page++) {
    const row = issueRows(d).find(match);
    if (row) return row;
    if (!d.byName('link', 'Next')) break;
    await d.clickLink('Next');
  }
  throw new OracleError(`${what} not found (${d.pathOf(d.url)})`);
}

async function openIssue(d: Driver, match: (r: IssueRow) => boolean, what: string): Promise<void> {
  await findIssue(d, match, what);
  await d.click((x) => issueRows(x).find(match)?.link, what);
}

/** A filter link (label, milestone, assignee, sort) in the issue list's Filters. */
function filterLink(d: Driver, name: string, param: string): ObservationNode | undefined {
  const group = d.maybe((n) => n.role === 'DisclosureTriangle' && n.name === 'Filters');
  const from = group ? d.indexOf(group) : 0;
  return d.nodes.find(
    (n, i) => i > from && n.role === 'link' && n.name === name && d.linkUrl(n).includes(param),
  );
}

/** The count on the issue list's state tab ("Open 12", "All 30"). */
function tabCount(d: Driver, tab: 'Open' | 'Closed' | 'All'): number {
  const nav = d.find((n) => n.role === 'navigation' && n.name === 'Issue state', 'issue state tabs');
  const node = d.descendants(nav).find((n) => new RegExp(`^${tab} \\d+$`).test(n.name));
  if (!node) throw new OracleError(`no ${tab} count`);
  return Number(node.name.slice(tab.length + 1));
}

async function projectIssues(d: Driver): Promise<void> {
  await d.click((x) => x.maybe((n) => n.role === 'link' && n.name === 'Issues'), 'Issues');
}

function tableRow(d: Driver, tableName: (s: string) => boolean, first: string): string[] {
  const table = d.find((n) => n.role === 'table' && tableName(n.name), 'table');
  const row = d.rows(table).find((r) => r.cells[0]?.role === 'cell' && r.cells[0].name === first);
  if (!row) throw new OracleError(`no row "${first}" on ${d.pathOf(d.url)}`);
  return row.cells.map((c) => c.name);
}

/** On a project's Labels page: open issues with `label` ("N open issues" beside the label). */
async function labelCount(d: Driver, label: string): Promise<number> {
  const link = d.find(
    (n) => n.role === 'link' && n.name === label && d.linkUrl(n).includes('label_name'),
    label,
  );
  const text = d
    .until(link, (n) => n.role === 'link' || n.role === 'ListMarker')
    .find((n) => n.role === 'StaticText');
  const m = text ? /^(\d+) open issues?$/.exec(text.name) : null;
  if (m) return Number(m[1]);
  // the tree dropped a repeated count: open the label's issue list and read its Open tab
  await d.click(
    (x) => x.maybe((n) => n.role === 'link' && n.name === label && x.linkUrl(n).includes('label_name')),
    label,
  );
  return tabCount(d, 'Open');
}

export const trackerSolvers: Record<string, Solver> = {
  tracker_issues_with_label: async (d, t) => {
    await d.clickLink(slot(t, 'project'));
    await projectIssues(d);
    await d.click((x) => filterLink(x, slot(t, 'label'), 'label_name'), `label ${slot(t, 'label')}`);
    await d.stop();
  },
  tracker_issue_assignee: async (d, t) => {
    const iid = slot(t, 'iid');
    await projectIssues(d);
    const row = await findIssue(d, (r) => r.iid === iid, `issue #${iid}`);
    if (row.assignee) {
      await d.stop(row.assignee);
      return;
    }
    await d.click((x) => issueRows(x).find((r) => r.iid === iid)?.link, `issue #${iid}`);
    const term = d.find((n) => n.role === 'term' && n.name === 'Assignee', 'Assignee');
    await d.stop(d.until(term, (n) => n.role === 'term').find((n) => n.role === 'StaticText')?.name ?? '');
  },
  tracker_member_role: async (d, t) => {
    await d.click((x) => x.maybe((n) => n.role === 'link' && n.name === 'Members'), 'Members');
    const cells = tableRow(d, (s) => s.startsWith('Members of '), slot(t, 'name'));
    await d.stop(cells[2] ?? '');
  },
  tracker_milestone_due: async (d, t) => {
    await d.click((x) => x.maybe((n) => n.role === 'link' && n.name === 'Milestones'), 'Milestones');
    const cells = tableRow(d, (s) => s.startsWith('Milestones of '), slot(t, 'milestone'));
    await d.stop(cells[1] ?? '');
  },
  tracker_count_assignee_milestone: async (d, t) => {
    await projectIssues(d);
    await d.click((x) => filterLink(x, slot(t, 'milestone'), 'milestone_title'), slot(t, 'milestone'));
    await d.click((x) => filterLink(x, slot(t, 'name'), 'assignee_username'), slot(t, 'name'));
    await d.stop(String(tabCount(d, 'All')));
  },
  tracker_close_issue: async (d, t) => {
    const title = slot(t, 'title');
    const project = slot(t, 'project');
    await d.type(
      (x) => x.maybe((n) => n.role === 'searchbox' && n.name === 'Search issues'),
      title,
      'search box',
      {
        enter: true,
      },
    );
    await openIssue(d, (r) => r.title === title && r.project === project, `issue "${title}" of ${project}`);
    await d.click((x) => x.byName('button', 'Close issue'), 'Close issue');
    await d.stop();
  },
  tracker_comment_issue: async (d, t) => {
    const iid = slot(t, 'iid');
    await projectIssues(d);
    await openIssue(d, (r) => r.iid === iid, `issue #${iid}`);
    await d.type((x) => x.byName('textbox', 'Comment'), slot(t, 'comment'), 'Comment');
    await d.click((x) => x.byName('button', 'Comment'), 'Comment button');
    await d.stop();
  },
  tracker_create_issue: async (d, t) => {
    await projectIssues(d);
    await d.clickLink('New issue');
    await d.type((x) => x.byName('textbox', 'Title'), slot(t, 'title'), 'Title');
    await d.type((x) => x.byName('textbox', 'Description'), slot(t, 'description'), 'Description');
    const inGroup = (x: Driver, group: string, role: string, name: string) => {
      const g = x.maybe((n) => n.role === 'group' && n.name === group);
      return g ? x.descendants(g).find((n) => n.role === role && n.name === name) : undefined;
    };
    await d.click((x) => inGroup(x, 'Assignee', 'radio', slot(t, 'assignee')), slot(t, 'assignee'));
    await d.click((x) => inGroup(x, 'Labels', 'checkbox', slot(t, 'label')), slot(t, 'label'));
    await d.click((x) => inGroup(x, 'Milestone', 'radio', slot(t, 'milestone')), slot(t, 'milestone'));
    await d.click((x) => x.byName('button', 'Create issue'), 'Create issue');
    await d.stop();
  },
  tracker_oldest_open_with_label: async (d, t) => {
    await projectIssues(d);
    await d.click((x) => filterLink(x, slot(t, 'label'), 'label_name'), `label ${slot(t, 'label')}`);
    await d.click((x) => filterLink(x, 'Created date (oldest)', 'sort='), 'sort oldest');
    const first = issueRows(d)[0];
    if (!first) throw new OracleError('no issue listed');
    await d.stop(first.title);
  },
  tracker_close_all_with_label: async (d, t) => {
    const label = slot(t, 'label');
    await projectIssues(d);
    await d.click((x) => filterLink(x, label, 'label_name'), `label ${label}`);
    const n = tabCount(d, 'Open');
    // back to the label's open issues through the label link on the issue just closed
    const backToLabel = () =>
      d.click(
        (x) =>
          x.maybe((n2) => n2.role === 'link' && n2.name === label && x.linkUrl(n2).includes('label_name')),
        `label link ${label}`,
      );
    for (let i = 0; i < n; i++) {
      if (i > 0) await backToLabel();
      const first = issueRows(d)[0];
      if (!first) throw new OracleError('no open issue left to close');
      await d.click((x) => issueRows(x)[0]?.link, `issue "${first.title}"`);
      await d.click((x) => x.byName('button', 'Close issue'), 'Close issue');
    }
    // and once more, to stop where the page shows that none is left: the issue page just closed
    // cannot tell a policy whether it was the last
    await backToLabel();
    if (issueRows(d).length > 0) throw new OracleError(`open issues labeled ${label} remain`);
    await d.stop();
  },
  tracker_my_open_issues: async (d, t) => {
    const project = slot(t, 'project');
    await d.clickLink('Issues assigned to me');
    const titles: string[] = [];
    for (let page = 0; page < MAX_PAGES; page++) {
      titles.push(
        ...issueRows(d)
          .filter((r) => r.project === project)
          .map((r) => r.title),
      );
      if (!d.byName('link', 'Next')) break;
      await d.clickLink('Next');
    }
    if (titles.length === 0) throw new OracleError(`no issue of ${project} assigned to me`);
    await d.stop(titles.join('; '));
  },
  tracker_issue_labels: async (d, t) => {
    const title = slot(t, 'title');
    let row = issueRows(d).find((r) => r.title === title);
    if (!row) {
      await d.type(
        (x) => x.maybe((n) => n.role === 'searchbox' && n.name === 'Search issues by title'),
        title,
        'issue search box',
        { enter: true },
      );
      row = await findIssue(d, (r) => r.title === title, `issue "${title}"`);
    }
    await d.stop(row.labels.join(', '));
  },
  tracker_compare_label_across_projects: async (d, t) => {
    const label = slot(t, 'label');
    const projects = ['p1', 'p2', 'p3', 'p4'].map((k) => slot(t, k));
    const counts: number[] = [];
    for (const [i, p] of projects.entries()) {
      if (i > 0) await d.clickLink('Projects');
      await d.clickLink(p);
      await d.click((x) => x.maybe((n) => n.role === 'link' && n.name === 'Labels'), 'Labels');
      counts.push(await labelCount(d, label));
    }
    const max = Math.max(...counts);
    await d.stop(projects[counts.indexOf(max)]!);
  },
};
