// The judges a run configures, over one OpenAI-compatible endpoint: WebArena's fuzzy_match /
// ua_match grader and WebVoyager's success judge. Judges sample at temperature 0, as WebArena's does.
import { readFileSync } from 'node:fs';
import { type ChatClient, type ChatTurn, type ChatUsage, promptFile } from '../../chat/index.js';
import type { Judge } from './judge.js';
import { type AnswerJudge, WebVoyagerJudge } from './webvoyager-judge.js';

export interface ChatJudgeOptions {
  client: ChatClient;
  model: string;
  maxTokens: number;
  /** the WebVoyager judge's prompt: a name in prompts/ or a path */
  prompt: string;
  /** told of each judgement's tokens */
  onUsage?: (usage: ChatUsage) => void;
}

export function chatJudges(o: ChatJudgeOptions): { judge: Judge; answerJudge: AnswerJudge } {
  const file = promptFile(o.prompt, '.txt');
  let prompt: string;
  try {
    prompt = readFileSync(file, 'utf8');
  } catch (error) {
    throw new Error(`judge.prompt: cannot read ${file} (${(error as Error).message})`);
  }
  const complete = async (messages: ChatTurn[]): Promise<string> => {
    const c = await o.client.complete(messages, { model: o.model, temperature: 0, max_tokens: o.maxTokens });
    o.onUsage?.(c.usage);
    return c.text;
  };
  return { judge: { complete }, answerJudge: new WebVoyagerJudge(complete, prompt) };
}
