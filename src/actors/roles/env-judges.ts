// The judges an env worker scores episodes with (`judge.kind`): none, the policy's own endpoint
// and model (as TTI), or an endpoint of their own.
import { type AnswerJudge, chatJudges, type Judge } from '../../envs/index.js';
import { apiKeyFrom, ChatClient } from '../../model/chat/index.js';
import type { RoleContext } from './worker-shell.js';

/** The judges `judge.kind` asks for: none, the policy's endpoint and model (as TTI), or another endpoint. */
export function configuredJudges(ctx: RoleContext): { judge?: Judge; answerJudge?: AnswerJudge } {
  const { judge, chat, policy_lm } = ctx.config;
  if (judge.kind === 'none') return {};
  if (judge.kind === 'policy' && policy_lm === 'tfjs')
    throw new Error(
      "judge.kind 'policy' needs a chat-model policy_lm (it is 'tfjs'): use judge.kind 'endpoint'",
    );
  if (judge.kind === 'endpoint' && (judge.base_url === null || judge.model === null))
    throw new Error("judge.kind 'endpoint' needs judge.base_url and judge.model");
  const own = judge.kind === 'endpoint';
  const client = new ChatClient({
    baseUrl: own ? (judge.base_url ?? '') : chat.base_url,
    apiKey: apiKeyFrom(own ? judge.api_key_env : chat.api_key_env),
    timeoutMs: chat.timeout_ms,
    maxRetries: chat.max_retries,
    backoffInitialMs: chat.backoff_initial_ms,
    backoffMaxMs: chat.backoff_max_ms,
    onRetry: (why) => ctx.log.warn(`judge request retry: ${why}`),
  });
  return chatJudges({
    client,
    model: own ? (judge.model ?? '') : policy_lm,
    maxTokens: judge.max_tokens,
    prompt: judge.prompt,
    onUsage: (u) => {
      ctx.counters.judgePromptTokens = (ctx.counters.judgePromptTokens ?? 0) + u.promptTokens;
      ctx.counters.judgeCompletionTokens = (ctx.counters.judgeCompletionTokens ?? 0) + u.completionTokens;
    },
  });
}
