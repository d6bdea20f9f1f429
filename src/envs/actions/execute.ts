import type { Page } from 'playwright-core';
import { refusedUrl } from '../browser/navigation.js';
import type { EpisodeSession } from '../browser/session.js';
import type { ElementRef } from '../observation/ax-tree.js';
import type { Action } from './types.js';

/** An action that cannot be done on this page (unknown id, no tab 5): the episode goes on with a note. */
export class ImpossibleActionError extends Error {
  override name = 'ImpossibleActionError';
}

/**
 * How a Type action enters its text: 'keys' presses a key per character (WebArena's
 * `keyboard.type`: keydown, keypress, input, keyup for each), 'insert' enters the whole text as one
 * input event (`keyboard.insertText`), then presses Enter when asked. 'insert' is about half the
 * time of a 24-character search (69 vs 129 ms on an idle machine) and the same to a page that reads
 * its fields' values rather than their key events, as tti's embedded sites do.
 */
export type Typing = 'keys' | 'insert';

export interface ExecuteOptions {
  /** Timeout for navigations (goto, go_back, go_forward). */
  timeoutMs: number;
  /** default 'keys' */
  typing?: Typing;
}

/**
 * Picks the option whose text (trimmed) or value is `option` on a <select>, or on the <select> of an
 * <option>, and fires input and change as a person's choice would (Playwright's selectOption does
 * the same). Throws a message the env turns into a note.
 */
const SELECT_OPTION_FN = `function (wanted) {
  const select = this instanceof HTMLOptionElement ? this.closest('select') : this;
  if (!(select instanceof HTMLSelectElement)) return 'the element is not a <select> or one of its options';
  if (select.disabled) return 'the <select> is disabled';
  const options = [...select.options];
  const option = options.find((o) => o.text.trim() === wanted.trim()) ?? options.find((o) => o.value === wanted);
  if (option === undefined)
    return 'it has no option ' + JSON.stringify(wanted) + ' (options: ' + options.map((o) => JSON.stringify(o.text.trim())).join(', ') + ')';
  select.focus();
  // A <select multiple> keeps its other choices: the option is toggled, as a ctrl-click does.
  option.selected = select.multiple ? !option.selected : true;
  select.dispatchEvent(new Event('input', { bubbles: true }));
  select.dispatchEvent(new Event('change', { bubbles: true }));
  return null;
}`;

async function selectOption(
  session: EpisodeSession,
  elements: ReadonlyMap<string, ElementRef>,
  id: string,
  option: string,
): Promise<void> {
  const el = elements.get(id);
  if (!el) throw new ImpossibleActionError(`there is no element [${id}] in the current observation`);
  const client = await session.client();
  const { object } = await client.send('DOM.resolveNode', { backendNodeId: el.backendNodeId });
  if (object.objectId === undefined) throw new ImpossibleActionError(`element [${id}] is gone from the page`);
  try {
    const res = await client.send('Runtime.callFunctionOn', {
      objectId: object.objectId,
      functionDeclaration: SELECT_OPTION_FN,
      arguments: [{ value: option }],
      returnByValue: true,
    });
    const why: unknown = res.result.value;
    if (typeof why === 'string') throw new ImpossibleActionError(`element [${id}]: ${why}`);
  } finally {
    await client.send('Runtime.releaseObject', { objectId: object.objectId }).catch(() => {});
  }
}

function center(elements: ReadonlyMap<string, ElementRef>, id: string): { x: number; y: number } {
  const el = elements.get(id);
  if (!el) throw new ImpossibleActionError(`there is no element [${id}] in the current observation`);
  if (!el.bounds) throw new ImpossibleActionError(`element [${id}] has no position on the page`);
  const [x, y, w, h] = el.bounds;
  return { x: x + w / 2, y: y + h / 2 };
}

/**
 * Brings an element into view when its centre is hidden (a list item scrolled out of its list's
 * box, a row below the fold), as BrowserGym's and Playwright's click do, and returns its centre
 * then (`point`); null when the centre is in view already (nothing moves; a cover over it stays
 * the page's). `fading` when what covers the centre is fading (opacity under 1) or the page
 * animates: a picker that fades out over a button after a choice takes the click during its fade.
 */
const REVEAL_FN = `function () {
  const el = this.nodeType === 1 ? this : this.parentElement;
  if (el === null) return null;
  const at = () => { const b = el.getBoundingClientRect(); return [b.left + b.width / 2, b.top + b.height / 2]; };
  const inside = (x, y, b) => x >= b.left && x < b.right && y >= b.top && y < b.bottom;
  const hidden = (x, y) => {
    if (!inside(x, y, { left: 0, top: 0, right: innerWidth, bottom: innerHeight })) return true;
    for (let a = el.parentElement; a !== null && a !== document.body; a = a.parentElement) {
      const style = getComputedStyle(a);
      const clips = style.overflowY !== 'visible' || style.overflowX !== 'visible' || a instanceof HTMLSelectElement;
      if (clips && !inside(x, y, a.getBoundingClientRect())) return true;
    }
    return false;
  };
  const fading = (x, y) => {
    const hit = document.elementFromPoint(x, y);
    if (hit === null || el.contains(hit) || hit.contains(el)) return false;
    if (document.getAnimations().length > 0) return true;
    for (let a = hit; a !== null && a !== document.body; a = a.parentElement)
      if (Number(getComputedStyle(a).opacity) < 1) return true;
    return false;
  };
  let [x, y] = at();
  const moved = hidden(x, y);
  if (moved) {
    el.scrollIntoView({ block: 'nearest', inline: 'nearest' });
    [x, y] = at();
  }
  return { point: moved ? [x, y] : null, fading: fading(x, y) };
}`;
/**
 * Scrolls the window by `share` of its height, up (-1) or down (1); a page that cannot scroll that
 * way but keeps its content in a scroll box of its own (a results list with overflow: auto) scrolls
 * the largest such box in view instead, by `share` of the box's height, as a wheel over it would.
 */
const SCROLL_FN = `function (dir, share) {
  const can = (el) => dir > 0 ? el.scrollTop + el.clientHeight < el.scrollHeight - 1 : el.scrollTop > 0;
  const page = document.scrollingElement || document.body;
  if (can(page)) { page.scrollTop = page.scrollTop + dir * innerHeight * share; return; }
  let best = null;
  let area = 0;
  for (const el of document.querySelectorAll('*')) {
    if (el === page || el.scrollHeight <= el.clientHeight + 1 || !can(el)) continue;
    const style = getComputedStyle(el);
    if (style.overflowY !== 'auto' && style.overflowY !== 'scroll') continue;
    const r = el.getBoundingClientRect();
    const w = Math.max(0, Math.min(r.right, innerWidth) - Math.max(r.left, 0));
    const h = Math.max(0, Math.min(r.bottom, innerHeight) - Math.max(r.top, 0));
    if (w * h > area) { best = el; area = w * h; }
  }
  if (best !== null) best.scrollTop = best.scrollTop + dir * best.clientHeight * share;
}`;

/** Calls `fn` on element `id` in the page and returns its value; undefined when that cannot be done. */
async function callOn(
  session: EpisodeSession,
  elements: ReadonlyMap<string, ElementRef>,
  id: string,
  fn: string,
): Promise<unknown> {
  const el = elements.get(id);
  if (!el) return undefined;
  try {
    const client = await session.client();
    const { object } = await client.send('DOM.resolveNode', { backendNodeId: el.backendNodeId });
    if (object.objectId === undefined) return undefined;
    try {
      const res = await client.send('Runtime.callFunctionOn', {
        objectId: object.objectId,
        functionDeclaration: fn,
        returnByValue: true,
      });
      return res.result.value;
    } finally {
      // not waited for: the session runs its commands in order, and nothing here needs the answer
      void client.send('Runtime.releaseObject', { objectId: object.objectId }).catch(() => {});
    }
  } catch {
    // the page moved on under us: the caller does as the observation says
    return undefined;
  }
}

/** The point a click on element `id` goes to: its centre, after scrolling it into view if it is hidden there. */
async function clickPoint(
  session: EpisodeSession,
  elements: ReadonlyMap<string, ElementRef>,
  id: string,
): Promise<{ x: number; y: number }> {
  const c = center(elements, id);
  let point = c;
  // A fading cover is waited out, within a bound; a cover that stays takes the click, as on the page.
  for (let waited = 0; ; waited += FADE_POLL_MS) {
    const v = (await callOn(session, elements, id, REVEAL_FN)) as
      | { point: unknown; fading: unknown }
      | undefined;
    if (Array.isArray(v?.point) && v.point.length === 2)
      point = { x: Number(v.point[0]), y: Number(v.point[1]) };
    if (v?.fading !== true || waited >= FADE_WAIT_MS) return point;
    await new Promise((r) => setTimeout(r, FADE_POLL_MS));
  }
}

/** How long a click waits for a cover fading over its target (jQuery's slow fade is 600 ms). */
const FADE_WAIT_MS = 1500;
const FADE_POLL_MS = 50;

/** A field where Enter adds a line (a <textarea>, an editable block) rather than submitting. */
const MULTILINE_FN = `function () {
  const el = this.nodeType === 1 ? this : this.parentElement;
  return el !== null && (el instanceof HTMLTextAreaElement || el.isContentEditable);
}`;

/**
 * Where a drag onto an element lets go: past the target's centre by a quarter of its size, in the
 * direction of travel (still inside it). A sortable list swaps two equal items only once the
 * pointer is beyond the other's middle: released exactly at its centre, nothing moves.
 */
function dropPoint(
  elements: ReadonlyMap<string, ElementRef>,
  fromId: string,
  toId: string,
): { x: number; y: number } {
  const from = center(elements, fromId);
  const to = center(elements, toId);
  const [, , w, h] = elements.get(toId)!.bounds!;
  return { x: to.x + (Math.sign(to.x - from.x) * w) / 4, y: to.y + (Math.sign(to.y - from.y) * h) / 4 };
}

/** Mouse moves between press and release: drag libraries (jQuery UI's sortable, d3's drag) follow mousemove events, not the jump. */
const DRAG_STEPS = 20;

/** BrowserGym's drag_and_drop: to the start, press, move there in steps, release. */
async function dragBetween(
  page: Page,
  from: { x: number; y: number },
  to: { x: number; y: number },
): Promise<void> {
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move(to.x, to.y, { steps: DRAG_STEPS });
  await page.mouse.up();
}

/**
 * Executes an action as WebArena does: mouse events at the centre of the element's box from the
 * observation, keyboard typing without clearing (TTI's Type clears first), window scroll by
 * innerHeight (TTI: 2/3 of it). Stop and none do nothing here.
 */
export async function executeAction(
  session: EpisodeSession,
  elements: ReadonlyMap<string, ElementRef>,
  action: Action,
  opts: ExecuteOptions,
): Promise<void> {
  const page = session.current;
  switch (action.type) {
    case 'click': {
      const c = await clickPoint(session, elements, action.elementId);
      await page.mouse.click(c.x, c.y);
      return;
    }
    case 'hover': {
      const c = center(elements, action.elementId);
      await page.mouse.move(c.x, c.y);
      return;
    }
    case 'type': {
      const c = await clickPoint(session, elements, action.elementId);
      await page.mouse.click(c.x, c.y);
      // TTI's Type (clear, type, Enter) always presses Enter: in a multi-line field that adds a line
      // to the text rather than submitting it (a reply's body), so there it is left out.
      const enter =
        action.pressEnter &&
        !(action.clearFirst && (await callOn(session, elements, action.elementId, MULTILINE_FN)) === true);
      if (action.clearFirst) {
        await page.keyboard.press('ControlOrMeta+A');
        await page.keyboard.press('Backspace');
      }
      if (opts.typing === 'insert') {
        if (action.text !== '') await page.keyboard.insertText(action.text);
        if (enter) await page.keyboard.press('Enter');
        return;
      }
      // keyboard.type turns "\n" into Enter, as WebArena's appended newline does.
      await page.keyboard.type(enter ? `${action.text}\n` : action.text);
      return;
    }
    case 'select_option':
      await selectOption(session, elements, action.elementId, action.option);
      return;
    case 'drag':
      await dragBetween(
        page,
        center(elements, action.fromId),
        dropPoint(elements, action.fromId, action.toId),
      );
      return;
    case 'mouse_click':
      await page.mouse.click(action.x, action.y);
      return;
    case 'mouse_drag':
      await dragBetween(page, { x: action.fromX, y: action.fromY }, { x: action.toX, y: action.toY });
      return;
    case 'mouse_down':
      await page.mouse.move(action.x, action.y);
      await page.mouse.down();
      return;
    case 'mouse_move':
      // in steps, as a hand moves: a page that draws the pointer's path sees the points between
      await page.mouse.move(action.x, action.y, { steps: 5 });
      return;
    case 'mouse_up':
      await page.mouse.move(action.x, action.y, { steps: 5 });
      await page.mouse.up();
      return;
    case 'press': {
      let key = action.keyComb;
      if (key.includes('Meta')) {
        const platform = String(await page.evaluate('navigator.platform'));
        if (!platform.includes('Mac')) key = key.replaceAll('Meta', 'Control');
      }
      await page.keyboard.press(key);
      return;
    }
    case 'scroll': {
      if (action.elementId) {
        const c = center(elements, action.elementId);
        await page.mouse.move(c.x, c.y);
        const h = Number(await page.evaluate('window.innerHeight'));
        await page.mouse.wheel(0, ((action.direction === 'up' ? -1 : 1) * h * 2) / 3);
        return;
      }
      await page.evaluate(
        `(${SCROLL_FN})(${action.direction === 'up' ? -1 : 1}, ${action.by === 'page' ? 1 : 2 / 3})`,
      );
      return;
    }
    case 'new_tab': {
      const p = await session.context.newPage();
      session.current = p;
      return;
    }
    case 'tab_focus': {
      const p = session.pages()[action.pageNumber];
      if (!p)
        throw new ImpossibleActionError(
          `there is no tab ${action.pageNumber} (${session.pages().length} open)`,
        );
      session.current = p;
      await p.bringToFront();
      return;
    }
    case 'close_tab': {
      await page.close();
      const left = session.pages();
      session.current = left.length > 0 ? left[left.length - 1]! : await session.context.newPage();
      if (left.length > 0) await session.current.bringToFront();
      return;
    }
    case 'goto': {
      // The driver's own navigation passes no Chromium check of the page's: refuse file: and the like.
      const refused = refusedUrl(action.url);
      if (refused !== null) throw new ImpossibleActionError(`goto refused: ${refused}`);
      await page.goto(action.url, { timeout: opts.timeoutMs });
      return;
    }
    case 'go_back':
      await page.goBack({ timeout: opts.timeoutMs });
      return;
    case 'go_forward':
      await page.goForward({ timeout: opts.timeoutMs });
      return;
    case 'wait':
    case 'stop':
    case 'none':
      return;
  }
}
