// A FAKE OpenAI-compatible server for tests: it replays scripted replies to chat completions
// (then a default), and records every request. It stands in for the remote chat model (vLLM) only.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export type FakeReply =
  | { kind: 'text'; text: string; promptTokens?: number; completionTokens?: number }
  | { kind: 'status'; status: number; body?: string }
  /** never answers: the client's timeout fires */
  | { kind: 'hang' };

export interface RecordedRequest {
  path: string;
  authorization: string | null;
  body: {
    model?: string;
    messages?: {
      role: string;
      content: string | { type: string; text?: string; image_url?: { url: string } }[];
    }[];
    [key: string]: unknown;
  };
  /** what the fake did with it */
  reply: FakeReply['kind'];
  status: number | null;
}

export class FakeOpenAiServer {
  readonly requests: RecordedRequest[] = [];
  private readonly sockets = new Set<Socket>();

  private constructor(
    private readonly server: Server,
    /** replies for chat completions, in order; then `fallback` */
    readonly script: FakeReply[],
    public fallback: (request: RecordedRequest) => FakeReply,
  ) {}

  static async start(
    script: FakeReply[],
    fallback: (request: RecordedRequest) => FakeReply = () => ({
      kind: 'text',
      text: 'Thought: done.\nAction: ANSWER [42]',
    }),
  ): Promise<FakeOpenAiServer> {
    let fake: FakeOpenAiServer | null = null;
    const server = createServer((req, res) => void fake?.handle(req, res));
    fake = new FakeOpenAiServer(server, [...script], fallback);
    server.on('connection', (socket) => {
      fake?.sockets.add(socket);
      socket.on('close', () => fake?.sockets.delete(socket));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return fake;
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
  }

  /** Chat completions only (not adapter loads). */
  get completions(): RecordedRequest[] {
    return this.requests.filter((r) => r.path.endsWith('/chat/completions'));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let raw = '';
    for await (const chunk of req) raw += (chunk as Buffer).toString();
    const recorded: RecordedRequest = {
      path: req.url ?? '',
      authorization: req.headers.authorization ?? null,
      body: raw ? (JSON.parse(raw) as RecordedRequest['body']) : {},
      reply: 'text',
      status: null,
    };
    this.requests.push(recorded);
    if (!recorded.path.endsWith('/chat/completions')) {
      recorded.status = 200;
      res.writeHead(200, { 'content-type': 'text/plain' }).end('Success');
      return;
    }
    const reply = this.script.shift() ?? this.fallback(recorded);
    recorded.reply = reply.kind;
    if (reply.kind === 'hang') return;
    if (reply.kind === 'status') {
      recorded.status = reply.status;
      res
        .writeHead(reply.status, { 'content-type': 'application/json' })
        .end(reply.body ?? '{"error":"scripted"}');
      return;
    }
    recorded.status = 200;
    res.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        id: `fake-${this.requests.length}`,
        object: 'chat.completion',
        model: recorded.body.model,
        choices: [{ index: 0, message: { role: 'assistant', content: reply.text }, finish_reason: 'stop' }],
        usage: {
          prompt_tokens: reply.promptTokens ?? 100,
          completion_tokens: reply.completionTokens ?? 10,
          total_tokens: (reply.promptTokens ?? 100) + (reply.completionTokens ?? 10),
        },
      }),
    );
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** The text parts of a message's content. */
export function textOf(
  content: RecordedRequest['body']['messages'] extends (infer M)[] | undefined
    ? M extends { content: infer C }
      ? C
      : never
    : never,
): string {
  if (typeof content === 'string') return content;
  return content
    .filter((p) => p.type === 'text')
    .map((p) => p.text ?? '')
    .join('\n');
}

export function imagesOf(request: RecordedRequest): string[] {
  return (request.body.messages ?? []).flatMap((m) =>
    typeof m.content === 'string'
      ? []
      : m.content.filter((p) => p.type === 'image_url').map((p) => p.image_url?.url ?? ''),
  );
}
