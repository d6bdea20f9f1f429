// The chat-model policy: TTI's prompt for the current step, one completion from an
// OpenAI-compatible endpoint, the reply as it came. Reading the reply is the env's job (an
// unreadable one is an invalid action the episode survives), so nothing here second-guesses it.
import type { ChatClient, ChatUsage } from '../../chat/index.js';
import { buildConversation, type EpisodeContext, type PromptTemplates } from './prompt.js';

export interface ChatPolicyOptions {
  topP: number;
  maxTokens: number;
  maxImages: number;
}

/** How one step samples: the episode's temperature and the step's seed (absent: the server's own draw). */
export interface StepSampling {
  temperature: number;
  seed?: number;
}

export interface ChatDecision {
  reply: string;
  usage: ChatUsage;
  /** requests it took, retries included */
  attempts: number;
}

export class ChatPolicy {
  constructor(
    private readonly client: ChatClient,
    private readonly templates: PromptTemplates,
    private readonly options: ChatPolicyOptions,
  ) {}

  /**
   * One step's reply from `model` (the served name changes as the learner publishes versions),
   * sampled at the episode's `temperature` with the step's `seed` when the env sent one.
   */
  async decide(ctx: EpisodeContext, model: string, draw: StepSampling): Promise<ChatDecision> {
    const messages = buildConversation(this.templates, ctx, this.options.maxImages);
    const completion = await this.client.complete(messages, {
      model,
      temperature: draw.temperature,
      top_p: this.options.topP,
      max_tokens: this.options.maxTokens,
      ...(draw.seed === undefined ? {} : { seed: draw.seed }),
    });
    return { reply: completion.text, usage: completion.usage, attempts: completion.attempts };
  }
}
