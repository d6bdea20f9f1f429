// A modelled served LLM for the chat-path benchmark: an OpenAI-compatible HTTP endpoint
// (`/v1/chat/completions`) that answers each completion after a latency drawn from a log-normal
// distribution (a served model's decode time: a few hundred ms to seconds, scaled down for the bench)
// that grows with the batch it joins, with at most `maxNumSeqs` sequences running at once (vLLM's
// max_num_seqs: later requests queue). It counts its busy time (at least one sequence running) and
// the sequence-time integral, so a bench can report the endpoint's busy share and mean batch. Every
// other path (a LoRA adapter load) answers 200.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface ModelledEndpointOptions {
  /** median latency of one completion alone, ms */
  medianMs: number;
  /** log-normal sigma of that latency */
  sigma: number;
  /** each other sequence in the batch adds this fraction to a completion's latency */
  perSequence: number;
  maxNumSeqs: number;
  /** the reply text for a completion (its request's body); the policy's action */
  reply: (body: { messages?: unknown[] }) => string;
  seed: number;
}

/** A small seeded PRNG (mulberry32): the same latencies for the same seed. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export class ModelledEndpoint {
  private running = 0;
  private readonly queue: (() => void)[] = [];
  private readonly sockets = new Set<Socket>();
  private readonly random: () => number;
  /** completions answered, and when (ms since start) */
  readonly answeredAt: number[] = [];
  /** when the first completion came in (ms since start), null before */
  firstRequestAt: number | null = null;
  private busyMs = 0;
  private seqMs = 0;
  private lastChange = performance.now();
  private readonly t0 = performance.now();

  private constructor(
    private readonly server: ReturnType<typeof createServer>,
    private readonly o: ModelledEndpointOptions,
  ) {
    this.random = rng(o.seed);
  }

  static async start(o: ModelledEndpointOptions): Promise<ModelledEndpoint> {
    let endpoint: ModelledEndpoint | null = null;
    const server = createServer((req, res) => void endpoint?.handle(req, res));
    endpoint = new ModelledEndpoint(server, o);
    server.on('connection', (socket) => {
      endpoint?.sockets.add(socket);
      socket.on('close', () => endpoint?.sockets.delete(socket));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return endpoint;
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
  }

  /** Busy time (≥ 1 sequence running) and sequence-time, ms, up to now. */
  usage(): { busyMs: number; seqMs: number; atMs: number } {
    this.tick();
    return { busyMs: this.busyMs, seqMs: this.seqMs, atMs: performance.now() - this.t0 };
  }

  private tick(): void {
    const now = performance.now();
    if (this.running > 0) this.busyMs += now - this.lastChange;
    this.seqMs += this.running * (now - this.lastChange);
    this.lastChange = now;
  }

  private latencyMs(batch: number): number {
    // Box–Muller: a standard normal from two uniforms.
    const z = Math.sqrt(-2 * Math.log(1 - this.random())) * Math.cos(2 * Math.PI * this.random());
    return this.o.medianMs * Math.exp(this.o.sigma * z) * (1 + this.o.perSequence * (batch - 1));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let raw = '';
    for await (const chunk of req) raw += (chunk as Buffer).toString();
    if (!(req.url ?? '').endsWith('/chat/completions')) {
      res.writeHead(200, { 'content-type': 'text/plain' }).end('Success');
      return;
    }
    const body = (raw ? JSON.parse(raw) : {}) as { model?: string; messages?: unknown[] };
    this.firstRequestAt ??= performance.now() - this.t0;
    if (this.running >= this.o.maxNumSeqs) await new Promise<void>((resolve) => this.queue.push(resolve));
    this.tick();
    this.running += 1;
    await new Promise((resolve) => setTimeout(resolve, this.latencyMs(this.running)));
    this.tick();
    this.running -= 1;
    this.queue.shift()?.();
    this.answeredAt.push(performance.now() - this.t0);
    res.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        id: `bench-${this.answeredAt.length}`,
        object: 'chat.completion',
        model: body.model,
        choices: [
          { index: 0, message: { role: 'assistant', content: this.o.reply(body) }, finish_reason: 'stop' },
        ],
        usage: { prompt_tokens: 1000, completion_tokens: 40, total_tokens: 1040 },
      }),
    );
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
