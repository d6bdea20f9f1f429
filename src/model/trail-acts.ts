// The episode's trail read back as acts: the kind of each action, the element it named (role and
// name) and its text, from the signatures trail.ts writes.
import type { PolicyInput, TrailStep } from './types.js';

export interface TrailAct {
  kind: string;
  role: string;
  name: string;
  text: string;
  signature: string;
  url: string;
}

const SIGNED =
  /^(Click|Type|Hover|Select)\s*\[([^\s\]"]+) ("(?:[^"\\]|\\.)*")(?: #\d+)?\]\s*(?:\[([\s\S]*)\])?$/;

export function parseTrail(step: TrailStep): TrailAct {
  const m = SIGNED.exec(step.action);
  if (m) {
    let name = '';
    try {
      name = JSON.parse(m[3]!) as string;
    } catch {
      name = m[3]!.slice(1, -1);
    }
    const head = step.action.replace(/\s*\[[^\]]*\]\s*$/, '');
    return {
      kind: m[1]!.toLowerCase(),
      role: m[2]!,
      name,
      text: m[4] ?? '',
      signature: m[1] === 'Type' || m[1] === 'Select' ? head : step.action,
      url: step.url,
    };
  }
  const answer = /^ANSWER\s*\[([\s\S]*)\]$/.exec(step.action);
  if (answer)
    return { kind: 'answer', role: '', name: '', text: answer[1]!, signature: step.action, url: step.url };
  const kind = step.action.split(/[\s[]/)[0]!.toLowerCase();
  return { kind, role: '', name: '', text: '', signature: step.action, url: step.url };
}

/** The trail an input carries, or one rebuilt from its history (ids only: older senders). */
export function trailOf(input: PolicyInput): TrailStep[] {
  if (input.trail) return input.trail;
  return input.history.map((action) => ({ url: '', action }));
}
