import type { Action } from './types.js';

/** A point in brackets, "[x] [y]" (CSS pixels, decimals allowed). */
const TTI_POINT = String.raw`\[(\d+(?:\.\d+)?)\][;\s]*\[(\d+(?:\.\d+)?)\]`;

/** The action part of a TTI reply ("Click [12]" from "Thought: …\nAction: Click [12]"), as history records it. */
export function ttiActionText(reply: string): string {
  const at = reply.lastIndexOf('Action:');
  return (at === -1 ? reply : reply.slice(at + 'Action:'.length)).trim();
}

/**
 * TTI's replies: "Thought: … Action: <one of>" Click [n] · Type [n] [text] · Scroll [up|down] ·
 * Scroll [n] [up|down] · GoBack · Wait · ANSWER [text] (and two extensions: WebArena's Hover [n] and
 * BrowserGym's select_option as Select [n] [option]). Missing "Thought:" or "Action:", or
 * Click/Type without [digits], is invalid (a "none" action with the reason).
 */
export function parseTtiReply(reply: string): Action {
  if (!reply.includes('Thought:') || !reply.includes('Action:')) {
    return { type: 'none', error: 'Format ERROR: the reply must contain both "Thought:" and "Action:"' };
  }
  const a = reply.slice(reply.lastIndexOf('Action:') + 'Action:'.length).trim();
  let m: RegExpExecArray | null;
  if (/^Click\b/.test(a)) {
    m = /^Click\s*\[(\d+)\]/.exec(a);
    if (m) return { type: 'click', elementId: m[1]! };
    return {
      type: 'none',
      error: `Format ERROR: Click needs an element number in brackets, got ${JSON.stringify(a.slice(0, 80))}`,
    };
  }
  if (/^Type\b/.test(a)) {
    m = /^Type\s*\[(\d+)\][;\s]*\[([\s\S]*)\]\s*$/.exec(a);
    if (m) return { type: 'type', elementId: m[1]!, text: m[2]!, pressEnter: true, clearFirst: true };
    return {
      type: 'none',
      error: `Format ERROR: Type needs [number] [text], got ${JSON.stringify(a.slice(0, 80))}`,
    };
  }
  if (/^Scroll\b/.test(a)) {
    m = /^Scroll\s*\[?(up|down)\]?/i.exec(a);
    if (m) return { type: 'scroll', direction: m[1]!.toLowerCase() as 'up' | 'down', by: 'two-thirds' };
    m = /^Scroll\s*\[?(\d+|WINDOW)\]?[;\s]*\[?(up|down)\]?/i.exec(a);
    if (m) {
      const direction = m[2]!.toLowerCase() as 'up' | 'down';
      return m[1]!.toUpperCase() === 'WINDOW'
        ? { type: 'scroll', direction, by: 'two-thirds' }
        : { type: 'scroll', direction, by: 'two-thirds', elementId: m[1]! };
    }
    return {
      type: 'none',
      error: `Format ERROR: Scroll needs [up|down] or [number] [up|down], got ${JSON.stringify(a.slice(0, 80))}`,
    };
  }
  // Not in TTI's prompt: WebArena's hover, for policies that emit it (tti's trainable policy).
  if (/^Hover\b/.test(a)) {
    m = /^Hover\s*\[(\d+)\]/.exec(a);
    if (m) return { type: 'hover', elementId: m[1]! };
    return {
      type: 'none',
      error: `Format ERROR: Hover needs an element number in brackets, got ${JSON.stringify(a.slice(0, 80))}`,
    };
  }
  // Not in TTI's prompt either: BrowserGym's select_option, "Select [n] [option text]".
  if (/^Select\b/.test(a)) {
    m = /^Select\s*\[(\d+)\][;\s]*\[([\s\S]*)\]\s*$/.exec(a);
    if (m) return { type: 'select_option', elementId: m[1]!, option: m[2]! };
    return {
      type: 'none',
      error: `Format ERROR: Select needs [number] [option], got ${JSON.stringify(a.slice(0, 80))}`,
    };
  }
  // Not in TTI's prompt: BrowserGym's drag_and_drop, mouse_click and mouse_drag_and_drop, for pages
  // that need them (offered in the chat prompt only where the task does).
  if (/^Drag\b/.test(a)) {
    m = /^Drag\s*\[(\d+)\][;\s]*\[(\d+)\]/.exec(a);
    if (m) return { type: 'drag', fromId: m[1]!, toId: m[2]! };
    return {
      type: 'none',
      error: `Format ERROR: Drag needs [number] [number], got ${JSON.stringify(a.slice(0, 80))}`,
    };
  }
  if (/^MouseClick\b/.test(a)) {
    m = new RegExp(`^MouseClick\\s*${TTI_POINT}`).exec(a);
    if (m) return { type: 'mouse_click', x: Number(m[1]), y: Number(m[2]) };
    return {
      type: 'none',
      error: `Format ERROR: MouseClick needs [x] [y], got ${JSON.stringify(a.slice(0, 80))}`,
    };
  }
  if (/^MouseDrag\b/.test(a)) {
    m = new RegExp(`^MouseDrag\\s*${TTI_POINT}[;\\s]*${TTI_POINT}`).exec(a);
    if (m)
      return {
        type: 'mouse_drag',
        fromX: Number(m[1]),
        fromY: Number(m[2]),
        toX: Number(m[3]),
        toY: Number(m[4]),
      };
    return {
      type: 'none',
      error: `Format ERROR: MouseDrag needs [x] [y] [x] [y], got ${JSON.stringify(a.slice(0, 80))}`,
    };
  }
  // BrowserGym's mouse_down, mouse_move, mouse_up: a press held across steps (a freehand stroke)
  m = /^Mouse(Down|Move|Up)\b/.exec(a);
  if (m) {
    const type = `mouse_${m[1]!.toLowerCase()}` as 'mouse_down' | 'mouse_move' | 'mouse_up';
    const at = new RegExp(`^Mouse${m[1]}\\s*${TTI_POINT}`).exec(a);
    if (at) return { type, x: Number(at[1]), y: Number(at[2]) };
    return {
      type: 'none',
      error: `Format ERROR: Mouse${m[1]} needs [x] [y], got ${JSON.stringify(a.slice(0, 80))}`,
    };
  }
  if (/^GoBack\b/.test(a)) return { type: 'go_back' };
  if (/^Wait\b/.test(a)) return { type: 'wait' };
  if (/^ANSWER\b/.test(a)) {
    m = /^ANSWER[;\s]*\[([\s\S]*)\]/.exec(a);
    return { type: 'stop', answer: (m ? m[1]! : a.replace(/^ANSWER[;:\s]*/, '')).trim() };
  }
  return { type: 'none', error: `Format ERROR: unknown action ${JSON.stringify(a.slice(0, 80))}` };
}
