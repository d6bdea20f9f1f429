// What a MiniWoB++ page needs beyond clicks and typing on its elements, read from the page itself:
// its own HTML and the scripts it loads from common/special/ (code of that page alone; the shared
// libraries in core/ and common/ are loaded by pages that never use them). No table of tasks: a
// new page is read the same way. Each need says which of the env's actions can meet it, or none.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../../config/index.js';
import type { PointerNeed } from '../suite.js';
import { resolveMiniwobTasks } from './tasks.js';

export type PageNeed = 'drag' | 'point' | 'stroke' | 'text_selection';

interface NeedRule {
  need: PageNeed;
  /** what the page does, in words, for the listing */
  what: string;
  /** the env's actions that can do it (src/envs/actions), or null: none can */
  offeredBy: string | null;
  found: (code: string) => boolean;
}

type Test = RegExp | ((code: string) => boolean);
const any =
  (...tests: Test[]) =>
  (code: string) =>
    tests.some((t) => (t instanceof RegExp ? t.test(code) : t(code)));

const DRAG = any(
  // jQuery UI's pointer widgets: a sortable list, a draggable or droppable box, a slider, a resize grip
  /\.(draggable|sortable|droppable|resizable|slider)\s*\(/,
  // d3's drag behaviour (v3 d3.behavior.drag, v4 d3.drag), or one defined elsewhere and called here
  /d3\.(behavior\.)?drag\s*\(/,
  /\.call\(\s*[\w.]*\bdrag\s*\)/,
  // the page's own press-move-release handlers
  (code: string) => /\bmousedown\b/.test(code) && /\bmousemove\b/.test(code),
);

const RULES: readonly NeedRule[] = [
  {
    need: 'drag',
    what: 'a drag (press, move, release)',
    offeredBy: 'drag [id] [id], mouse_drag [x] [y] [x] [y]',
    found: DRAG,
  },
  {
    need: 'point',
    what: "the pointer's position (a point, not an element)",
    offeredBy: 'mouse_click [x] [y]',
    found: any(/\b(pageX|pageY|clientX|clientY|offsetX|offsetY|layerX|layerY)\b/, /d3\.mouse\s*\(/),
  },
  {
    // a drag whose points the page keeps and draws as a line: a freehand shape, not a straight move
    need: 'stroke',
    what: 'a freehand stroke (a path of pointer positions)',
    offeredBy: 'mouse_down [x] [y], mouse_move [x] [y], mouse_up [x] [y]',
    found: (code) => DRAG(code) && /d3\.(svg\.)?line\s*\(/.test(code),
  },
  {
    need: 'text_selection',
    what: 'a selection of text',
    offeredBy: 'mouse_drag [x] [y] [x] [y]',
    found: any(/\.getSelection\s*\(/),
  },
];

export interface MiniwobTaskNeeds {
  /** the needs the page shows, each with what meets it */
  needs: { need: PageNeed; what: string; offeredBy: string | null }[];
  /** what no action of the env can do, in words (empty: the action set can do the task) */
  missing: string[];
}

/** The page's own code: its HTML and the scripts it loads from common/special/. */
function pageCode(htmlDir: string, name: string): string {
  const page = path.join(htmlDir, 'miniwob', `${name}.html`);
  const html = readFileSync(page, 'utf8');
  const own = [...html.matchAll(/<script[^>]*\bsrc=["']([^"']+)["']/g)]
    .map((m) => path.resolve(path.dirname(page), m[1]!))
    .filter((f) => f.includes(`${path.sep}common${path.sep}special${path.sep}`) && existsSync(f));
  return [html, ...own.map((f) => readFileSync(f, 'utf8'))].join('\n');
}

/** What one page needs, from its code. */
export function pageNeeds(code: string): MiniwobTaskNeeds {
  const needs = RULES.filter((r) => r.found(code)).map(({ need, what, offeredBy }) => ({
    need,
    what,
    offeredBy,
  }));
  return { needs, missing: needs.filter((n) => n.offeredBy === null).map((n) => n.what) };
}

/** The needs of each task of a local html/ folder. */
export function miniwobTaskNeeds(htmlDir: string, names: readonly string[]): Map<string, MiniwobTaskNeeds> {
  return new Map(names.map((name) => [name, pageNeeds(pageCode(path.resolve(htmlDir), name))]));
}

/** The pointer actions to offer on a page with these needs. */
export function pointerOffers(needs: MiniwobTaskNeeds): PointerNeed[] {
  const out: PointerNeed[] = [];
  for (const { need, offeredBy } of needs.needs)
    if (offeredBy !== null && !out.includes(need)) out.push(need);
  return out;
}

/** One line per task the action set cannot do, for logs and the eval's text output. */
export function describeMissing(needs: ReadonlyMap<string, MiniwobTaskNeeds>): string[] {
  return [...needs.entries()]
    .filter(([, n]) => n.missing.length > 0)
    .map(([name, n]) => `${name}: needs ${n.missing.join(', ')}; no action offers it`);
}

/** The needs of a run's MiniWoB++ tasks, or null when the run is not on a local MiniWoB++ folder. */
export function miniwobNeedsOfConfig(config: Config): Map<string, MiniwobTaskNeeds> | null {
  const m = config.env.miniwob;
  if (config.env.suite !== 'miniwob' || m.dir === null) return null;
  return miniwobTaskNeeds(m.dir, resolveMiniwobTasks({ dir: m.dir, url: m.url }, m.tasks));
}
