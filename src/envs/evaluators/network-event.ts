// WebArena-Verified's NetworkEventEvaluator over an episode's network trace (a HAR 1.2 log): the
// events whose method and URL path match the reference (and referer, where it names one), the last
// of them unless last_event_only is false, each compared field by field (url with its query,
// headers, post_data by plain or JSONPath keys, response_status, response_content, response_cookies),
// one matching event enough; should_not_exist inverts it. A navigate task's GET check reads the last
// navigation alone.
import type { EvaluatorResult } from './agent-response.js';
import { differences, normalizeFields, type Schema } from './verified-compare.js';
import type { NetworkEventEvaluatorConfig, NetworkEventSpec } from './verified-schema.js';
import {
  headerText,
  isJsonPath,
  jsonPathValue,
  type NormalizedUrl,
  normalizeUrl,
  samePath,
  sameUrl,
  showUrl,
  type UrlOptions,
} from './verified-url.js';
import { isPattern, kindOf, normalizeText, sameValue, typedValue } from './verified-values.js';

/** The parts of a HAR entry the evaluator reads. */
export interface HarEntry {
  startedDateTime: string;
  time: number;
  request: {
    method: string;
    url: string;
    httpVersion?: string;
    headers: { name: string; value: string }[];
    queryString?: { name: string; value: string }[];
    postData?: { mimeType: string; text?: string };
    cookies?: unknown[];
    headersSize?: number;
    bodySize?: number;
  };
  response: {
    status: number;
    statusText?: string;
    httpVersion?: string;
    headers: { name: string; value: string }[];
    content: { size?: number; mimeType: string; text?: string; encoding?: string };
    cookies?: unknown[];
    redirectURL?: string;
    headersSize?: number;
    bodySize?: number;
  };
  /** Chromium's resource type (DevTools and tti write it); absent in some HARs */
  _resourceType?: string;
  cache?: object;
  timings?: object;
}

export interface HarLog {
  log: { version: string; creator: { name: string; version: string }; entries: HarEntry[] };
}

/** One request and its response as the evaluator reads them. */
export interface NetworkEvent {
  url: string;
  method: string;
  status: number;
  requestHeaders: Map<string, string>;
  postData: Record<string, unknown> | null;
  responseContent: unknown;
  responseCookies: Record<string, string>;
  navigation: boolean;
}

const STATIC_TYPES = new Set(['image', 'stylesheet', 'font', 'script', 'media', 'manifest', 'texttrack']);
const STATIC_PATH = /\.(png|jpe?g|gif|svg|webp|ico|css|js|mjs|woff2?|ttf|eot|map)(\?|$)/i;

function postDataOf(entry: HarEntry): Record<string, unknown> | null {
  const text = entry.request.postData?.text;
  if (text === undefined || text === '') return null;
  try {
    const json = JSON.parse(text) as unknown;
    if (json !== null && typeof json === 'object' && !Array.isArray(json))
      return json as Record<string, unknown>;
  } catch {
    // a form, most likely
  }
  const out: Record<string, unknown> = {};
  for (const [k, v] of new URLSearchParams(text)) {
    const prev = out[k];
    out[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
  }
  return out;
}

function responseContentOf(entry: HarEntry): unknown {
  const c = entry.response.content;
  if (c.text === undefined) return null;
  const text = c.encoding === 'base64' ? Buffer.from(c.text, 'base64').toString('utf8') : c.text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

function cookiesOf(entry: HarEntry): Record<string, string> {
  const out: Record<string, string> = {};
  for (const h of entry.response.headers)
    if (h.name.toLowerCase() === 'set-cookie')
      for (const line of h.value.split('\n')) {
        const [pair] = line.split(';');
        const eq = pair?.indexOf('=') ?? -1;
        if (!pair || eq <= 0) continue;
        const raw = pair.slice(eq + 1).trim();
        try {
          out[pair.slice(0, eq).trim()] = decodeURIComponent(raw.replace(/\+/g, ' '));
        } catch {
          out[pair.slice(0, eq).trim()] = raw;
        }
      }
  return out;
}

/** The events a trace's entries stand for, static files (images, scripts, styles, fonts) left out. */
export function networkEvents(har: HarLog): NetworkEvent[] {
  const out: NetworkEvent[] = [];
  for (const e of har.log.entries) {
    const type = e._resourceType?.toLowerCase();
    if (
      (type !== undefined && STATIC_TYPES.has(type)) ||
      (type === undefined && STATIC_PATH.test(e.request.url))
    )
      continue;
    const html = e.response.content.mimeType.toLowerCase().startsWith('text/html');
    out.push({
      url: e.request.url,
      method: e.request.method.toUpperCase(),
      status: e.response.status,
      requestHeaders: new Map(e.request.headers.map((h) => [h.name.toLowerCase(), h.value])),
      postData: postDataOf(e),
      responseContent: responseContentOf(e),
      responseCookies: cookiesOf(e),
      navigation:
        type === 'document' || (type === undefined && e.request.method.toUpperCase() === 'GET' && html),
    });
  }
  return out;
}

export interface NetworkEvalContext {
  /** the task's expected task_type (navigate tasks read their last navigation) */
  taskType: string;
  derender: (s: string) => string;
}

const urlList = (u: NetworkEventSpec['url']): string[] => (Array.isArray(u) ? u : [u]);

function urlOptions(config: NetworkEventEvaluatorConfig, ctx: NetworkEvalContext): UrlOptions {
  return {
    ignored: config.ignored_query_params ?? null,
    ignoredPatterns: config.ignored_query_params_patterns ?? null,
    decodeBase64: config.decode_base64_query,
    derender: ctx.derender,
  };
}

/** Query values typed as query_params_schema says (dates, say); others compared as written. */
function queryEqual(schema: Schema | null | undefined) {
  const properties = (schema?.properties ?? {}) as Record<string, Schema>;
  return (key: string, actual: string, expected: string): boolean => {
    if (isPattern(expected)) return new RegExp(expected).test(actual);
    const prop = properties[key];
    const items = (prop?.type === 'array' ? prop.items : prop) as Schema | undefined;
    if (items === undefined || actual === '' || expected === '') return actual === expected;
    try {
      const kind = kindOf(items);
      return sameValue(typedValue(kind, normalizeText(actual)), typedValue(kind, normalizeText(expected)));
    } catch {
      return actual === expected;
    }
  };
}

/** The keys of `data` the reference names, plain or JSONPath, after ignored keys are dropped. */
function picked(
  data: Record<string, unknown> | null,
  keys: readonly string[],
  ignored: readonly string[] | null | undefined,
): Record<string, unknown> | null {
  if (data === null) return null;
  const kept = Object.fromEntries(
    Object.entries(data).filter(([k]) => !(ignored ?? []).some((p) => new RegExp(p).test(k))),
  );
  return Object.fromEntries(keys.map((k) => [k, (isJsonPath(k) ? jsonPathValue(kept, k) : kept[k]) ?? null]));
}

/** Where one event differs from the reference: [] when it matches every field the reference names. */
function eventDifferences(
  event: NetworkEvent,
  config: NetworkEventEvaluatorConfig,
  ctx: NetworkEvalContext,
): string[] {
  const spec = config.expected;
  const o = urlOptions(config, ctx);
  const fails: string[] = [];
  const actualUrl = normalizeUrl(event.url, o);
  const wanted = urlList(spec.url).map((u) => normalizeUrl(u, o, spec.query_params ?? null));
  if (!wanted.some((w) => sameUrl(actualUrl, w, queryEqual(config.query_params_schema))))
    fails.push(`url: ${showUrl(actualUrl)} is not ${wanted.map(showUrl).join(' or ')}`);
  if (event.method !== spec.http_method.toUpperCase())
    fails.push(`http_method: ${event.method}, not ${spec.http_method}`);
  if (event.status !== spec.response_status)
    fails.push(`response_status: ${event.status}, not ${spec.response_status}`);
  for (const [name, want] of Object.entries(spec.headers ?? {})) {
    const got = event.requestHeaders.get(name.toLowerCase());
    if (got === undefined) {
      fails.push(`headers.${name}: absent`);
      continue;
    }
    if (['referer', 'redirect_url'].includes(name.toLowerCase()) && typeof want === 'string') {
      if (!sameUrl(normalizeUrl(got, o), normalizeUrl(want, o)))
        fails.push(`headers.${name}: ${got} is not ${want}`);
    } else if (
      differences(
        typedValue('string', headerText(got, ctx.derender)),
        typedValue('string', want),
        `headers.${name}`,
      ).length > 0
    )
      fails.push(`headers.${name}: ${JSON.stringify(got)} does not match ${JSON.stringify(want)}`);
  }
  if (spec.post_data) {
    const keys = Object.keys(spec.post_data).map((k) => k.trim());
    const got = picked(event.postData, keys, config.ignored_post_data_params_patterns);
    if (got === null) fails.push('post_data: the request has none');
    else {
      const schema = (config.post_data_schema ?? null) as Schema | null;
      const want = normalizeFields(spec.post_data, schema, { strict: true, derender: ctx.derender });
      fails.push(
        ...differences(
          normalizeFields(got, schema, { strict: false, derender: ctx.derender }),
          want,
          'post_data',
        ),
      );
    }
  }
  if (spec.response_content) {
    const keys = Object.keys(spec.response_content);
    const content = event.responseContent;
    const record =
      content !== null && typeof content === 'object' ? (content as Record<string, unknown>) : null;
    const got = picked(record, keys, null);
    if (got === null) fails.push('response_content: the response has no JSON body');
    else
      fails.push(
        ...differences(
          normalizeFields(got, null, { strict: false }),
          normalizeFields(spec.response_content, null, { strict: true }),
          'response_content',
        ),
      );
  }
  for (const [name, want] of Object.entries(spec.response_cookies ?? {})) {
    const got = event.responseCookies[name];
    if (got === undefined) fails.push(`response_cookies.${name}: not set`);
    else
      fails.push(
        ...differences(typedValue('string', got), typedValue('string', want), `response_cookies.${name}`),
      );
  }
  return fails;
}

/** The events the check reads: by method, URL path and referer (their filter), or a navigate task's last navigation. */
function candidates(
  events: readonly NetworkEvent[],
  config: NetworkEventEvaluatorConfig,
  ctx: NetworkEvalContext,
): NetworkEvent[] {
  const spec = config.expected;
  if (ctx.taskType === 'navigate' && spec.http_method.toUpperCase() === 'GET') {
    const navigations = events.filter((e) => e.navigation);
    return navigations.length === 0 ? [] : [navigations[navigations.length - 1]!];
  }
  const o = urlOptions(config, ctx);
  const wanted: NormalizedUrl[] = urlList(spec.url).map((u) => normalizeUrl(u, o));
  const referer = Object.entries(spec.headers ?? {}).find(([k]) => k.toLowerCase() === 'referer')?.[1];
  const wantedReferer = typeof referer === 'string' ? normalizeUrl(referer, o) : null;
  return events.filter((e) => {
    if (e.method !== spec.http_method.toUpperCase()) return false;
    const url = normalizeUrl(e.url, o);
    if (!wanted.some((w) => samePath(url, w))) return false;
    const got = e.requestHeaders.get('referer');
    return !(wantedReferer && got && !samePath(normalizeUrl(got, o), wantedReferer));
  });
}

export function evaluateNetworkEvents(
  config: NetworkEventEvaluatorConfig,
  events: readonly NetworkEvent[],
  ctx: NetworkEvalContext,
): EvaluatorResult {
  const name = 'NetworkEventEvaluator';
  const matching = candidates(events, config, ctx);
  const selected =
    config.last_event_only && matching.length > 0 ? [matching[matching.length - 1]!] : matching;
  const what = `${config.expected.http_method} ${urlList(config.expected.url).join(' or ')}`;
  if (config.should_not_exist)
    return selected.length === 0
      ? { evaluator: name, score: 1, why: `no ${what}, as the task requires` }
      : { evaluator: name, score: 0, why: `${selected.length} event(s) ${what} where none may be` };
  if (selected.length === 0)
    return { evaluator: name, score: 0, why: `no ${what} among ${events.length} event(s)` };
  let first: string[] = [];
  for (const event of selected) {
    const fails = eventDifferences(event, config, ctx);
    if (fails.length === 0) return { evaluator: name, score: 1, why: `${event.method} ${event.url} matches` };
    if (first.length === 0) first = fails;
  }
  const which = config.last_event_only
    ? 'the last matching event'
    : `none of ${selected.length} matching event(s)`;
  return { evaluator: name, score: 0, why: `${which}: ${first.join('; ')}` };
}
