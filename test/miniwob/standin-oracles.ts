// Scripted oracles for tti's MiniWoB++ stand-in pages (test/fixtures/miniwob/html/miniwob). Each
// reads only what a policy gets, the intent and the observation's nodes, and acts only through the
// env's actions: Click, TTI's Type (clear, type, Enter), Scroll, and Select for a <select>. Every
// step is reported with the policy input the env worker would have sent, so a test can check the
// untrained policy's candidates hold the oracle's action.
import type { Action, BrowserEnv, Observation, ObservationNode, StepResult } from '../../src/envs/index.js';
import { observationColumns } from '../../src/envs/index.js';
import type { ActionOffers, PolicyInput } from '../../src/model/index.js';

export class StandinOracleError extends Error {
  override name = 'StandinOracleError';
}

/** One oracle step: what the policy would have been asked, and the oracle's answer in its words. */
export interface OracleStep {
  input: PolicyInput;
  /** the oracle's action as the policy's canonical action string */
  action: string;
}

/** The policy's canonical string for an action the oracles take. */
export function canonical(action: Action): string {
  switch (action.type) {
    case 'click':
      return `Click [${action.elementId}]`;
    case 'type':
      return `Type [${action.elementId}] [${action.text}]`;
    case 'select_option':
      return `Select [${action.elementId}] [${action.option}]`;
    case 'scroll':
      return `Scroll [${action.direction}]`;
    case 'drag':
      return `Drag [${action.fromId}] [${action.toId}]`;
    case 'mouse_click':
      return `MouseClick [${action.x}] [${action.y}]`;
    case 'mouse_drag':
      return `MouseDrag [${action.fromX}] [${action.fromY}] [${action.toX}] [${action.toY}]`;
    default:
      throw new StandinOracleError(`the oracles do not ${action.type}`);
  }
}

/** Drives one MiniWoB++ episode: the page, not a stop, ends it. */
export class PageDriver {
  obs: Observation;
  result: StepResult | null = null;
  readonly steps: OracleStep[] = [];
  /** every observation of the episode, the first included */
  readonly observations: Observation[];

  constructor(
    private readonly env: BrowserEnv,
    first: Observation,
    readonly intent: string,
    private readonly viewport: { width: number; height: number },
    /** what the task offers (a page's pointer needs among them) */
    readonly offers: ActionOffers = { stop: false },
  ) {
    this.obs = first;
    this.observations = [first];
  }

  get nodes(): ObservationNode[] {
    return this.obs.nodes;
  }

  get done(): boolean {
    return this.result !== null;
  }

  async act(action: Action): Promise<void> {
    if (this.result) throw new StandinOracleError('the episode is already over');
    const text = canonical(action);
    this.steps.push({
      input: {
        intent: this.intent,
        url: this.obs.url,
        nodes: observationColumns(this.obs.nodes, this.viewport),
        history: this.steps.map((s) => s.action),
        step: this.steps.length,
        horizon: 30,
        note: this.obs.notes.length > 0 ? this.obs.notes.join('\n') : null,
        offers: this.offers,
      },
      action: text,
    });
    const r = await this.env.step(action);
    if (r.done) {
      this.result = r;
      return;
    }
    this.obs = r.observation!;
    this.observations.push(this.obs);
    const failed = this.obs.notes.find((n) => n.includes('failed') || n.startsWith('Invalid action'));
    if (failed) throw new StandinOracleError(`${text}: ${failed}`);
  }

  maybe(pred: (n: ObservationNode) => boolean): ObservationNode | undefined {
    return this.nodes.find(pred);
  }

  find(pred: (n: ObservationNode) => boolean, what: string): ObservationNode {
    const n = this.maybe(pred);
    if (!n) throw new StandinOracleError(`no ${what} in:\n${this.obs.text}`);
    return n;
  }

  named(role: string, name: string): ObservationNode | undefined {
    return this.maybe((n) => n.role === role && n.name.trim() === name);
  }

  /** A text that takes clicks (a <span> link, a tree entry, a suggestion). */
  link(text: string): ObservationNode | undefined {
    return this.maybe((n) => n.role === 'StaticText' && n.clickable && n.name.trim() === text);
  }

  private inView(n: ObservationNode): boolean {
    if (!n.bounds) return false;
    const cy = n.bounds[1] + n.bounds[3] / 2;
    return cy >= 0 && cy < this.viewport.height && n.bounds[2] > 0 && n.bounds[3] > 0;
  }

  /** Scrolls (TTI's Scroll) until the picked node's centre is in the viewport. */
  private async reveal(pick: () => ObservationNode | undefined, what: string): Promise<ObservationNode> {
    for (let k = 0; ; k++) {
      const n = pick();
      if (!n?.bounds) throw new StandinOracleError(`no ${what} in:\n${this.obs.text}`);
      if (this.inView(n)) return n;
      if (k >= 6) throw new StandinOracleError(`${what} stays out of view`);
      const cy = n.bounds[1] + n.bounds[3] / 2;
      await this.act({ type: 'scroll', direction: cy < 0 ? 'up' : 'down', by: 'two-thirds' });
    }
  }

  async click(pick: () => ObservationNode | undefined, what: string): Promise<void> {
    const n = await this.reveal(pick, what);
    await this.act({ type: 'click', elementId: n.id });
  }

  /** TTI's Type: click, clear, type, press Enter. */
  async type(pick: () => ObservationNode | undefined, text: string, what: string): Promise<void> {
    const n = await this.reveal(pick, what);
    await this.act({ type: 'type', elementId: n.id, text, pressEnter: true, clearFirst: true });
  }

  async select(pick: () => ObservationNode | undefined, option: string, what: string): Promise<void> {
    const n = await this.reveal(pick, what);
    await this.act({ type: 'select_option', elementId: n.id, option });
  }
}

/** The quoted spans of an utterance, in order. */
function quotes(intent: string): string[] {
  return [...intent.matchAll(/"([^"]+)"/g)].map((m) => m[1]!);
}

function quote(intent: string, k = 0): string {
  const q = quotes(intent)[k];
  if (q === undefined) throw new StandinOracleError(`no quoted text ${k + 1} in ${JSON.stringify(intent)}`);
  return q;
}

function ordinal(intent: string): number {
  const m = /\b(\d+)(?:st|nd|rd|th)\b/.exec(intent);
  if (!m) throw new StandinOracleError(`no ordinal in ${JSON.stringify(intent)}`);
  return Number(m[1]);
}

function match(intent: string, re: RegExp): RegExpExecArray {
  const m = re.exec(intent);
  if (!m) throw new StandinOracleError(`${JSON.stringify(intent)} does not match ${re}`);
  return m;
}

type Oracle = (d: PageDriver) => Promise<void>;

const submit = (d: PageDriver) => d.click(() => d.named('button', 'Submit'), 'Submit button');

/** The oracle of each stand-in page, by task name. */
export const STANDIN_ORACLES: Record<string, Oracle> = {
  'click-named-button': async (d) => {
    const name = quote(d.intent);
    await d.click(() => d.named('button', name), `button ${name}`);
  },

  'type-word-submit': async (d) => {
    await d.type(() => d.maybe((n) => n.role === 'textbox'), quote(d.intent), 'text field');
    await submit(d);
  },

  'span-link': async (d) => {
    const word = quote(d.intent);
    await d.click(() => d.link(word), `link ${word}`);
  },

  'focus-textbox': async (d) => {
    const k = ordinal(d.intent);
    await d.click(() => d.nodes.filter((n) => n.role === 'textbox')[k - 1], `text box ${k}`);
  },

  'expand-tree': async (d) => {
    const file = quote(d.intent);
    const opened = new Set<string>();
    // The oracle does not know where the file is: it opens folders in order until the file shows.
    while (!d.link(file)) {
      const folder = d.maybe(
        (n) => n.role === 'StaticText' && n.clickable && n.name.endsWith('/') && !opened.has(n.name),
      );
      if (!folder) throw new StandinOracleError(`every folder is open and no file ${file}:\n${d.obs.text}`);
      opened.add(folder.name);
      await d.click(() => d.link(folder.name), `folder ${folder.name}`);
    }
    await d.click(() => d.link(file), `file ${file}`);
  },

  autocomplete: async (d) => {
    const [prefix, suffix] = [quote(d.intent, 0), quote(d.intent, 1)];
    await d.type(() => d.maybe((n) => n.role === 'textbox'), prefix, 'Tags field');
    const pick = () =>
      d.maybe(
        (n) => n.role === 'StaticText' && n.clickable && n.name.startsWith(prefix) && n.name.endsWith(suffix),
      );
    await d.click(pick, `suggestion ${prefix}…${suffix}`);
    await submit(d);
  },

  'date-form': async (d) => {
    await d.type(() => d.named('textbox', 'Name'), quote(d.intent, 0), 'Name field');
    await d.type(() => d.named('textbox', 'Date'), quote(d.intent, 1), 'Date field');
    await submit(d);
  },

  'inbox-actions': async (d) => {
    const [, sender, verb] = match(d.intent, /email by (\w+) and (delete|star|reply)/) as unknown as [
      string,
      string,
      'delete' | 'star' | 'reply',
    ];
    const button = { delete: 'Delete', star: 'Star', reply: 'Reply' }[verb];
    // The email's own button: the first one so named after the sender's name.
    const own = () => {
      const at = d.nodes.findIndex((n) => n.role === 'StaticText' && n.name === sender);
      return at < 0 ? undefined : d.nodes.slice(at).find((n) => n.role === 'button' && n.name === button);
    };
    await d.click(own, `${button} of ${sender}'s email`);
    if (verb !== 'reply') return;
    await d.type(() => d.named('textbox', 'Message'), quote(d.intent), 'message box');
    await d.click(() => d.named('button', 'Send'), 'Send button');
  },

  'tabs-link': async (d) => {
    const word = quote(d.intent);
    for (let tab = 2; !d.link(word); tab++) {
      if (tab > 3) throw new StandinOracleError(`no link ${word} behind any tab`);
      await d.click(() => d.named('link', `Tab #${tab}`), `Tab #${tab}`);
    }
    await d.click(() => d.link(word), `link ${word}`);
  },

  'checkbox-submit': async (d) => {
    const list = match(d.intent, /^Select (.+?)(?: and nothing else)?, then press Submit\.$/)[1]!;
    const words = list === 'nothing' ? [] : list.split(', ');
    for (const word of words) await d.click(() => d.named('checkbox', word), `checkbox ${word}`);
    await submit(d);
  },

  'search-pages': async (d) => {
    const query = quote(d.intent);
    const rank = ordinal(d.intent);
    await d.type(() => d.named('textbox', 'Search terms'), query, 'search box');
    const results = () => d.nodes.filter((n) => n.role === 'link' && n.name.startsWith(`${query} `));
    if (results().length === 0) await d.click(() => d.named('button', 'Search'), 'Search button');
    const page = Math.ceil(rank / 3);
    if (page > 1) await d.click(() => d.named('link', String(page)), `page ${page}`);
    await d.click(() => results()[(rank - 1) % 3], `result ${rank}`);
  },

  'login-form': async (d) => {
    await d.type(() => d.named('textbox', 'Username'), quote(d.intent, 0), 'Username field');
    await d.type(() => d.named('textbox', 'Password'), quote(d.intent, 1), 'Password field');
    await d.click(() => d.named('button', 'Login'), 'Login button');
  },

  'choose-list': async (d) => {
    const name = quote(d.intent);
    await d.select(() => d.named('combobox', 'Names'), name, 'the list');
    await submit(d);
  },
};
