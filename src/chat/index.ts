// An OpenAI-compatible chat endpoint (vLLM's server is the main target) and the prompt files sent
// to it: used by the chat policy (src/model/chat) and by the judges (src/envs/evaluators).
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
export { promptFile } from './prompt-file.js';
