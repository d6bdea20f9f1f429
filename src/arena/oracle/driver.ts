import {
  type Action,
  type BrowserEnv,
  describeAction,
  type Observation,
  type ObservationNode,
  type StepResult,
  stillLoading,
  VIEWPORT,
} from '../../envs/index.js';

/** The oracle could not go on: what it looked for and where. Becomes a failure's `why`. */
export class OracleError extends Error {
  override name = 'OracleError';
}

export type Pick = (d: Driver) => ObservationNode | undefined;

export interface TypeOptions {
  /** Press Enter after the text (submits a one-field form). Default false. */
  enter?: boolean;
  /** Clear the field first (TTI's Type; a prefilled field would otherwise keep its text). Default true. */
  clear?: boolean;
}

/** The final step's result: the scored record. */
export type DoneResult = StepResult & { done: true };

const MAX_SCROLLS = 12;

/**
 * Drives one episode through the env's action space only: every move is `env.step(action)`, and
 * every decision reads the observation the env returned (its node list: ids, roles, names, boxes).
 * Clicking or typing into an element outside the viewport first scrolls the window (each scroll
 * is a step), as mouse events at its box would otherwise miss.
 */
export class Driver {
  obs: Observation;
  steps = 0;
  loadWaits = 0;
  readonly actions: string[] = [];
  private done: DoneResult | null = null;

  constructor(
    private readonly env: BrowserEnv,
    first: Observation,
    private readonly viewportHeight = VIEWPORT.height,
  ) {
    this.obs = first;
  }

  get nodes(): ObservationNode[] {
    return this.obs.nodes;
  }

  get url(): string {
    return this.obs.url;
  }

  get result(): DoneResult | null {
    return this.done;
  }

  /**
   * One env step. Throws when the episode ends early (anything but the final stop). `steps` counts
   * the solution's steps only: a wait spent on a page that is still loading depends on the machine's
   * load, not on the task, and is counted in `loadWaits`.
   */
  async act(action: Action, forLoading = false): Promise<void> {
    if (this.done) throw new OracleError('the episode is already over');
    const r = await this.env.step(action);
    if (forLoading) this.loadWaits += 1;
    else this.steps += 1;
    this.actions.push(describeAction(action));
    if (r.done) {
      this.done = r as DoneResult;
      if (action.type !== 'stop')
        throw new OracleError(`the episode ended after ${action.type}: ${r.record?.endReason}`);
      return;
    }
    this.obs = r.observation!;
    const failed = this.obs.notes.find((n) => n.includes('failed'));
    if (failed) throw new OracleError(failed);
    // A page observed while still loading (the tree's root says busy): wait for it, as a person would.
    if (this.loading() && action.type !== 'wait') {
      for (let k = 0; k < 3 && this.loading(); k++) await this.act({ type: 'wait' }, true);
    }
  }

  /** The observed document is still loading (its root is marked busy). */
  loading(): boolean {
    return stillLoading(this.obs);
  }

  // ---- reading the observation ----------------------------------------------------------------

  /** The first node matching, or undefined. */
  maybe(pred: (n: ObservationNode, i: number) => boolean): ObservationNode | undefined {
    return this.nodes.find(pred);
  }

  /** The first node matching; throws an OracleError naming `what` and the page. */
  find(pred: (n: ObservationNode, i: number) => boolean, what: string): ObservationNode {
    const n = this.maybe(pred);
    if (!n) throw new OracleError(`no ${what} on ${this.pathOf(this.url)}`);
    return n;
  }

  /** Node with this role and exact name. */
  byName(role: string, name: string): ObservationNode | undefined {
    return this.maybe((n) => n.role === role && n.name === name);
  }

  indexOf(node: ObservationNode): number {
    return this.nodes.indexOf(node);
  }

  /** The nodes under `node` (deeper, until the tree comes back to its depth). */
  descendants(node: ObservationNode): ObservationNode[] {
    const i = this.indexOf(node);
    const out: ObservationNode[] = [];
    for (let k = i + 1; k < this.nodes.length; k++) {
      const n = this.nodes[k]!;
      if (n.depth <= node.depth) break;
      out.push(n);
    }
    return out;
  }

  /** The nodes after `node` until one matches `end` (exclusive). */
  until(node: ObservationNode, end: (n: ObservationNode) => boolean): ObservationNode[] {
    const out: ObservationNode[] = [];
    for (let k = this.indexOf(node) + 1; k < this.nodes.length; k++) {
      const n = this.nodes[k]!;
      if (end(n)) break;
      out.push(n);
    }
    return out;
  }

  /** Rows of a table as the texts of their cells (header rows included). */
  rows(table: ObservationNode): { row: ObservationNode; cells: ObservationNode[] }[] {
    const under = this.descendants(table);
    const out: { row: ObservationNode; cells: ObservationNode[] }[] = [];
    for (const n of under) {
      if (n.role === 'row') out.push({ row: n, cells: [] });
      else if ((n.role === 'cell' || n.role === 'columnheader') && out.length > 0)
        out[out.length - 1]!.cells.push(n);
    }
    return out;
  }

  linkUrl(n: ObservationNode): string {
    return n.properties.url ?? '';
  }

  pathOf(url: string): string {
    try {
      const u = new URL(url);
      return `${u.pathname}${u.search}`;
    } catch {
      return url;
    }
  }

  isVisible(n: ObservationNode): boolean {
    if (!n.bounds) return false;
    const cy = n.bounds[1] + n.bounds[3] / 2;
    return cy >= 0 && cy < this.viewportHeight && n.bounds[2] > 0 && n.bounds[3] > 0;
  }

  // ---- acting ---------------------------------------------------------------------------------

  /** Scrolls the window until the picked element's centre is in the viewport; returns it. */
  async reveal(pick: Pick, what: string): Promise<ObservationNode> {
    for (let k = 0; ; k++) {
      const n = pick(this);
      if (!n) throw new OracleError(`no ${what} on ${this.pathOf(this.url)}`);
      if (!n.bounds) throw new OracleError(`${what} has no position on ${this.pathOf(this.url)}`);
      if (this.isVisible(n)) return n;
      if (k >= MAX_SCROLLS) throw new OracleError(`${what} stays out of view on ${this.pathOf(this.url)}`);
      const cy = n.bounds[1] + n.bounds[3] / 2;
      // (Not the End key: Chrome scrolls for keys with an animation the next observation may catch
      // half-way, so the measured length would vary; the scroll action jumps.)
      await this.act({ type: 'scroll', direction: cy < 0 ? 'up' : 'down', by: 'page' });
    }
  }

  async click(pick: Pick, what: string): Promise<void> {
    const n = await this.reveal(pick, what);
    await this.act({ type: 'click', elementId: n.id });
  }

  async clickLink(name: string): Promise<void> {
    await this.click((d) => d.byName('link', name), `link "${name}"`);
  }

  async type(pick: Pick, text: string, what: string, opts: TypeOptions = {}): Promise<void> {
    const n = await this.reveal(pick, what);
    await this.act({
      type: 'type',
      elementId: n.id,
      text,
      pressEnter: opts.enter ?? false,
      clearFirst: opts.clear ?? true,
    });
  }

  /** The answer (or a bare stop): the last step, which scores the episode. */
  async stop(answer = ''): Promise<DoneResult> {
    await this.act({ type: 'stop', answer });
    return this.done!;
  }
}
