// The chat-model policy over an OpenAI-compatible endpoint (docs/chat-policy.md): public API.
export { type ChatDecision, ChatPolicy, type ChatPolicyOptions, type StepSampling } from './chat-policy.js';
export {
  apiKeyFrom,
  ChatClient,
  type ChatClientOptions,
  ChatRequestError,
  type ChatTurn,
  type ChatUsage,
  type Completion,
  type ContentPart,
  type Sampling,
} from './client.js';
export {
  buildConversation,
  type EpisodeContext,
  jpegDataUrl,
  loadPromptTemplates,
  PromptTemplates,
  promptFile,
} from './prompt.js';
