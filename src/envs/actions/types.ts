/**
 * Every action the env executes: WebArena's action space plus TTI's Wait and element scroll, and
 * BrowserGym's select_option, drag_and_drop, mouse_click, mouse_drag_and_drop and mouse_down / move /
 * up (for pages a click on an element cannot do: a sortable list, a slider, a point on a drawing, a
 * freehand stroke).
 */
export type Action =
  | { type: 'click'; elementId: string }
  | { type: 'hover'; elementId: string }
  /** WebArena types without clearing; TTI's Type clears the field first. */
  | { type: 'type'; elementId: string; text: string; pressEnter: boolean; clearFirst: boolean }
  /** BrowserGym's select_option: choose the option of a <select> whose text (or value) is `option`. */
  | { type: 'select_option'; elementId: string; option: string }
  | { type: 'press'; keyComb: string }
  /** BrowserGym's drag_and_drop: press on one element's centre, move to the other's, release. */
  | { type: 'drag'; fromId: string; toId: string }
  /** BrowserGym's mouse_click: a click at a point of the page (CSS pixels from the viewport's top left). */
  | { type: 'mouse_click'; x: number; y: number }
  /** BrowserGym's mouse_drag_and_drop: press at one point, move to another, release. */
  | { type: 'mouse_drag'; fromX: number; fromY: number; toX: number; toY: number }
  /**
   * BrowserGym's mouse_down, mouse_move and mouse_up at a point: a press held over later steps, so
   * a stroke can pass through as many points as the agent chooses (a freehand shape).
   */
  | { type: 'mouse_down' | 'mouse_move' | 'mouse_up'; x: number; y: number }
  /** WebArena scrolls the window by a page; TTI by 2/3 of it, or the element under the mouse. */
  | { type: 'scroll'; direction: 'up' | 'down'; by: 'page' | 'two-thirds'; elementId?: string }
  | { type: 'new_tab' }
  | { type: 'tab_focus'; pageNumber: number }
  | { type: 'close_tab' }
  | { type: 'goto'; url: string }
  | { type: 'go_back' }
  | { type: 'go_forward' }
  | { type: 'wait' }
  | { type: 'stop'; answer: string }
  /** A reply that did not parse; executing it does nothing (WebArena's NONE action). */
  | { type: 'none'; error: string };

export type ActionType = Action['type'];

export type ActionFormat = 'webarena' | 'tti';

export class ActionParsingError extends Error {
  override name = 'ActionParsingError';
}

/** WebArena's is_equivalent, used by the repeated-action early stop (type compares the element only). */
export function isEquivalent(a: Action, b: Action): boolean {
  if (a.type !== b.type) return false;
  switch (a.type) {
    case 'none':
    case 'new_tab':
    case 'go_back':
    case 'go_forward':
    case 'close_tab':
    case 'wait':
      return true;
    case 'click':
    case 'hover':
    case 'type':
      return a.elementId === (b as { elementId: string }).elementId;
    case 'select_option': {
      const o = b as typeof a;
      return a.elementId === o.elementId && a.option === o.option;
    }
    case 'scroll': {
      const s = b as typeof a;
      return a.direction === s.direction && a.elementId === s.elementId;
    }
    case 'press':
      return a.keyComb === (b as typeof a).keyComb;
    case 'drag': {
      const d = b as typeof a;
      return a.fromId === d.fromId && a.toId === d.toId;
    }
    case 'mouse_click':
    case 'mouse_down':
    case 'mouse_move':
    case 'mouse_up': {
      const m = b as typeof a;
      return a.x === m.x && a.y === m.y;
    }
    case 'mouse_drag': {
      const m = b as typeof a;
      return a.fromX === m.fromX && a.fromY === m.fromY && a.toX === m.toX && a.toY === m.toY;
    }
    case 'tab_focus':
      return a.pageNumber === (b as typeof a).pageNumber;
    case 'goto':
      return a.url === (b as typeof a).url;
    case 'stop':
      return a.answer === (b as typeof a).answer;
  }
}

/** The action in WebArena's string form, for records and prompts' action history. */
export function describeAction(a: Action): string {
  switch (a.type) {
    case 'click':
    case 'hover':
      return `${a.type} [${a.elementId}]`;
    case 'type':
      return `type [${a.elementId}] [${a.text}] [${a.pressEnter ? 1 : 0}]`;
    case 'select_option':
      return `select_option [${a.elementId}] [${a.option}]`;
    case 'press':
      return `press [${a.keyComb}]`;
    case 'drag':
      return `drag [${a.fromId}] [${a.toId}]`;
    case 'mouse_click':
    case 'mouse_down':
    case 'mouse_move':
    case 'mouse_up':
      return `${a.type} [${a.x}] [${a.y}]`;
    case 'mouse_drag':
      return `mouse_drag [${a.fromX}] [${a.fromY}] [${a.toX}] [${a.toY}]`;
    case 'scroll':
      return a.elementId ? `scroll [${a.elementId}] [${a.direction}]` : `scroll [${a.direction}]`;
    case 'tab_focus':
      return `tab_focus [${a.pageNumber}]`;
    case 'goto':
      return `goto [${a.url}]`;
    case 'stop':
      return `stop [${a.answer}]`;
    case 'none':
      return `none (${a.error})`;
    default:
      return a.type;
  }
}
