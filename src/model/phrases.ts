// The task's phrases a person would type or answer with, worked out once per task text.
import { Memo } from './memo.js';
import { clean, contentTokens } from './text.js';

/**
 * Phrases of the task a person would type or answer with: quoted spans, runs of capitalised
 * words and numbers ("Cindral Smart T-Shirt", "Sprint 23", "2509 Sunset Blvd"), names with a
 * slash ("byteblaze/chat-widget"), and numbers on their own. Deterministic, in intent order.
 */
export function intentPhrases(intent: string): string[] {
  return [...phrasesOf(intent)];
}

function computeIntentPhrases(intent: string): string[] {
  const out: string[] = [];
  const add = (s: string, trim = true) => {
    let c = clean(s);
    if (trim) c = c.replace(/^[,.;:!?]+|[,;:!?]+$/g, '');
    if (c && !out.includes(c)) out.push(c);
  };
  // Quoted spans are typed as they are ("… kettlebells?", "… helpful!").
  for (const m of intent.matchAll(/"([^"]+)"|“([^”]+)”|(?:^|\s)'([^']+)'(?=[\s,.?!]|$)/g))
    add(m[1] ?? m[2] ?? m[3] ?? '', false);
  const unquoted = intent.replace(/"[^"]*"|“[^”]*”/g, ' | ');
  // Words keep inner punctuation (T-Shirt, E., v2.5, #23); commas and other marks end a run.
  const words = [...unquoted.matchAll(/[^\s,;:!?()|]+|[,;:!?()|]/g)].map((m) => m[0]);
  let run: string[] = [];
  const flush = () => {
    while (run.length > 0 && run[run.length - 1] === '&') run.pop();
    if (run.length > 0) {
      add(run.join(' '));
      // "NC 63021" → also "NC": a form has a field for each
      let k = run.length;
      while (k > 1 && /^\d[\d,.]*$/.test(run[k - 1]!)) k -= 1;
      if (k < run.length) add(run.slice(0, k).join(' '));
    }
    run = [];
  };
  const sentenceEnd = (w: string) => w.endsWith('.') && w.length > 2 && !/^[A-Z]\.$/.test(w);
  words.forEach((w, i) => {
    const bare = w.replace(/[.]+$/, '');
    const capital = /^[A-Z]/.test(w) && !(i === 0 || w === 'I');
    const numeric = /\d/.test(w);
    // "Juniper & Co": an ampersand joins capitalised words
    if ((capital || numeric || (w === '&' && run.length > 0)) && bare) run.push(sentenceEnd(w) ? bare : w);
    else flush();
    if (sentenceEnd(w)) flush();
  });
  flush();
  for (const w of words) {
    if (w.includes('/') && /[a-z]/i.test(w)) add(w.replace(/[.]+$/, ''));
    if (/^#?\d[\d,.]*$/.test(w)) add(w.replace(/[.,]+$/, ''));
  }
  return out;
}

// An episode asks with the same task at every step, so its phrases are worked out once.
const phraseMemo = new Memo<readonly string[]>(1024, computeIntentPhrases);
export const phrasesOf = (intent: string): readonly string[] => phraseMemo.get(intent);
export const intentWordMemo = new Memo<readonly string[]>(1024, contentTokens);
