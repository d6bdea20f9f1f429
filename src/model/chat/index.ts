// The chat-model policy over an OpenAI-compatible endpoint (docs/chat-policy.md): public API.

export {
  apiKeyFrom,
  ChatClient,
  type ChatClientOptions,
  ChatRequestError,
  type ChatTurn,
  type ChatUsage,
  type Completion,
  type ContentPart,
  promptFile,
  type Sampling,
} from '../../chat/index.js';
export { type ChatDecision, ChatPolicy, type ChatPolicyOptions, type StepSampling } from './chat-policy.js';
export {
  buildConversation,
  type EpisodeContext,
  jpegDataUrl,
  loadPromptTemplates,
  PromptTemplates,
} from './prompt.js';
