import { displayDate } from '../format.js';
import {
  filterIssues,
  ISSUES_PAGE_SIZE,
  type Issue,
  type IssueFilter,
  type Project,
  TRACKER_USER,
  type TrackerState,
} from '../sites/tracker/data.js';
import { type Instance, pageOf, programHtml, stringMatch, type Template, urlMatch } from './types.js';

const G = '__GITLAB__';
const issueUrl = (i: Issue) => `${G}/${i.project}/-/issues/${i.iid}`;
const STATE_LOCATOR = "document.querySelector('.issue-state').textContent.trim()";

const OPEN: IssueFilter = {
  state: 'opened',
  labels: [],
  milestone: null,
  assignee: null,
  author: null,
  search: '',
  sort: 'created_desc',
};

function issuesOf(st: TrackerState, p: Project, f: Partial<IssueFilter> = {}): Issue[] {
  return filterIssues(
    st.issues.filter((i) => i.project === p.path),
    { ...OPEN, ...f },
  );
}

function nameOf(st: TrackerState, username: string): string {
  return st.users.find((u) => u.username === username)?.name ?? username;
}

const COMMENTS = [
  'I will take a look at this tomorrow',
  'Confirmed on the staging server',
  'Linked this to the release notes',
  'Please add steps to reproduce',
  'Moving this to the next sprint',
];
const NEW_TITLES = [
  'Add an export button to the report view',
  'Update the contributing guide',
  'Investigate memory growth in the worker',
  'Support custom themes',
  'Fix broken link in the footer',
];
const DESCRIPTIONS = [
  'Reported during the weekly sync.',
  'Needed for the next release.',
  'Low priority but nice to have.',
];

export const trackerTemplates: Template[] = [
  {
    id: 3001,
    key: 'tracker_issues_with_label',
    site: 'gitlab',
    intent: 'Show me the open issues labeled "{{label}}" in the {{project}} project',
    tier: 2,
    instances: (w) =>
      w.tracker.projects.flatMap((p) =>
        p.labels.map(
          (label): Instance => ({
            dict: { label, project: p.path },
            start_url: G,
            eval: urlMatch(`${G}/${p.path}/-/issues?label_name%5B%5D=${encodeURIComponent(label)}`),
            steps: 4,
          }),
        ),
      ),
  },
  {
    id: 3002,
    key: 'tracker_issue_assignee',
    site: 'gitlab',
    intent: 'Who is assigned to issue #{{iid}} in {{project}}?',
    tier: 1,
    instances: (w) =>
      w.tracker.projects.flatMap((p) => {
        const open = issuesOf(w.tracker, p);
        return open.flatMap((i, idx): Instance[] => {
          if (!i.assignee) return [];
          const page = pageOf(idx, ISSUES_PAGE_SIZE);
          const name = nameOf(w.tracker, i.assignee);
          return [
            {
              dict: { iid: i.iid, project: p.path },
              start_url: `${G}/${p.path}`,
              eval: stringMatch({ must_include: [name] }, name),
              steps: 2 + (page - 1),
              features: page > 1 ? ['second-page'] : [],
              evidence: [issueUrl(i)],
            },
          ];
        });
      }),
  },
  {
    id: 3003,
    key: 'tracker_member_role',
    site: 'gitlab',
    intent: 'What role does {{name}} have in the {{project}} project?',
    tier: 1,
    instances: (w) =>
      w.tracker.projects.flatMap((p) =>
        p.members.map(
          (m): Instance => ({
            dict: { name: nameOf(w.tracker, m.username), project: p.path },
            start_url: `${G}/${p.path}`,
            eval: stringMatch({ must_include: [m.role] }, m.role),
            steps: 2,
            evidence: [`${G}/${p.path}/-/project_members`],
          }),
        ),
      ),
  },
  {
    id: 3004,
    key: 'tracker_milestone_due',
    site: 'gitlab',
    intent: 'When is the {{milestone}} milestone of {{project}} due?',
    tier: 1,
    instances: (w) =>
      w.tracker.projects.flatMap((p) =>
        p.milestones.map(
          (m): Instance => ({
            dict: { milestone: m.title, project: p.path },
            start_url: `${G}/${p.path}`,
            eval: stringMatch({ must_include: [displayDate(m.due)] }, displayDate(m.due)),
            steps: 2,
            evidence: [`${G}/${p.path}/-/milestones/${m.id}`],
          }),
        ),
      ),
  },
  {
    id: 3005,
    key: 'tracker_count_assignee_milestone',
    site: 'gitlab',
    intent:
      'How many issues in {{project}}, open or closed, are assigned to {{name}} in the {{milestone}} milestone?',
    tier: 2,
    instances: (w) =>
      w.tracker.projects.flatMap((p) =>
        p.milestones.flatMap((m) =>
          p.members.flatMap((mem): Instance[] => {
            const n = issuesOf(w.tracker, p, {
              state: 'all',
              milestone: m.title,
              assignee: mem.username,
            }).length;
            if (n === 0) return [];
            return [
              {
                dict: { project: p.path, name: nameOf(w.tracker, mem.username), milestone: m.title },
                start_url: `${G}/${p.path}`,
                eval: stringMatch({ must_include: [String(n)] }, String(n)),
                steps: 5,
                evidence: [
                  `${G}/${p.path}/-/issues?state=all&milestone_title=${encodeURIComponent(m.title)}&assignee_username=${encodeURIComponent(mem.username)}`,
                ],
              },
            ];
          }),
        ),
      ),
  },
  {
    id: 3006,
    key: 'tracker_close_issue',
    site: 'gitlab',
    intent: 'Close the issue "{{title}}" in {{project}}',
    tier: 2,
    instances: (w) =>
      w.tracker.projects.flatMap((p) =>
        issuesOf(w.tracker, p).map(
          (i): Instance => ({
            dict: { title: i.title, project: p.path },
            start_url: `${G}/${p.path}`,
            eval: programHtml([
              { url: issueUrl(i), locator: STATE_LOCATOR, required_contents: { exact_match: 'Closed' } },
            ]),
            steps: 5,
            mutates: true,
            network: [{ url: `${issueUrl(i)}/close`, post_data: {} }],
          }),
        ),
      ),
  },
  {
    id: 3007,
    key: 'tracker_comment_issue',
    site: 'gitlab',
    intent: 'Leave the comment "{{comment}}" on issue #{{iid}} of {{project}}',
    tier: 2,
    instances: (w, rng) =>
      w.tracker.projects.flatMap((p) =>
        issuesOf(w.tracker, p).map((i, idx): Instance => {
          const comment = rng.pick(COMMENTS);
          const page = pageOf(idx, ISSUES_PAGE_SIZE);
          return {
            dict: { comment, iid: i.iid, project: p.path },
            start_url: `${G}/${p.path}`,
            eval: programHtml([
              {
                url: issueUrl(i),
                locator: "[...document.querySelectorAll('.note-text')].map(n => n.textContent).join('\\n')",
                required_contents: { must_include: [comment] },
              },
            ]),
            steps: 5 + (page - 1),
            features: page > 1 ? ['second-page'] : [],
            mutates: true,
            network: [{ url: `${issueUrl(i)}/notes`, post_data: { note: comment } }],
          };
        }),
      ),
  },
  {
    id: 3008,
    key: 'tracker_create_issue',
    site: 'gitlab',
    intent:
      'Create an issue in {{project}} titled "{{title}}" with the description "{{description}}", labeled "{{label}}", assigned to {{assignee}}, in the {{milestone}} milestone',
    tier: 2,
    instances: (w, rng) =>
      w.tracker.projects.flatMap((p) =>
        NEW_TITLES.flatMap((title): Instance[] => {
          const active = p.milestones.filter((m) => m.state === 'active');
          if (active.length === 0) return [];
          const label = rng.pick(p.labels);
          const member = rng.pick(p.members).username;
          const assignee = nameOf(w.tracker, member);
          const milestone = rng.pick(active).title;
          const description = rng.pick(DESCRIPTIONS);
          const url = `${G}/${p.path}/-/issues/${p.nextIid}`;
          const at = (locator: string, exact: string) => ({
            url,
            locator,
            required_contents: { exact_match: exact },
          });
          return [
            {
              dict: { project: p.path, title, description, label, assignee, milestone },
              start_url: `${G}/${p.path}`,
              eval: programHtml([
                at("document.querySelector('.issue-detail .title').textContent", title),
                at("document.querySelector('.issue-detail .description').textContent", description),
                at("document.querySelector('.issue-detail .labels').textContent.trim()", label),
                at("document.querySelector('.issue-detail .assignee').textContent", assignee),
                at("document.querySelector('.issue-detail .milestone').textContent", milestone),
              ]),
              steps: 9,
              features: ['form'],
              mutates: true,
              network: [
                {
                  url: `${G}/${p.path}/-/issues`,
                  post_data: {
                    title,
                    description,
                    'label_name[]': label,
                    assignee_username: member,
                    milestone_title: milestone,
                  },
                },
              ],
            },
          ];
        }),
      ),
  },
  {
    id: 3009,
    key: 'tracker_oldest_open_with_label',
    site: 'gitlab',
    intent: 'What is the title of the oldest open issue labeled "{{label}}" in {{project}}?',
    tier: 2,
    instances: (w) =>
      w.tracker.projects.flatMap((p) =>
        p.labels.flatMap((label): Instance[] => {
          const [a, b] = issuesOf(w.tracker, p, { labels: [label], sort: 'created_asc' });
          if (!a || (b && b.createdDay === a.createdDay)) return [];
          return [
            {
              dict: { label, project: p.path },
              start_url: `${G}/${p.path}`,
              eval: stringMatch({ must_include: [a.title] }, a.title),
              steps: 4,
              evidence: [issueUrl(a)],
            },
          ];
        }),
      ),
  },
  {
    id: 3010,
    key: 'tracker_close_all_with_label',
    site: 'gitlab',
    intent: 'Close every open issue labeled "{{label}}" in {{project}}',
    tier: 3,
    instances: (w) =>
      w.tracker.projects.flatMap((p) =>
        p.labels.flatMap((label): Instance[] => {
          const open = issuesOf(w.tracker, p, { labels: [label] });
          if (open.length < 3 || open.length > 6) return [];
          return [
            {
              dict: { label, project: p.path },
              start_url: `${G}/${p.path}`,
              eval: programHtml(
                open.map((i) => ({
                  url: issueUrl(i),
                  locator: STATE_LOCATOR,
                  required_contents: { exact_match: 'Closed' },
                })),
              ),
              // issues, label filter; per issue: open, close, back via its label link (not after the last); stop
              steps: 2 + 3 * open.length,
              features: ['backtracking'],
              mutates: true,
              network: open.map((i) => ({ url: `${issueUrl(i)}/close`, post_data: {}, several: true })),
            },
          ];
        }),
      ),
  },
  {
    id: 3011,
    key: 'tracker_my_open_issues',
    site: 'gitlab',
    intent: 'List the titles of the open issues assigned to me in {{project}}',
    tier: 2,
    instances: (w) =>
      w.tracker.projects.flatMap((p): Instance[] => {
        const mine = issuesOf(w.tracker, p, { assignee: TRACKER_USER });
        if (mine.length === 0 || mine.length > 8) return [];
        return [
          {
            dict: { project: p.path },
            start_url: G,
            eval: stringMatch(
              { must_include: mine.map((i) => i.title) },
              mine.map((i) => i.title).join('; '),
            ),
            steps: 4,
            evidence: [`${G}/${p.path}/-/issues?assignee_username=${TRACKER_USER}`],
          },
        ];
      }),
  },
  {
    id: 3012,
    key: 'tracker_issue_labels',
    site: 'gitlab',
    intent: 'What labels does the issue "{{title}}" in {{project}} have?',
    tier: 1,
    instances: (w) =>
      w.tracker.projects.flatMap((p) =>
        issuesOf(w.tracker, p).flatMap((i, idx): Instance[] => {
          if (i.labels.length === 0) return [];
          const page = pageOf(idx, ISSUES_PAGE_SIZE);
          return [
            {
              dict: { title: i.title, project: p.path },
              start_url: `${G}/${p.path}/-/issues`,
              eval: stringMatch({ must_include: i.labels }, i.labels.join(', ')),
              steps: page > 1 ? 2 : 1,
              features: page > 1 ? ['second-page'] : [],
              evidence: [issueUrl(i)],
            },
          ];
        }),
      ),
  },
  {
    id: 3013,
    key: 'tracker_compare_label_across_projects',
    site: 'gitlab',
    intent:
      'Among the projects {{p1}}, {{p2}}, {{p3}} and {{p4}}, which has the most open issues labeled "{{label}}"?',
    tier: 3,
    instances: (w, rng) => {
      const out: Instance[] = [];
      const seen = new Set<string>();
      for (let tries = 0; tries < 400 && out.length < 40; tries++) {
        const ps = rng.sample(w.tracker.projects, 4);
        const shared = ps.reduce<string[]>(
          (acc, p) => acc.filter((l) => p.labels.includes(l)),
          ps[0]?.labels ?? [],
        );
        if (shared.length === 0) continue;
        const label = rng.pick(shared);
        const key = `${ps.map((p) => p.path).join(',')}|${label}`;
        if (seen.has(key)) continue;
        seen.add(key);
        const counts = ps.map((p) => issuesOf(w.tracker, p, { labels: [label] }).length);
        const max = Math.max(...counts);
        if (counts.filter((c) => c === max).length !== 1) continue;
        const best = ps[counts.indexOf(max)] as Project;
        const [p1, p2, p3, p4] = ps.map((p) => p.path) as [string, string, string, string];
        out.push({
          dict: { p1, p2, p3, p4, label },
          start_url: G,
          eval: stringMatch({ must_include: [best.path] }, best.path),
          // per project: open it, its Labels page, back to Projects (not after the last); answer
          steps: 3 * 4,
          features: ['facts-on-several-pages', 'backtracking'],
        });
      }
      return out;
    },
  },
];
