import { Unscorable } from './verdict.js';

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/**
 * A chat model that grades free-form answers (WebArena uses gpt-4-1106-preview at temperature 0).
 * Implementations call a real model; the evaluator builds WebArena's prompts and reads the reply.
 */
export interface Judge {
  complete(messages: ChatMessage[]): Promise<string>;
}

export function fuzzyMatchMessages(intent: string, reference: string, prediction: string): ChatMessage[] {
  const message =
    'Help a teacher to grade the answer of a student given a question. Keep in mind that the student may use different phrasing or wording to answer the question. The goal is to evaluate whether the answer is semantically equivalent to the reference answer.\n' +
    `question: ${intent}\n` +
    `reference answer: ${reference}\n` +
    "all the string 'N/A' that you see is a special sequence that means 'not achievable'\n" +
    `student answer: ${prediction}\n` +
    'Conclude the judgement by correct/incorrect/partially correct.';
  return [
    { role: 'system', content: 'You are a helpful assistant' },
    { role: 'user', content: message },
  ];
}

export function unachievableMatchMessages(
  intent: string,
  reference: string,
  prediction: string,
): ChatMessage[] {
  const message =
    `task: ${intent}\n` +
    `actual unachievable reason: ${reference}\n` +
    `reported unachievable reason: ${prediction}\n` +
    "The task described above is inherently unachievable due to the reason specified under 'actual unachievable reason'. " +
    'An individual previously attempted this task and was unable to complete it. They provided a reason for their failure, ' +
    "which is listed under 'reported unachievable reason'. Your role is to review both the actual and reported reasons. " +
    'Determine if the reported reason aligns with the actual reason, even if implicitly. ' +
    "If the stated reasons are in alignment, please respond with 'same'; otherwise, respond with 'different'.";
  return [
    { role: 'system', content: 'You are a helpful assistant' },
    { role: 'user', content: message },
  ];
}

function need(judge: Judge | undefined, what: string): Judge {
  if (!judge) throw new Unscorable(`${what} needs a chat-model judge and none is configured`);
  return judge;
}

/** WebArena's llm_fuzzy_match: "partially correct" or "incorrect" → 0; otherwise "correct" must appear. */
export async function llmFuzzyMatch(
  judge: Judge | undefined,
  intent: string,
  reference: string,
  prediction: string,
): Promise<{ score: number; reply: string }> {
  const reply = (
    await need(judge, 'fuzzy_match').complete(fuzzyMatchMessages(intent, reference, prediction))
  ).toLowerCase();
  if (reply.includes('partially correct') || reply.includes('incorrect')) return { score: 0, reply };
  // A reply that fits no verdict is not guessed at: the answer stays unscored.
  if (!reply.includes('correct'))
    throw new Unscorable(
      `judge reply says neither correct nor incorrect: ${JSON.stringify(reply.slice(0, 200))}`,
    );
  return { score: 1, reply };
}

/** WebArena's llm_ua_match: "different" → 0; otherwise "same" must appear. */
export async function llmUaMatch(
  judge: Judge | undefined,
  intent: string,
  reference: string,
  prediction: string,
): Promise<{ score: number; reply: string }> {
  const reply = (
    await need(judge, 'N/A (ua_match)').complete(unachievableMatchMessages(intent, reference, prediction))
  ).toLowerCase();
  if (reply.includes('different')) return { score: 0, reply };
  if (!reply.includes('same'))
    throw new Unscorable(
      `judge reply says neither same nor different: ${JSON.stringify(reply.slice(0, 200))}`,
    );
  return { score: 1, reply };
}
