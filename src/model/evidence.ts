// Whether an answer on a page stands by what the task names, and how near:
// - 'row': its row, or an element just above it, holds a text of two or more words that the task
//   quotes whole (the encoder's context_inside_task): a post's comment count beside its title;
// - 'section': a heading before it in its section does: a price under the product's heading.
// "5 comments" in another post's row, or a count in a sidebar, does not. Collection's stop probes
// (src/search/stop-probes.ts) keep only such answers: trying every answer of a page finds the
// reference by coincidence on pages that do not answer the task.
// `counted` says whether the text an answer is read from names what the task counts ("2 reviews"
// for "How many customer reviews …"): a small number is probed only with that and a row.
import { treeOf } from './candidates.js';
import { featuresOf, type PolicyFeatures } from './features.js';
import { SCALAR_SIZE, SCALARS } from './layout.js';
import { matchKey } from './match-words.js';
import { STOP_WORDS, tokens } from './text.js';
import type { PolicyInput } from './types.js';

const INSIDE = SCALARS.indexOf('context_inside_task');
/** how far up a section may start above the answer */
const SECTION_LEVELS = 3;

const words = (text: string): string =>
  text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

export type Evidence = 'row' | 'section' | null;

/**
 * What a task asks to count: the words after "how many" or "number of" up to the first stop word
 * ("How many customer reviews does …" → customer, review), as match keys; empty when it asks none.
 */
export function countedWords(intent: string): Set<string> {
  const t = tokens(intent);
  const out = new Set<string>();
  for (let i = 0; i + 1 < t.length; i++) {
    if (!((t[i] === 'how' && t[i + 1] === 'many') || (t[i] === 'number' && t[i + 1] === 'of'))) continue;
    for (let j = i + 2; j < t.length && !STOP_WORDS.has(t[j]!); j++) out.add(matchKey(t[j]!));
  }
  return out;
}

/**
 * The page's candidate actions, each with how near it stands to what the task names and whether
 * its text names what the task counts; from the page's features when the caller has them (an env
 * worker sends them with its act request).
 */
export function candidatesWithEvidence(
  input: PolicyInput,
  features: Pick<PolicyFeatures, 'candidates' | 'scalars'> = featuresOf(input),
): (PolicyFeatures['candidates'][number] & { evidence: Evidence; counted: boolean })[] {
  const { nodes } = input;
  const tree = treeOf(nodes);
  const task = ` ${words(input.intent)} `;
  const counting = countedWords(input.intent);
  const quoted = (j: number): boolean => {
    const w = words(nodes.names[j] ?? '');
    return w.includes(' ') && task.includes(` ${w} `);
  };
  const headed = (i: number): boolean => {
    for (let a = tree.parent[i]!, up = 0; a >= 0 && up < SECTION_LEVELS; a = tree.parent[a]!, up++) {
      if (nodes.roles[a] === 'RootWebArea') break;
      for (let j = a + 1; j < i; j++) if (nodes.roles[j] === 'heading' && quoted(j)) return true;
    }
    return false;
  };
  // the text an answer is read from ("(5 reviews)" of the part "5"); a count the policy computed
  // (the rows of a column that mention a task word) is read from no text
  const counted = (c: PolicyFeatures['candidates'][number]): boolean =>
    counting.size > 0 &&
    c.kind === 'answer' &&
    (c.source === 'node' || c.source === 'part') &&
    tokens(nodes.names[c.node] ?? '').some((w) => counting.has(matchKey(w)));
  return features.candidates.map((c, k) => ({
    ...c,
    evidence:
      features.scalars[k * SCALAR_SIZE + INSIDE]! > 0
        ? 'row'
        : c.node >= 0 && headed(c.node)
          ? 'section'
          : null,
    counted: counted(c),
  }));
}
