// Demonstrations for pretraining, from files: JSON lines of trajectories (a run's kept ones, the
// oracle's, a user's own recordings) or of chat-format SFT samples (`tti-run export-sft`, TTI's
// own data), whose observations are WebArena's accessibility-tree text. Every line is checked; a
// bad one is an error that names the file, the line and the field.
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { z } from 'zod';
import { freshIds } from '../util/index.js';
import type { NodeColumns, TrajectoryForTraining } from './types.js';

export class DemoFileError extends Error {
  override name = 'DemoFileError';
}

const column = <T extends z.ZodType>(item: T) => z.array(item);
const Nodes = z
  .object({
    ids: column(z.number().int()),
    roles: column(z.string()),
    names: column(z.string()),
    depths: column(z.number().int().nonnegative()),
    inViewport: column(z.number().int().min(0).max(1)).optional(),
    fresh: column(z.number().int().min(0).max(1)).optional(),
  })
  .passthrough()
  .superRefine((n, ctx) => {
    for (const key of ['roles', 'names', 'depths', 'inViewport', 'fresh'] as const) {
      const c = n[key];
      if (c !== undefined && c.length !== n.ids.length)
        ctx.addIssue({
          code: 'custom',
          path: [key],
          message: `has ${c.length} entries, ids has ${n.ids.length}`,
        });
    }
  });

const Step = z
  .object({
    url: z.string(),
    nodes: Nodes,
    note: z.string().nullable().optional(),
    /** the policy's reply ("Thought: … Action: …") or just the action */
    reply: z.string().optional(),
    action: z.string().nullable().optional(),
  })
  .passthrough()
  .refine((s) => typeof s.reply === 'string' || typeof s.action === 'string', {
    message: 'a step needs a reply or an action',
  });

const TrajectoryLine = z
  .object({
    intent: z.string().min(1),
    horizon: z.number().int().positive().optional(),
    /** a trajectory with reward ≤ 0 or success false is not a demonstration; it is skipped */
    reward: z.number().optional(),
    success: z.boolean().optional(),
    steps: z.array(Step).min(1),
  })
  .passthrough();

const SftLine = z.object({
  messages: z.array(
    z.object({
      role: z.string(),
      content: z.union([
        z.string(),
        z.array(z.object({ type: z.string(), text: z.string().optional() }).passthrough()),
      ]),
    }),
  ),
  metadata: z.object({ episode_id: z.string(), step: z.number().int().nonnegative() }).passthrough(),
});

function where(file: string, line: number, issue: z.core.$ZodIssue): string {
  const field = issue.path.length > 0 ? issue.path.join('.') : '(the line)';
  return `${file}:${line}: ${field}: ${issue.message}`;
}

const text = (content: z.infer<typeof SftLine>['messages'][number]['content']): string =>
  typeof content === 'string' ? content : content.map((p) => p.text ?? '').join('\n');

// "[12] link 'Home'" or with double quotes (Python's repr), then properties; tabs give the depth.
const TREE_LINE = /^(\t*)\[(\d+)\] (\S+) (?:'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)")/;

/** WebArena's accessibility-tree text as node columns (every node counted as in the viewport). */
export function parseAxTreeText(tree: string): NodeColumns {
  const nodes: NodeColumns = { ids: [], roles: [], names: [], depths: [], inViewport: [] };
  for (const line of tree.split('\n')) {
    const m = TREE_LINE.exec(line);
    if (!m) continue;
    nodes.ids.push(Number(m[2]));
    nodes.roles.push(m[3]!);
    nodes.names.push((m[4] ?? m[5] ?? '').replace(/\\(['"\\])/g, '$1'));
    nodes.depths.push(m[1]!.length);
    nodes.inViewport.push(1);
  }
  return nodes;
}

/** One SFT sample as a step: the task, the URL and tree of its last user turn, the assistant reply. */
function sftStep(
  sample: z.infer<typeof SftLine>,
): { intent: string | null; url: string; nodes: NodeColumns; reply: string } | null {
  const users = sample.messages.filter((m) => m.role === 'user').map((m) => text(m.content));
  const reply = [...sample.messages].reverse().find((m) => m.role === 'assistant');
  if (!reply || users.length === 0) return null;
  let intent: string | null = null;
  for (const u of users) {
    const m = /(?:^|\n)\s*(?:Task|OBJECTIVE|Objective|Goal):\s*(.+)/.exec(u);
    if (m) {
      intent = m[1]!.trim();
      break;
    }
  }
  const last = users[users.length - 1]!;
  const url = /(?:^|\n)\s*URL:\s*(\S+)/.exec(last)?.[1] ?? '';
  return { intent, url, nodes: parseAxTreeText(last), reply: text(reply.content) };
}

export interface DemoFileReport {
  trajectories: TrajectoryForTraining[];
  /** lines (or SFT episodes) left out: failed trajectories, SFT samples without a task */
  skipped: number;
  lines: number;
}

/**
 * Reads a demonstrations file. Trajectory lines are used as they are (their `reply`, else their
 * `action`); SFT lines are grouped by `metadata.episode_id` and ordered by `metadata.step`.
 */
export function readDemoFile(file: string, defaultHorizon = 30): DemoFileReport {
  let raw: string;
  try {
    raw = readFileSync(file, 'utf8');
  } catch (error) {
    throw new DemoFileError(`cannot read demos ${file}: ${(error as Error).message}`);
  }
  const reader = new DemoLines(file, defaultHorizon);
  for (const [k, line] of raw.split('\n').entries()) reader.line(line, k + 1);
  return reader.finish();
}

/**
 * The same, in a worker whose heartbeats must keep flowing: the file is read asynchronously and
 * the event loop is let go every `sliceMs` of parsing (a run's learner reads thousands of demos).
 */
export async function readDemoFileYielding(
  file: string,
  defaultHorizon = 30,
  sliceMs = 50,
): Promise<DemoFileReport> {
  let raw: string;
  try {
    raw = await readFile(file, 'utf8');
  } catch (error) {
    throw new DemoFileError(`cannot read demos ${file}: ${(error as Error).message}`);
  }
  const reader = new DemoLines(file, defaultHorizon);
  let sliceStart = performance.now();
  for (const [k, line] of raw.split('\n').entries()) {
    reader.line(line, k + 1);
    if (performance.now() - sliceStart >= sliceMs) {
      await yieldToLoop();
      sliceStart = performance.now();
    }
  }
  return reader.finish();
}

/** One file's lines, checked as they come: trajectories at once, SFT samples grouped at the end. */
class DemoLines {
  private trajectories: TrajectoryForTraining[] = [];
  private episodes = new Map<string, { step: number; s: NonNullable<ReturnType<typeof sftStep>> }[]>();
  private skipped = 0;
  private lines = 0;

  constructor(
    private readonly file: string,
    private readonly defaultHorizon: number,
  ) {}

  line(line: string, at: number): void {
    const file = this.file;
    if (!line.trim()) return;
    this.lines += 1;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      throw new DemoFileError(`${file}:${at}: not JSON (${(error as Error).message})`);
    }
    if (value !== null && typeof value === 'object' && 'messages' in value) {
      const parsed = SftLine.safeParse(value);
      if (!parsed.success) throw new DemoFileError(where(file, at, parsed.error.issues[0]!));
      const s = sftStep(parsed.data);
      if (!s) throw new DemoFileError(`${file}:${at}: messages: no user turn or no assistant reply`);
      const list = this.episodes.get(parsed.data.metadata.episode_id) ?? [];
      list.push({ step: parsed.data.metadata.step, s });
      this.episodes.set(parsed.data.metadata.episode_id, list);
      return;
    }
    const parsed = TrajectoryLine.safeParse(value);
    if (!parsed.success) throw new DemoFileError(where(file, at, parsed.error.issues[0]!));
    const t = parsed.data;
    if (t.success === false || (t.reward !== undefined && t.reward <= 0)) {
      this.skipped += 1;
      return;
    }
    this.trajectories.push({
      intent: t.intent,
      horizon: t.horizon ?? this.defaultHorizon,
      steps: withFreshColumns(
        t.steps.map((s) => ({
          url: s.url,
          nodes: { ...s.nodes, inViewport: s.nodes.inViewport ?? s.nodes.ids.map(() => 1) } as NodeColumns,
          note: s.note ?? null,
          reply: s.reply ?? `Action: ${s.action}`,
        })),
      ),
    });
  }

  finish(): DemoFileReport {
    for (const [episode, steps] of this.episodes) {
      steps.sort((a, b) => a.step - b.step);
      const intent = steps.find((x) => x.s.intent !== null)?.s.intent;
      if (!intent) {
        this.skipped += 1;
        continue;
      }
      if (steps.some((x) => x.s.nodes.ids.length === 0))
        throw new DemoFileError(
          `${this.file}: episode ${episode}: a user turn has no accessibility tree ("[id] role 'name'" lines)`,
        );
      this.trajectories.push({
        intent,
        horizon: this.defaultHorizon,
        steps: withFreshColumns(
          steps.map(({ s }) => ({ url: s.url, nodes: s.nodes, note: null, reply: s.reply })),
        ),
      });
    }
    return { trajectories: this.trajectories, skipped: this.skipped, lines: this.lines };
  }
}

/**
 * Steps recorded before the env marked appeared nodes get the `fresh` column from the step before
 * (freshIds, the env's rule); a step that has it keeps it.
 */
export function withFreshColumns<S extends { url: string; nodes: NodeColumns }>(steps: readonly S[]): S[] {
  return steps.map((s, k) => {
    if (s.nodes.fresh) return s;
    const before = k > 0 ? steps[k - 1]! : null;
    const fresh = freshIds(before && { url: before.url, ids: before.nodes.ids }, {
      url: s.url,
      ids: s.nodes.ids,
    });
    return { ...s, nodes: { ...s.nodes, fresh: fresh.map((f) => (f ? 1 : 0)) } };
  });
}
