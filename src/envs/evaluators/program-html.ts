import type { Page } from 'playwright-core';
import { htmlUnescape, pyStr } from '../python.js';
import type { ProgramHtmlTarget } from '../tasks/schema.js';
import { cleanAnswer, exactMatch, mustInclude } from './string-match.js';
import { Unscorable } from './verdict.js';

/**
 * A WebArena helper named in a "func:" url or locator. Gets the live page and the call's
 * arguments (strings, with __last_url__ already replaced); returns a URL or the selected text.
 */
export type ProgramHtmlHelper = (page: Page, args: string[]) => Promise<string>;
export type ProgramHtmlHelpers = Readonly<Record<string, ProgramHtmlHelper>>;

/** WebArena's reddit_get_post_url: the canonical post URL of a post or comment URL. */
export function redditGetPostUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url;
  }
  const tok = parsed.pathname.split('/');
  if (tok.length < 4 || tok[1] !== 'f') return url;
  return `${parsed.protocol}//${parsed.host}/f/${tok[2]}/${tok[3]}/`;
}

/** WebArena's gitlab_get_project_memeber_role (sic): the role shown next to @account on a members page. */
async function gitlabGetProjectMemberRole(page: Page, args: string[]): Promise<string> {
  const account = args[0] ?? '';
  try {
    // Browser-side code as a string: this project compiles without the DOM library.
    const role: unknown = await page.evaluate(`((name) => {
      const els = document.querySelectorAll("td[data-label='Account'] span.gl-avatar-labeled-sublabel");
      let index = -1;
      for (let i = 0; i < els.length; i++) {
        if (els[i].outerText === '@' + name) { index = i; break; }
      }
      return document.querySelectorAll('td.col-max-role span')[index].outerText;
    })(${JSON.stringify(account)})`);
    return pyStr(role);
  } catch {
    return '';
  }
}

/** Helpers that need only the page. The Magento ones need admin REST credentials: pass them in. */
export const BUILTIN_HELPERS: ProgramHtmlHelpers = {
  reddit_get_post_url: async (_page, args) => redditGetPostUrl(args[0] ?? ''),
  gitlab_get_project_memeber_role: gitlabGetProjectMemberRole,
};

interface FuncCall {
  name: string;
  args: string[];
  usesPage: boolean;
}

/** Parses `name(__page__, 'a', "b")` — WebArena's helpers take only string literals and the page. */
function parseFunc(src: string): FuncCall {
  const m = /^\s*([A-Za-z_]\w*)\s*\((.*)\)\s*$/s.exec(src);
  if (!m) throw new Error(`cannot parse helper call ${JSON.stringify(src)}`);
  const args: string[] = [];
  let usesPage = false;
  const argRe = /\s*(?:'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)"|(__page__|page))\s*(?:,|$)/gy;
  const body = m[2] ?? '';
  let pos = 0;
  while (pos < body.length) {
    argRe.lastIndex = pos;
    const a = argRe.exec(body);
    if (!a) throw new Error(`cannot parse helper arguments ${JSON.stringify(body)}`);
    if (a[3]) usesPage = true;
    else args.push((a[1] ?? a[2] ?? '').replace(/\\(.)/g, '$1'));
    pos = argRe.lastIndex;
  }
  return { name: m[1]!, args, usesPage };
}

async function callHelper(src: string, page: Page, helpers: ProgramHtmlHelpers): Promise<string> {
  const call = parseFunc(src);
  const helper = helpers[call.name] ?? BUILTIN_HELPERS[call.name];
  if (!helper) throw new Unscorable(`helper ${call.name} is not configured (it needs the site's admin API)`);
  return helper(page, call.args);
}

export interface ProgramHtmlOptions {
  helpers?: ProgramHtmlHelpers;
  /** Cap on navigating to a target URL and waiting for it to settle (WebArena sleeps 3 s). */
  navigationTimeoutMs?: number;
  /**
   * Waits for a target page to settle after navigating; default: load, then Playwright's
   * networkidle (500 ms without requests). The env passes its own quiet-network wait (50 ms), which
   * took ≈1.1 s off scoring a MiniArena action task.
   */
  settle?: (page: Page, capMs: number) => Promise<void>;
}

export interface TargetResult {
  score: number;
  why: string;
}

/**
 * WebArena runs page.evaluate(f"() => {js}"); Playwright for Python calls a function given as a
 * string, playwright-core for Node only returns it, so wrap it in a call.
 */
function asCall(js: string): string {
  return `(() => ${js}\n)()`;
}

async function settle(page: Page, capMs: number): Promise<void> {
  await page.waitForLoadState('load', { timeout: capMs }).catch(() => {});
  await page.waitForLoadState('networkidle', { timeout: Math.min(capMs, 3000) }).catch(() => {});
}

async function selectContent(
  page: Page,
  target: ProgramHtmlTarget,
  opts: ProgramHtmlOptions,
): Promise<string> {
  const helpers = opts.helpers ?? {};
  const cap = opts.navigationTimeoutMs ?? 15_000;
  let url = target.url;
  if (url.startsWith('func')) {
    url = await callHelper(url.split('func:')[1]!.replaceAll('__last_url__', page.url()), page, helpers);
  }
  if (url !== 'last') {
    await page.goto(url, { timeout: cap, waitUntil: 'commit' });
    await (opts.settle ?? settle)(page, cap);
  }
  const locator = target.locator;
  if (!locator.trim()) return page.content();
  if (locator.startsWith('document.') || locator.startsWith('[...document.')) {
    for (const prep of target.prep_actions ?? []) {
      // WebArena ignores prep failures and stops at the first one.
      try {
        await page.evaluate(asCall(prep));
      } catch {
        break;
      }
    }
    try {
      const v: unknown = await page.evaluate(asCall(locator));
      return pyStr(v);
    } catch {
      return '';
    }
  }
  if (locator.startsWith('func:'))
    return callHelper(locator.split('func:')[1]!.replaceAll('__page__', 'page'), page, helpers);
  throw new Error(`Unknown locator: ${locator}`);
}

/** One program_html target on the live page (navigating when its url is not "last"). */
export async function programHtmlTarget(
  page: Page,
  target: ProgramHtmlTarget,
  opts: ProgramHtmlOptions = {},
): Promise<TargetResult> {
  const selected = htmlUnescape(await selectContent(page, target, opts));
  const where = `${target.url === 'last' ? 'last page' : target.url}${target.locator ? ` ${target.locator.slice(0, 60)}` : ' (full html)'}`;
  const rc = target.required_contents;
  if ('exact_match' in rc) {
    const s = exactMatch(rc.exact_match, selected);
    return {
      score: s,
      why: `${where}: ${JSON.stringify(cleanAnswer(selected).slice(0, 80))} ${s ? 'equals' : 'differs from'} ${JSON.stringify(rc.exact_match)}`,
    };
  }
  let score = 1;
  const missing: string[] = [];
  for (const content of rc.must_include) {
    const ok = content.split(' |OR| ').some((alt) => mustInclude(alt, selected, false) === 1);
    if (!ok) missing.push(content);
    score *= ok ? 1 : 0;
  }
  return {
    score,
    why: missing.length
      ? `${where}: missing ${missing.map((m) => JSON.stringify(m)).join(', ')}`
      : `${where}: includes all ${rc.must_include.length} required`,
  };
}

/** WebArena's HTMLContentEvaluator: the product over targets, in order. */
export async function programHtml(
  page: Page,
  targets: readonly ProgramHtmlTarget[],
  opts: ProgramHtmlOptions = {},
): Promise<TargetResult> {
  let score = 1;
  const notes: string[] = [];
  for (const t of targets) {
    const r = await programHtmlTarget(page, t, opts);
    score *= r.score;
    notes.push(r.why);
  }
  return { score, why: notes.join('; ') };
}
