import type { CDPSession, Page } from 'playwright-core';
import {
  type ElementRef,
  fetchAxTree,
  type ObservationNode,
  renderAxTree,
  type TreeOptions,
} from './ax-tree.js';
import { screenshotWithMarks } from './set-of-marks.js';

export interface ObservationOptions extends TreeOptions {
  /** Cap on the tree text in characters; longer trees are cut at a line with a visible marker. 0 = no cap. */
  maxChars?: number;
  /** Take a JPEG screenshot of the viewport. */
  screenshot?: boolean;
  /** Draw boxes with ids over interactive elements on the screenshot. */
  setOfMarks?: boolean;
  jpegQuality?: number;
}

export interface Observation {
  /** WebArena's text: the tab header, a blank line, the tree. */
  text: string;
  /** "Tab 0 (current): title | Tab 1: title". */
  tabs: string;
  tree: string;
  url: string;
  nodes: ObservationNode[];
  /** Notes for the agent about its last action (an invalid action, "check again"). */
  notes: string[];
  truncated: boolean;
  screenshot?: Buffer;
}

/** An observation plus what its ids point at; the ids are valid until the next observation. */
export interface ObservationWithElements {
  observation: Observation;
  elements: Map<string, ElementRef>;
}

export const TRUNCATION_MARKER = '[… observation truncated:';

/**
 * The observed document was still loading: Chrome marks the tree's root busy (an empty "Loading …"
 * page while a submitted form's navigation is under way).
 */
export function stillLoading(observation: Pick<Observation, 'nodes'>): boolean {
  const root = observation.nodes.find((n) => n.role === 'RootWebArea');
  return root !== undefined && (root.properties.busy === '1' || root.properties.busy === 'True');
}

/** WebArena's tab header; titles that cannot be read degrade to "Tab i". */
export async function tabHeader(pages: readonly Page[], current: Page): Promise<string> {
  try {
    const titles = await Promise.all(pages.map((p) => p.title()));
    return titles
      .map((t, i) => (pages[i] === current ? `Tab ${i} (current): ${t}` : `Tab ${i}: ${t}`))
      .join(' | ');
  } catch {
    return pages.map((_, i) => `Tab ${i}`).join(' | ');
  }
}

export function truncateTree(tree: string, maxChars: number): { tree: string; truncated: boolean } {
  if (!maxChars || tree.length <= maxChars) return { tree, truncated: false };
  const lines = tree.split('\n');
  let used = 0;
  let shown = 0;
  for (const line of lines) {
    if (used + line.length + 1 > maxChars) break;
    used += line.length + 1;
    shown += 1;
  }
  const marker = `${TRUNCATION_MARKER} ${shown} of ${lines.length} lines shown …]`;
  return { tree: [...lines.slice(0, shown), marker].join('\n'), truncated: true };
}

/** Observes the current page the way WebArena's accessibility-tree processor does. */
export async function observe(
  page: Page,
  client: CDPSession,
  opts: ObservationOptions = {},
): Promise<ObservationWithElements> {
  // The screen size only matters to viewport pruning (WebArena's window bounds): no round trip otherwise.
  const win = opts.currentViewportOnly
    ? ((await page.evaluate('({ width: window.screen.width, height: window.screen.height })')) as {
        width: number;
        height: number;
      })
    : { width: 0, height: 0 };
  const [tabs, nodes] = await Promise.all([
    tabHeader(page.context().pages(), page),
    fetchAxTree(client, win, opts),
  ]);
  const rendered = renderAxTree(nodes, opts);
  const { tree, truncated } = truncateTree(rendered.text, opts.maxChars ?? 0);
  const observation: Observation = {
    text: `${tabs}\n\n${tree}`,
    tabs,
    tree,
    url: page.url(),
    nodes: rendered.nodes,
    notes: [],
    truncated,
  };
  if (opts.screenshot || opts.setOfMarks) {
    observation.screenshot = await screenshotWithMarks(
      page,
      opts.setOfMarks ? rendered.nodes : [],
      opts.jpegQuality ?? 80,
    );
  }
  return { observation, elements: rendered.elements };
}
