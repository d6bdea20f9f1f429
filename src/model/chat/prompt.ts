// Prompt templates (prompts/*.json) and the conversation a chat policy sees at one step, built the
// way TTI builds it: a system turn, then alternating user (observation + screenshot) and assistant
// (the earlier replies) turns; once there is history, older observations are replaced by an
// "omitted" line (the first turn keeps its instructions), and only the newest `maxImages`
// screenshots stay. The SFT export builds its samples with the same function, so a fine-tuned model
// is trained on exactly what it will be shown.
import { existsSync, readFileSync } from 'node:fs';
import { z } from 'zod';
import { type ChatTurn, type ContentPart, promptFile } from '../../chat/index.js';
import { FAILURE_NOTE_PREFIXES, RECHECK_NOTE } from '../../envs/without-browser.js';

export const PromptTemplates = z.strictObject({
  system: z.string(),
  /** placeholders: {task_goal} {hint} */
  initial: z.string().includes('{task_goal}', { message: 'must contain {task_goal}' }),
  /** per-site hints by site name (WebArena's sites, WebVoyager's web_name); "general" is the fallback */
  hint: z.record(z.string(), z.string()),
  /** placeholders: {url} {accessibility_tree} */
  observation: z.string().includes('{accessibility_tree}', { message: 'must contain {accessibility_tree}' }),
  /** placeholder: {error} */
  error: z.string().includes('{error}', { message: 'must contain {error}' }),
  recheck: z.string(),
  omitted: z.string(),
  /**
   * per answer format a suite may ask for (offers.answer), the ANSWER line that replaces the
   * template's own: WebArena-Verified's asks for their JSON response
   */
  answer_formats: z
    .record(z.string(), z.string().regex(/^ANSWER \[/, { message: 'must start with "ANSWER ["' }))
    .optional(),
});
export type PromptTemplates = z.infer<typeof PromptTemplates>;

/** Reads and checks a template file; errors name the file and the key. */
export function loadPromptTemplates(name: string): PromptTemplates {
  const file = promptFile(name, '.json');
  if (!existsSync(file)) throw new Error(`prompt templates ${file} do not exist (chat.prompt: ${name})`);
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`${file}: not JSON (${(error as Error).message})`);
  }
  const parsed = PromptTemplates.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`${file}: key ${issue?.path.join('.') || '(top)'}: ${issue?.message ?? 'invalid'}`);
  }
  return parsed.data;
}

/** What the policy has seen of an episode up to the current step. */
export interface EpisodeContext {
  intent: string;
  /** the task's first site (WebArena) or web_name (WebVoyager), for the hint */
  site: string;
  /** the current observation */
  url: string;
  observation: string;
  /** the env's note on the current observation (invalid action, re-check), or null */
  note: string | null;
  /** the episode's earlier replies, full text, oldest first; their count is the step index */
  replies: readonly string[];
  /** screenshot URLs (data: URLs or file paths) by step index; steps without one have none */
  images: ReadonlyMap<number, string>;
  /** the actions the task offers beyond the page's own (absent: stop is offered) */
  offers?: {
    stop: boolean;
    navigation?: boolean;
    answer?: 'text' | 'webarena-verified';
    /** the pointer actions the page needs (a drag, a point, a text selection); absent: none */
    pointer?: readonly ('drag' | 'point' | 'text_selection' | 'stroke')[];
  };
}

/** The line of the instructions that offers ANSWER (stop): it starts so in every template. */
const STOP_LINE = /^ANSWER \[/;
/** The line that offers going back (the templates' one navigation action). */
const NAVIGATION_LINE = /^GoBack\b/;

/**
 * The ANSWER line in the form the task wants its answer (a suite's `offers.answer`): the template's
 * line for that format; a format the template has no line for is an error, not a silent free-text
 * answer that every verdict would then refuse.
 */
function answerFormatted(t: PromptTemplates, text: string, offers: EpisodeContext['offers']): string {
  const format = offers?.answer;
  if (format === undefined || format === 'text' || offers?.stop === false) return text;
  const line = t.answer_formats?.[format];
  if (line === undefined)
    throw new Error(
      `the prompt templates have no answer_formats.${format}: the task wants its answer in that form`,
    );
  return text
    .split('\n')
    .map((l) => (STOP_LINE.test(l) ? line : l))
    .join('\n');
}

/** The instructions without the lines of actions the task does not offer (MiniWoB++ offers no ANSWER, no GoBack). */
function offeredOnly(text: string, offers: EpisodeContext['offers']): string {
  const hidden = [
    ...(offers?.stop === false ? [STOP_LINE] : []),
    ...(offers?.navigation === false ? [NAVIGATION_LINE] : []),
  ];
  if (hidden.length === 0) return text;
  return text
    .split('\n')
    .filter((line) => !hidden.some((h) => h.test(line)))
    .join('\n');
}

/** The action lines of the pointer actions, by the page's need; the templates have none of their own. */
const POINTER_LINES = {
  drag: [
    'Drag [n] [m]: press on element n, move onto element m and release it there.',
    'MouseDrag [x1] [y1] [x2] [y2]: press at point (x1, y1), move to (x2, y2) and release (CSS pixels from the top left of the page as shown).',
  ],
  point: ['MouseClick [x] [y]: click at point (x, y) (CSS pixels from the top left of the page as shown).'],
  text_selection: [
    'MouseDrag [x1] [y1] [x2] [y2]: press at point (x1, y1), move to (x2, y2) and release (CSS pixels from the top left of the page as shown); across a text it selects the text.',
  ],
  stroke: [
    'MouseDown [x] [y]: move to point (x, y) and press the mouse button, held until MouseUp.',
    'MouseMove [x] [y]: move to point (x, y) (with the button held, the stroke passes through it).',
    'MouseUp [x] [y]: move to point (x, y) and release the button.',
  ],
} as const;
/** The last of the templates' own action lines, after which the pointer lines go. */
const ACTION_LINE = /^(Click|Type|Scroll|GoBack|Wait|Hover|Select)\b/;

/** The instructions with the pointer actions the page needs (MiniWoB++'s drag and point pages) after the others. */
function withPointer(text: string, offers: EpisodeContext['offers']): string {
  const needs = offers?.pointer ?? [];
  if (needs.length === 0) return text;
  // one MouseDrag line: the drag's wording covers selecting a text too
  const added = [...new Set(needs.flatMap((n) => POINTER_LINES[n]))].filter(
    (line, k, all) => !line.startsWith('MouseDrag') || all.findIndex((l) => l.startsWith('MouseDrag')) === k,
  );
  const lines = text.split('\n');
  let at = -1;
  lines.forEach((line, k) => {
    if (ACTION_LINE.test(line)) at = k;
  });
  lines.splice(at < 0 ? lines.length : at + 1, 0, ...added);
  return lines.join('\n');
}

function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) => values[key] ?? whole);
}

/** The user text of a step's note: failures through the error template, the re-check request through its own. */
function noteText(t: PromptTemplates, note: string | null): string[] {
  const out: string[] = [];
  const lines = (note ?? '').split('\n').filter((l) => l.trim() !== '');
  const failures = lines.filter((l) => FAILURE_NOTE_PREFIXES.some((p) => l.startsWith(p)));
  if (failures.length > 0)
    out.push(fill(t.error, { error: failures.map((l) => l.replace(/^Invalid action: /, '')).join('; ') }));
  // The env adds it after an ANSWER that is not final yet (min_try), as TTI does.
  if (lines.includes(RECHECK_NOTE)) out.push(t.recheck);
  return out;
}

/**
 * The messages for the current step. Earlier user turns carry only "omitted" text (the first also
 * its instructions) and their screenshot while it is among the newest `maxImages`.
 */
export function buildConversation(t: PromptTemplates, ctx: EpisodeContext, maxImages: number): ChatTurn[] {
  const step = ctx.replies.length;
  const hint = t.hint[ctx.site] ?? t.hint.general ?? '';
  const initial = answerFormatted(
    t,
    withPointer(offeredOnly(fill(t.initial, { task_goal: ctx.intent, hint }), ctx.offers), ctx.offers),
    ctx.offers,
  ).trimEnd();
  const withImages = [...ctx.images.keys()]
    .filter((s) => s <= step)
    .sort((a, b) => b - a)
    .slice(0, maxImages);
  const messages: ChatTurn[] = [{ role: 'system', content: t.system }];
  for (let i = 0; i <= step; i++) {
    const current = i === step;
    const texts: string[] = [];
    if (i === 0) texts.push(initial);
    if (current) {
      texts.push(...noteText(t, ctx.note));
      texts.push(fill(t.observation, { url: ctx.url, accessibility_tree: ctx.observation }));
    } else {
      texts.push(t.omitted);
    }
    const content: ContentPart[] = [{ type: 'text', text: texts.join('\n\n') }];
    const image = withImages.includes(i) ? ctx.images.get(i) : undefined;
    if (image !== undefined) content.push({ type: 'image_url', image_url: { url: image } });
    messages.push({ role: 'user', content });
    const reply = ctx.replies[i];
    if (!current && reply !== undefined) messages.push({ role: 'assistant', content: reply });
  }
  return messages;
}

export function jpegDataUrl(jpeg: Buffer): string {
  return `data:image/jpeg;base64,${jpeg.toString('base64')}`;
}
