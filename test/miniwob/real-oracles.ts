// Scripted oracles for kinds of page on MiniWoB++'s real pages (../shared/data/miniwob/html): a
// list longer than its box, a date picker, an autocomplete, answers on a later page, a flow that
// leaves the inbox and comes back, a booking form with all of them, a drag and a text selection.
// Each reads only the intent and the observation, and takes only actions the untrained policy's
// candidates offer at that step (it scrolls until the element's click is offered), so a success
// shows the candidate set holds a path to it. The pages' own words (labels, button names) are
// read here, in the test; nothing in src/ knows them.
import type { ObservationNode } from '../../src/envs/index.js';
import { observationColumns } from '../../src/envs/index.js';
import { buildCandidates, type Candidate } from '../../src/model/index.js';
import { MINIWOB_VIEWPORT } from '../../src/suites/miniwob/index.js';
import { type PageDriver, StandinOracleError } from './standin-oracles.js';

/** The candidates of the driver's current page, as the env worker would have asked. */
export function candidatesNow(d: PageDriver): Candidate[] {
  return buildCandidates({
    intent: d.intent,
    url: d.obs.url,
    nodes: observationColumns(d.obs.nodes, MINIWOB_VIEWPORT),
    history: d.steps.map((s) => s.action),
    step: d.steps.length,
    horizon: 30,
    note: d.obs.notes.length > 0 ? d.obs.notes.join('\n') : null,
    offers: d.offers,
  });
}

const offered = (d: PageDriver, action: string) => candidatesNow(d).some((c) => c.action === action);

/** Clicks the picked node once its click is a candidate, scrolling (as offered) until it is. */
async function click(d: PageDriver, pick: () => ObservationNode | undefined, what: string): Promise<void> {
  for (let k = 0; k < 10; k++) {
    const n = pick();
    if (!n) throw new StandinOracleError(`no ${what} in:\n${d.obs.text}`);
    if (offered(d, `Click [${n.id}]`)) return d.act({ type: 'click', elementId: n.id });
    const up = n.bounds !== null && n.bounds[1] + n.bounds[3] <= 0;
    await d.act({ type: 'scroll', direction: up ? 'up' : 'down', by: 'two-thirds' });
  }
  throw new StandinOracleError(`${what} never became a candidate`);
}

async function type(d: PageDriver, pick: () => ObservationNode | undefined, text: string, what: string) {
  const n = pick();
  if (!n) throw new StandinOracleError(`no ${what} in:\n${d.obs.text}`);
  await d.act({ type: 'type', elementId: n.id, text, pressEnter: true, clearFirst: true });
}

const text = (d: PageDriver, name: string) =>
  d.maybe((n) => n.role === 'StaticText' && n.name.trim() === name && n.bounds !== null);
const submit = (d: PageDriver) => click(d, () => d.named('button', 'Submit'), 'Submit button');

function match(intent: string, re: RegExp): RegExpExecArray {
  const m = re.exec(intent);
  if (!m) throw new StandinOracleError(`${JSON.stringify(intent)} does not match ${re}`);
  return m;
}

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** A jQuery UI date picker, open: Prev/Next to the month, then the day. */
async function pickDate(d: PageDriver, month: number, day: number, year: number): Promise<void> {
  for (let k = 0; k < 24; k++) {
    const shown = d.nodes.findIndex((n) => MONTHS.includes(n.name.trim()));
    if (shown < 0) throw new StandinOracleError(`no month shown:\n${d.obs.text}`);
    const at = MONTHS.indexOf(d.nodes[shown]!.name.trim()) + 12 * Number(d.nodes[shown + 2]?.name);
    const want = month - 1 + 12 * year;
    if (at === want) break;
    const way = at > want ? 'Prev' : 'Next';
    await click(d, () => d.named('link', way) ?? d.link(way), way);
  }
  await click(d, () => d.named('link', String(day)), `day ${day}`);
}

type Oracle = (d: PageDriver) => Promise<void>;

/** The oracle of each page, by the kind of page it stands for. */
export const REAL_ORACLES: Record<string, { kind: string; oracle: Oracle }> = {
  'click-scroll-list': {
    kind: 'a list longer than its box',
    oracle: async (d) => {
      const wanted = match(d.intent, /^Select (.+) from the scroll list/)[1]!.split(', ');
      const list = d.find((n) => n.role === 'listbox', 'the list');
      for (const option of wanted) await d.act({ type: 'select_option', elementId: list.id, option });
      await submit(d);
    },
  },
  'choose-date': {
    kind: 'a date picker',
    oracle: async (d) => {
      const [, m, day, y] = match(d.intent, /Select (\d+)\/(\d+)\/(\d+) as the date/);
      await click(d, () => d.maybe((n) => n.role === 'textbox'), 'date field');
      await pickDate(d, Number(m), Number(day), Number(y));
      // The picker fades out over Submit after a day is picked: the env's click waits the fade out.
      await submit(d);
    },
  },
  'use-autocomplete-nodelay': {
    kind: 'an autocomplete',
    oracle: async (d) => {
      const [, start, end] = match(d.intent, /starts with "([^"]+)"(?: and ends with "([^"]+)")?/);
      await type(d, () => d.maybe((n) => n.role === 'textbox'), start!, 'Tags field');
      await click(
        d,
        () =>
          d.maybe(
            (n) =>
              n.role === 'StaticText' &&
              n.bounds !== null &&
              n.name !== start &&
              n.name.startsWith(start!) &&
              (end === undefined || n.name.endsWith(end)),
          ),
        'the option',
      );
      await submit(d);
    },
  },
  'phone-book': {
    kind: 'an answer on a later page',
    oracle: async (d) => {
      const [, who, field] = match(d.intent, /^Find (.+?) in the contact book and click on their (\w+)/);
      for (let k = 0; k < 12 && !d.named('heading', who!); k++)
        await click(d, () => d.named('link', '>'), 'next page');
      const at = d.nodes.findIndex((n) => n.role === 'heading' && n.name === who);
      if (at < 0) throw new StandinOracleError(`no ${who} on any page`);
      const label = { phone: 'Phone:', email: 'Email:', address: 'Address:' }[field!]!;
      const from = at + d.nodes.slice(at).findIndex((n) => n.name.trim() === label);
      await click(d, () => d.nodes.slice(from).find((n) => n.role === 'link'), `${who}'s ${field}`);
    },
  },
  'email-inbox-reply': {
    kind: 'a flow that leaves the inbox and comes back',
    oracle: async (d) => {
      const [, who, reply] = match(d.intent, /email by (\S+) and reply to them with the text "(.+)"/);
      await click(d, () => text(d, who!), `${who}'s email`);
      await click(d, () => text(d, 'Reply'), 'Reply');
      await type(d, () => d.maybe((n) => n.role === 'textbox'), reply!, 'the reply');
      await click(d, () => sendIcon(d), 'send');
    },
  },
  'book-flight-nodelay': {
    kind: 'a booking form: autocompletes, a date picker, results below the fold',
    oracle: async (d) => {
      const [, from, to, m, day, y] = match(d.intent, /from: (.+?) to: (.+?) on (\d+)\/(\d+)\/(\d+)\./);
      for (const [field, place] of [
        ['From:', from!],
        ['To:', to!],
      ] as const) {
        const typed = place.split(',')[0]!;
        await type(d, () => d.named('textbox', field), typed, field);
        await click(
          d,
          () =>
            d.maybe(
              (n) =>
                n.role === 'StaticText' && n.fresh === true && n.name !== typed && n.name.includes(typed),
            ),
          `${place} among the options`,
        );
      }
      await click(d, () => d.maybe((n) => n.role === 'textbox' && n.name === ''), 'the date field');
      await pickDate(d, Number(m), Number(day), Number(y));
      await click(d, () => d.named('button', 'Search'), 'Search');
      const minutes = (t: string) => {
        const [, h, min] = match(t, /(\d+)h (\d+)m/);
        return Number(h) * 60 + Number(min);
      };
      const durations = d.nodes.filter((n) => /^\d+h \d+m$/.test(n.name.trim()));
      const books = () => d.nodes.filter((n) => n.role === 'button' && n.name.startsWith('Book flight'));
      if (durations.length === 0 || durations.length !== books().length)
        throw new StandinOracleError(`no results:\n${d.obs.text}`);
      let best = 0;
      durations.forEach((n, k) => {
        if (minutes(n.name) < minutes(durations[best]!.name)) best = k;
      });
      const id = books()[best]!.id;
      await click(d, () => books().find((n) => n.id === id), 'the shortest flight');
    },
  },
  'drag-items': {
    kind: 'a sortable list (a drag)',
    oracle: async (d) => {
      const items = d.nodes.filter((n) => n.role === 'StaticText' && n.bounds !== null);
      const [, name, where, nth] = match(
        d.intent,
        /^Drag (.+?) (to the top|to the bottom|down by one position|up by one position|to the (\d)\w\w position)\.$/,
      );
      const from = items.findIndex((n) => n.name.trim() === name);
      if (from < 0) throw new StandinOracleError(`no item ${name}`);
      const to =
        where === 'to the top'
          ? 0
          : where === 'to the bottom'
            ? items.length - 1
            : where === 'down by one position'
              ? from + 1
              : where === 'up by one position'
                ? from - 1
                : Number(nth) - 1;
      await d.act({ type: 'drag', fromId: items[from]!.id, toId: items[to]!.id });
    },
  },
  'highlight-text': {
    kind: 'a text to select',
    oracle: async (d) => {
      const paragraph = d.find((n) => n.role === 'StaticText' && n.bounds !== null, 'the paragraph');
      const at = d.nodes.indexOf(paragraph);
      // the drag across the paragraph that the candidates offer
      const across = candidatesNow(d).find((c) => c.action.startsWith('MouseDrag') && c.node === at);
      const m = /^MouseDrag \[(\d+)\] \[(\d+)\] \[(\d+)\] \[(\d+)\]$/.exec(across?.action ?? '');
      if (!m) throw new StandinOracleError(`no drag across the paragraph among the candidates`);
      const [fromX, fromY, toX, toY] = m.slice(1).map(Number) as [number, number, number, number];
      await d.act({ type: 'mouse_drag', fromX, fromY, toX, toY });
      await submit(d);
    },
  },
};

/** The inbox's send icon: the right-most clickable image of the reply's header. */
function sendIcon(d: PageDriver): ObservationNode | undefined {
  return d.nodes
    .filter((n) => n.role === 'image' && n.clickable && n.bounds !== null && n.bounds[1] < 70)
    .sort((a, b) => b.bounds![0] - a.bounds![0])[0];
}
