// The chat-model policy over an OpenAI-compatible endpoint (docs/chat-policy.md): public API.

// the endpoint's client, which the judges share (src/chat)
export * from '../../chat/index.js';
export { type ChatDecision, ChatPolicy, type ChatPolicyOptions, type StepSampling } from './chat-policy.js';
export {
  buildConversation,
  type EpisodeContext,
  jpegDataUrl,
  loadPromptTemplates,
  PromptTemplates,
} from './prompt.js';
