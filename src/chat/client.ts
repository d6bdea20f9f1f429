// A small client for OpenAI-compatible chat completions (vLLM's server is the main target). Node's
// fetch is enough: one POST, a zod check of the reply, and retries with backoff where a server
// under load or restarting says "try later" (429, 5xx, a timeout, a dropped connection).
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';

export type ContentPart = { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } };

export interface ChatTurn {
  role: 'system' | 'user' | 'assistant';
  content: string | ContentPart[];
}

export interface ChatUsage {
  promptTokens: number;
  completionTokens: number;
}

export interface Sampling {
  model: string;
  temperature: number;
  top_p?: number;
  max_tokens: number;
  /** vLLM's per-request seed: the same seed and prompt sample the same reply */
  seed?: number;
}

export interface Completion {
  text: string;
  usage: ChatUsage;
  /** requests made, retries included */
  attempts: number;
}

export interface ChatClientOptions {
  /** e.g. http://127.0.0.1:8000/v1 */
  baseUrl: string;
  apiKey: string | null;
  timeoutMs: number;
  maxRetries: number;
  backoffInitialMs: number;
  backoffMaxMs: number;
  /** told of every retry, for logs and counters */
  onRetry?: (why: string, attempt: number, delayMs: number) => void;
}

/** A request the server refused for good (4xx other than 429), or that kept failing past the retries. */
export class ChatRequestError extends Error {
  override name = 'ChatRequestError';
  constructor(
    message: string,
    readonly status: number | null,
  ) {
    super(message);
  }
}

const CompletionBody = z.object({
  choices: z
    .array(z.object({ message: z.object({ content: z.string().nullable().optional() }) }))
    .min(1, 'no choices'),
  usage: z
    .object({
      prompt_tokens: z.number().int().nonnegative(),
      completion_tokens: z.number().int().nonnegative(),
    })
    .nullish(),
});

class Retryable extends Error {
  constructor(
    message: string,
    /** the server's Retry-After, when it sent one */
    readonly retryAfterMs: number | null = null,
  ) {
    super(message);
  }
}

/** The API key from the named environment variable; an unset or empty variable means no key. */
export function apiKeyFrom(envVar: string): string | null {
  const key = process.env[envVar];
  return key === undefined || key === '' ? null : key;
}

export class ChatClient {
  constructor(readonly options: ChatClientOptions) {}

  private url(p: string): string {
    return `${this.options.baseUrl.replace(/\/+$/, '')}${p}`;
  }

  private async post(p: string, body: unknown): Promise<{ status: number; text: string }> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (this.options.apiKey !== null) headers.authorization = `Bearer ${this.options.apiKey}`;
    let response: Response;
    try {
      response = await fetch(this.url(p), {
        method: 'POST',
        headers,
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
      const text = await response.text();
      if (response.status === 429 || response.status >= 500) {
        const after = Number(response.headers.get('retry-after'));
        throw new Retryable(
          `HTTP ${response.status}: ${text.slice(0, 200)}`,
          Number.isFinite(after) && after > 0 ? after * 1000 : null,
        );
      }
      return { status: response.status, text };
    } catch (error) {
      if (error instanceof Retryable) throw error;
      const e = error as Error;
      if (e.name === 'TimeoutError' || e.name === 'AbortError')
        throw new Retryable(`no answer within ${this.options.timeoutMs} ms`);
      // fetch's "fetch failed": refused, reset, DNS; the cause says which.
      const cause = (e as Error & { cause?: Error }).cause;
      throw new Retryable(`${e.message}${cause ? ` (${cause.message})` : ''}`);
    }
  }

  /** Retries what is worth retrying, with exponential backoff and jitter (or the server's Retry-After). */
  private async withRetries<T>(
    what: string,
    attempt: () => Promise<T>,
  ): Promise<{ value: T; attempts: number }> {
    const o = this.options;
    for (let n = 0; ; n++) {
      try {
        return { value: await attempt(), attempts: n + 1 };
      } catch (error) {
        if (!(error instanceof Retryable)) throw error;
        if (n >= o.maxRetries)
          throw new ChatRequestError(`${what} failed after ${n + 1} attempts: ${error.message}`, null);
        const backoff = Math.min(o.backoffMaxMs, o.backoffInitialMs * 2 ** n) * (0.5 + Math.random() / 2);
        const delay = Math.min(o.backoffMaxMs, error.retryAfterMs ?? backoff);
        o.onRetry?.(error.message, n + 1, delay);
        await sleep(delay);
      }
    }
  }

  /** One chat completion; the reply's text (an empty string when the model said nothing) and token usage. */
  async complete(messages: readonly ChatTurn[], sampling: Sampling): Promise<Completion> {
    const { value, attempts } = await this.withRetries(`chat completion (${sampling.model})`, async () => {
      const { status, text } = await this.post('/chat/completions', { ...sampling, messages });
      if (status !== 200)
        throw new ChatRequestError(`chat completion refused: HTTP ${status}: ${text.slice(0, 300)}`, status);
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        throw new Retryable(`the reply is not JSON: ${text.slice(0, 120)}`);
      }
      const parsed = CompletionBody.safeParse(json);
      if (!parsed.success)
        throw new Retryable(`the reply is not a chat completion: ${parsed.error.issues[0]?.message ?? ''}`);
      return parsed.data;
    });
    return {
      text: value.choices[0]?.message.content ?? '',
      usage: {
        promptTokens: value.usage?.prompt_tokens ?? 0,
        completionTokens: value.usage?.completion_tokens ?? 0,
      },
      attempts,
    };
  }

  /** vLLM's dynamic LoRA loading (VLLM_ALLOW_RUNTIME_LORA_UPDATING=True): serve `path` as model `name`. */
  async loadLoraAdapter(name: string, adapterPath: string): Promise<void> {
    // The endpoint lives at the server root, beside /v1.
    const root = this.options.baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '');
    const client = new ChatClient({ ...this.options, baseUrl: root });
    await client.withRetries(`loading LoRA adapter ${name}`, async () => {
      const { status, text } = await client.post('/v1/load_lora_adapter', {
        lora_name: name,
        lora_path: adapterPath,
      });
      if (status !== 200)
        throw new ChatRequestError(
          `load_lora_adapter refused: HTTP ${status}: ${text.slice(0, 300)}`,
          status,
        );
    });
  }
}
