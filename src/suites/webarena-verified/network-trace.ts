// An episode's network trace as a HAR 1.2 log, from the browser context's request events. Not
// Playwright's recordHar: that is fixed when a context is made and written only when it closes,
// while the env reuses one cleaned context across episodes (env.reuse_context); listening to
// 'requestfinished' / 'requestfailed' from an episode's start to its verdict gives each episode its
// own trace on whichever context it runs in. Bodies are kept for JSON responses under a size cap,
// which is all response_content reads.
import type { BrowserContext, Request } from 'playwright-core';
import type { HarEntry, HarLog } from '../../envs/index.js';

/** The largest response body kept (JSON only). */
export const MAX_BODY_BYTES = 1 << 20;

export class NetworkTrace {
  private readonly entries: { seq: number; entry: HarEntry }[] = [];
  private readonly pending = new Set<Promise<void>>();
  /** when each request was sent, and in which order: the trace keeps the order they were sent in */
  private readonly sent = new WeakMap<Request, { seq: number; at: number }>();
  private seq = 0;
  private readonly onRequest = (r: Request) => this.sent.set(r, { seq: this.seq++, at: Date.now() });
  private readonly onFinished = (r: Request) => this.track(this.entryOf(r, false));
  private readonly onFailed = (r: Request) => this.track(this.entryOf(r, true));

  constructor(private readonly context: BrowserContext) {
    context.on('request', this.onRequest);
    context.on('requestfinished', this.onFinished);
    context.on('requestfailed', this.onFailed);
  }

  private track(p: Promise<{ seq: number; entry: HarEntry } | null>): void {
    const done = p
      .then((entry) => {
        if (entry) this.entries.push(entry);
      })
      .catch(() => {
        // a request whose page went away mid-read: nothing to record
      })
      .finally(() => this.pending.delete(done));
    this.pending.add(done);
  }

  private async entryOf(request: Request, failed: boolean): Promise<{ seq: number; entry: HarEntry } | null> {
    const url = request.url();
    const sent = this.sent.get(request);
    // a request sent before the trace started belongs to no episode of its own
    if (!/^https?:/.test(url) || sent === undefined) return null;
    const headers = Object.entries(await request.allHeaders()).map(([name, value]) => ({ name, value }));
    const postText = request.postData();
    const response = failed ? null : await request.response();
    const responseHeaders = response ? await response.headersArray() : [];
    const mimeType = responseHeaders.find((h) => h.name.toLowerCase() === 'content-type')?.value ?? '';
    let text: string | undefined;
    if (response && /json/i.test(mimeType)) {
      const body = await response.body().catch(() => null);
      if (body && body.length <= MAX_BODY_BYTES) text = body.toString('utf8');
    }
    const entry: HarEntry = {
      startedDateTime: new Date(sent.at).toISOString(),
      time: Math.max(0, Date.now() - sent.at),
      request: {
        method: request.method(),
        url,
        httpVersion: 'HTTP/1.1',
        headers,
        queryString: [...new URL(url).searchParams].map(([name, value]) => ({ name, value })),
        ...(postText === null
          ? {}
          : { postData: { mimeType: (await request.headerValue('content-type')) ?? '', text: postText } }),
        cookies: [],
        headersSize: -1,
        bodySize: postText?.length ?? 0,
      },
      response: {
        // a request that got no response: -1, as Playwright's HAR writes it and their references expect
        status: response?.status() ?? -1,
        statusText: response?.statusText() ?? (request.failure()?.errorText || ''),
        httpVersion: 'HTTP/1.1',
        headers: responseHeaders,
        content: { size: text?.length ?? -1, mimeType, ...(text === undefined ? {} : { text }) },
        cookies: [],
        redirectURL: responseHeaders.find((h) => h.name.toLowerCase() === 'location')?.value ?? '',
        headersSize: -1,
        bodySize: -1,
      },
      _resourceType: request.resourceType(),
      cache: {},
      timings: { send: 0, wait: 0, receive: 0 },
    };
    return { seq: sent.seq, entry };
  }

  /** Stops listening and returns the trace, every request already seen written in. */
  async stop(): Promise<HarLog> {
    this.context.off('request', this.onRequest);
    this.context.off('requestfinished', this.onFinished);
    this.context.off('requestfailed', this.onFailed);
    await Promise.all([...this.pending]);
    const entries = [...this.entries].sort((a, b) => a.seq - b.seq).map((e) => e.entry);
    return { log: { version: '1.2', creator: { name: 'tti', version: '1' }, entries } };
  }
}
