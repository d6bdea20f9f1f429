import type { SeededRandom } from '../../../util/index.js';
import { dayOf } from '../../format.js';
import {
  FIRST_NAMES,
  ISSUE_COMMENTS,
  ISSUE_COMPONENTS,
  ISSUE_PATTERNS,
  LABELS,
  LAST_NAMES,
  PROJECT_NAMES,
  PROJECT_NAMESPACES,
  type ROLES,
} from '../../words.js';

export type Role = (typeof ROLES)[number];
export interface TrackerUser {
  username: string;
  name: string;
  password: string;
}
export interface Milestone {
  id: number;
  title: string;
  due: string;
  state: 'active' | 'closed';
  description: string;
}
export interface Project {
  path: string;
  namespace: string;
  name: string;
  description: string;
  members: Array<{ username: string; role: Role }>;
  labels: string[];
  milestones: Milestone[];
  nextIid: number;
}
export interface Note {
  author: string;
  body: string;
  day: number;
}
export interface Issue {
  project: string;
  iid: number;
  title: string;
  body: string;
  state: 'opened' | 'closed';
  labels: string[];
  milestone: string | null;
  assignee: string | null;
  author: string;
  createdDay: number;
  updatedDay: number;
  notes: Note[];
}
export interface TrackerState {
  users: TrackerUser[];
  projects: Project[];
  issues: Issue[];
  /** Logical clock (days since the epoch) for run-time changes. */
  today: number;
}

export const TRACKER_USER = 'byteblaze';
export const TRACKER_PASSWORD = 'hello1234';
export const ISSUES_PAGE_SIZE = 20;

export function generateTracker(rng: SeededRandom): TrackerState {
  const unames = new Set<string>();
  while (unames.size < 40) {
    const f = rng.pick(FIRST_NAMES);
    const l = rng.pick(LAST_NAMES);
    unames.add(`${f.toLowerCase()}.${l.toLowerCase()}`);
  }
  const users: TrackerUser[] = [
    { username: TRACKER_USER, name: 'Byte Blaze', password: TRACKER_PASSWORD },
    ...[...unames].map((u) => {
      const [f = '', l = ''] = u.split('.');
      return {
        username: u,
        name: `${f[0]?.toUpperCase()}${f.slice(1)} ${l[0]?.toUpperCase()}${l.slice(1)}`,
        password: `pw-${u}`,
      };
    }),
  ];
  const others = users.slice(1).map((u) => u.username);
  const projects: Project[] = [];
  const issues: Issue[] = [];
  const names = rng.sample(PROJECT_NAMES, 10);
  const start = dayOf('2022-03-01');
  names.forEach((name, i) => {
    const namespace = i < 3 ? TRACKER_USER : rng.pick(PROJECT_NAMESPACES.slice(1));
    const members: Project['members'] = [];
    const ownerIsMe = namespace === TRACKER_USER;
    if (ownerIsMe || rng.chance(0.7))
      members.push({
        username: TRACKER_USER,
        role: ownerIsMe ? 'Owner' : rng.pick(['Developer', 'Maintainer', 'Reporter'] as const),
      });
    for (const u of rng.sample(others, rng.int(5, 10)))
      members.push({
        username: u,
        role: rng.pick(['Guest', 'Reporter', 'Developer', 'Developer', 'Maintainer'] as const),
      });
    if (!members.some((m) => m.role === 'Owner') && members[1]) members[1].role = 'Owner';
    const labels = rng.sample(LABELS, rng.int(6, 9)).sort();
    const nm = rng.int(3, 4);
    const milestones: Milestone[] = Array.from({ length: nm }, (_, k) => {
      const due = start + 120 + k * rng.int(60, 120);
      return {
        id: i * 10 + k + 1,
        title: rng.chance(0.5) ? `v${1 + Math.floor(k / 2)}.${(k % 2) * 5}` : `Sprint ${10 + k * 2 + i}`,
        due: new Date(due * 86_400_000).toISOString().slice(0, 10),
        state: k < nm - 2 ? 'closed' : 'active',
        description: `Goals for ${name}: ${rng.pick(ISSUE_COMPONENTS)} and ${rng.pick(ISSUE_COMPONENTS)}.`,
      };
    });
    const project: Project = {
      path: `${namespace}/${name}`,
      namespace,
      name,
      description: `${name.replace(/-/g, ' ')} — ${rng.pick(['a small utility', 'an experimental service', 'a community project', 'an internal tool'])} maintained by ${namespace}.`,
      members,
      labels,
      milestones,
      nextIid: 1,
    };
    projects.push(project);
    const n = rng.int(30, 58);
    const titles = new Set<string>();
    let day = start;
    for (let k = 0; k < n; k++) {
      let title = '';
      for (let tries = 0; tries < 30 && !title; tries++) {
        const t = rng.pick(ISSUE_PATTERNS).replace('{c}', rng.pick(ISSUE_COMPONENTS));
        const cap = `${t[0]?.toUpperCase()}${t.slice(1)}`;
        if (!titles.has(cap)) title = cap;
      }
      if (!title) continue;
      titles.add(title);
      day += rng.int(0, 14);
      const memberNames = members.map((m) => m.username);
      const nn = rng.int(0, 4);
      const notes: Note[] = [];
      let nd = day;
      for (let c = 0; c < nn; c++) {
        nd += rng.int(0, 10);
        notes.push({ author: rng.pick(memberNames), body: rng.pick(ISSUE_COMMENTS), day: nd });
      }
      const ms = rng.chance(0.65) ? rng.pick(milestones) : null;
      issues.push({
        project: project.path,
        iid: project.nextIid++,
        title,
        body: `${rng.pick(['Steps to reproduce are in the thread below.', 'Reported by a user on the forum.', 'Noticed while reviewing the last release.', 'This would make onboarding easier.'])} Affects the ${rng.pick(ISSUE_COMPONENTS)}.`,
        state: rng.chance(ms?.state === 'closed' ? 0.85 : 0.35) ? 'closed' : 'opened',
        labels: rng.sample(labels, rng.chance(0.15) ? 0 : rng.int(1, 3)).sort(),
        milestone: ms?.title ?? null,
        assignee: rng.chance(0.75) ? rng.pick(memberNames) : null,
        author: rng.pick(memberNames),
        createdDay: day,
        updatedDay: Math.max(day, nd),
        notes,
      });
    }
  });
  return { users, projects, issues, today: dayOf('2024-03-01') };
}

export type IssueSort = 'created_desc' | 'created_asc' | 'updated_desc';

export interface IssueFilter {
  state: 'opened' | 'closed' | 'all';
  labels: string[];
  milestone: string | null;
  assignee: string | null;
  author: string | null;
  search: string;
  sort: IssueSort;
}

export function filterIssues(issues: Issue[], f: IssueFilter): Issue[] {
  const s = f.search.trim().toLowerCase();
  const out = issues.filter(
    (i) =>
      (f.state === 'all' || i.state === f.state) &&
      f.labels.every((l) => i.labels.includes(l)) &&
      (f.milestone === null || i.milestone === f.milestone) &&
      (f.assignee === null || i.assignee === f.assignee) &&
      (f.author === null || i.author === f.author) &&
      (!s || i.title.toLowerCase().includes(s)),
  );
  if (f.sort === 'created_asc') return out.sort((a, b) => a.createdDay - b.createdDay || a.iid - b.iid);
  if (f.sort === 'updated_desc') return out.sort((a, b) => b.updatedDay - a.updatedDay || b.iid - a.iid);
  return out.sort((a, b) => b.createdDay - a.createdDay || b.iid - a.iid);
}
