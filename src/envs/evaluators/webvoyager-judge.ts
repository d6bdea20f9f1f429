// WebVoyager's success judge, as TTI runs it: a chat model (TTI uses the policy's own endpoint)
// reads the task, the agent's answer, the last page (URL and accessibility tree) and the last
// screenshots, and ends with a verdict. "NOT SUCCESS" is a failure, "SUCCESS" a success; a reply
// with neither is unscored rather than guessed at.
import type { ChatTurn, ContentPart } from '../../chat/index.js';
import type { Task } from '../tasks/task.js';
import type { EvaluatorVerdict } from './verdict.js';

/** What the judge sees of a finished episode. */
export interface AnswerJudgeInput {
  task: Task;
  answer: string;
  /** the last observation's URL and text */
  url: string;
  observation: string;
  /** the last screenshots, oldest first (TTI sends up to 3) */
  screenshots: readonly Buffer[];
}

/** Grades an answer that no program can check (WebVoyager's live-web tasks). */
export interface AnswerJudge {
  judge(input: AnswerJudgeInput): Promise<EvaluatorVerdict>;
}

/** 1 for SUCCESS, 0 for NOT SUCCESS, null when the reply holds neither verdict. */
export function webVoyagerVerdict(reply: string): 0 | 1 | null {
  const upper = reply.toUpperCase();
  if (upper.includes('NOT SUCCESS')) return 0;
  if (upper.includes('SUCCESS')) return 1;
  return null;
}

/** The judge's messages: our prompt (prompts/webvoyager_judge.txt) as the system turn, the evidence as the user turn. */
export function webVoyagerJudgeMessages(prompt: string, input: AnswerJudgeInput, maxImages = 3): ChatTurn[] {
  const text =
    `Task: ${input.task.intent}\n\n` +
    `Last URL: ${input.url}\n\n` +
    `Accessibility tree of the last page:\n${input.observation}\n\n` +
    `The agent's answer: ${input.answer}\n\n` +
    `The last ${Math.min(maxImages, input.screenshots.length)} screenshot(s) follow, oldest first.\n\nYour verdict:`;
  const content: ContentPart[] = [{ type: 'text', text }];
  for (const shot of input.screenshots.slice(-maxImages))
    content.push({
      type: 'image_url',
      image_url: { url: `data:image/jpeg;base64,${shot.toString('base64')}` },
    });
  return [
    { role: 'system', content: prompt },
    { role: 'user', content },
  ];
}

export class WebVoyagerJudge implements AnswerJudge {
  constructor(
    private readonly complete: (messages: ChatTurn[]) => Promise<string>,
    private readonly prompt: string,
  ) {}

  async judge(input: AnswerJudgeInput): Promise<EvaluatorVerdict> {
    const reply = await this.complete(webVoyagerJudgeMessages(this.prompt, input));
    const verdict = webVoyagerVerdict(reply);
    const said = JSON.stringify(reply.slice(-160));
    if (verdict === null)
      return { evaluator: 'judge', score: 0, status: 'unscored', why: `the judge gave no verdict: ${said}` };
    return {
      evaluator: 'judge',
      score: verdict,
      status: 'scored',
      why: `the judge says ${verdict === 1 ? 'SUCCESS' : 'NOT SUCCESS'}: ${said}`,
    };
  }
}
