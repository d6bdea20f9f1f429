// The steps an exploratory trajectory goes back from a dead end with (src/search/exploratory.ts),
// in the run's action format: a GoBack over a navigation, the opposite scroll over a scroll. Over
// anything else (a field typed in, a list opened, a GoBack the policy itself took) there is no
// honest step back, so the dead end is left out.
import {
  type Action,
  type ActionFormat,
  describeAction,
  type Observation,
  parseTtiReply,
  parseWebArenaReply,
} from '../envs/index.js';
import type { Taken } from './branch-search.js';

const WHY = 'this way does not lead to the goal, so I go back';

function reply(format: ActionFormat, action: Action): string {
  if (format === 'webarena') {
    const command = action.type === 'scroll' ? `scroll [${action.direction}]` : 'go_back';
    return `Let's think step-by-step. ${WHY[0]!.toUpperCase()}${WHY.slice(1)}. In summary, the next action I will perform is \`\`\`${command}\`\`\``;
  }
  const command =
    action.type === 'scroll'
      ? `Scroll ${action.elementId === undefined ? '' : `[${action.elementId}] `}[${action.direction}]`
      : 'GoBack';
  return `Thought: ${WHY}.\nAction: ${command}`;
}

/**
 * `exploratorySteps`'s `undo` for a run's action format: the step from `page` back over `done`,
 * or null where no step undoes it.
 */
export function wayBack(format: ActionFormat) {
  const parse = format === 'webarena' ? parseWebArenaReply : parseTtiReply;
  return (page: Observation, policyVersion: number, done: Taken, navigated: boolean): Taken | null => {
    const action = parse(done.reply);
    let back: Action | null = null;
    // a GoBack the policy took is not reversed by another: history moves back, not forward
    if (navigated) back = action.type === 'go_back' ? null : { type: 'go_back' };
    else if (action.type === 'scroll')
      back = { ...action, direction: action.direction === 'up' ? 'down' : 'up' };
    return back === null
      ? null
      : { observation: page, reply: reply(format, back), policyVersion, actionText: describeAction(back) };
  };
}
