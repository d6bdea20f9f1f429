import { type Action, ActionParsingError } from './types.js';

const SUMMARY = 'In summary, the next action I will perform is';

/** A point of the page in brackets, "[x] [y]" (CSS pixels, decimals allowed). */
const POINT = String.raw`\[(\d+(?:\.\d+)?)\] ?\[(\d+(?:\.\d+)?)\]`;

/** WebArena's create_id_based_action: one action line in WebArena's string form. */
export function parseWebArenaAction(actionStr: string): Action {
  let s = actionStr.trim();
  if (!s) throw new ActionParsingError('Invalid action: empty');
  const keyword = s.includes('[') ? s.split('[')[0]!.trim() : s.split(/\s+/)[0]!.trim();
  const need = (re: RegExp): RegExpExecArray => {
    const m = re.exec(s);
    if (!m) throw new ActionParsingError(`Invalid ${keyword} action ${s}`);
    return m;
  };
  switch (keyword) {
    case 'click':
      return { type: 'click', elementId: need(/click ?\[(\d+)\]/)[1]! };
    case 'hover':
      return { type: 'hover', elementId: need(/hover ?\[(\d+)\]/)[1]! };
    case 'type': {
      // A type without the press-enter flag presses Enter.
      if (!(s.endsWith('[0]') || s.endsWith('[1]'))) s += ' [1]';
      const m = need(/type ?\[(\d+)\] ?\[(.+)\] ?\[(\d+)\]/);
      return { type: 'type', elementId: m[1]!, text: m[2]!, pressEnter: m[3] === '1', clearFirst: false };
    }
    case 'select_option': {
      // BrowserGym's action, in WebArena's bracket form: select_option [id] [option text]
      const m = need(/select_option ?\[(\d+)\] ?\[(.+)\]/);
      return { type: 'select_option', elementId: m[1]!, option: m[2]! };
    }
    case 'press':
      return { type: 'press', keyComb: need(/press ?\[(.+)\]/)[1]! };
    case 'drag': {
      // BrowserGym's drag_and_drop(from_bid, to_bid), in WebArena's bracket form
      const m = need(/drag ?\[(\d+)\] ?\[(\d+)\]/);
      return { type: 'drag', fromId: m[1]!, toId: m[2]! };
    }
    case 'mouse_click': {
      const m = need(new RegExp(`mouse_click ?${POINT}`));
      return { type: 'mouse_click', x: Number(m[1]), y: Number(m[2]) };
    }
    case 'mouse_down':
    case 'mouse_move':
    case 'mouse_up': {
      const m = need(new RegExp(`${keyword} ?${POINT}`));
      return { type: keyword, x: Number(m[1]), y: Number(m[2]) };
    }
    case 'mouse_drag': {
      const m = need(new RegExp(`mouse_drag ?${POINT} ?${POINT}`));
      return {
        type: 'mouse_drag',
        fromX: Number(m[1]),
        fromY: Number(m[2]),
        toX: Number(m[3]),
        toY: Number(m[4]),
      };
    }
    case 'scroll':
      return { type: 'scroll', direction: need(/scroll ?\[?(up|down)\]?/)[1] as 'up' | 'down', by: 'page' };
    case 'goto':
      return { type: 'goto', url: need(/goto ?\[(.+)\]/)[1]! };
    case 'new_tab':
      return { type: 'new_tab' };
    case 'go_back':
      return { type: 'go_back' };
    case 'go_forward':
      return { type: 'go_forward' };
    case 'tab_focus':
      return { type: 'tab_focus', pageNumber: Number(need(/tab_focus ?\[(\d+)\]/)[1]) };
    case 'close_tab':
      return { type: 'close_tab' };
    case 'stop': {
      // Some tasks need no answer: a bare "stop" answers "".
      const m = /stop ?\[(.+)\]/.exec(s);
      return { type: 'stop', answer: m ? m[1]! : '' };
    }
  }
  throw new ActionParsingError(`Invalid action ${s}`);
}

const KEYWORDS =
  /^(click|hover|type|select_option|press|drag|mouse_click|mouse_drag|mouse_down|mouse_move|mouse_up|scroll|goto|new_tab|go_back|go_forward|tab_focus|close_tab|stop)\b/;

/**
 * The action in a model reply of WebArena's prompts: the ``` block after "In summary, the next
 * action I will perform is" (the first ``` block when that phrase is absent, as WebArena's
 * extractor does), or a bare action line.
 */
export function extractWebArenaAction(reply: string): string {
  const at = reply.indexOf(SUMMARY);
  const tail = at >= 0 ? reply.slice(at + SUMMARY.length) : reply;
  const block = /```([\s\S]*?)```/.exec(tail) ?? (at >= 0 ? /```([\s\S]*?)```/.exec(reply) : null);
  if (block) return block[1]!.trim();
  const bare = reply.trim();
  if (KEYWORDS.test(bare) && !bare.includes('\n')) return bare;
  throw new ActionParsingError(`Cannot parse action from response ${reply.slice(0, 200)}`);
}

/** A WebArena-style reply → an action; anything unparseable is a "none" action carrying the reason. */
export function parseWebArenaReply(reply: string): Action {
  try {
    return parseWebArenaAction(extractWebArenaAction(reply));
  } catch (e) {
    if (e instanceof ActionParsingError) return { type: 'none', error: e.message };
    throw e;
  }
}
