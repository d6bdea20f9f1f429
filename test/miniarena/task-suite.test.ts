import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { z } from 'zod';
import {
  generateTasks,
  HELD_OUT_TEMPLATES,
  type MiniArenaHost,
  type MiniArenaTask,
  pristineState,
  startMiniArenaHost,
  TEMPLATES,
  tierOf,
} from '../../src/arena/index.js';
import { readOracleLengths, suiteFingerprint } from '../../src/arena/oracle-lengths.js';
import { SHOP_USER } from '../../src/arena/sites/shop/data.js';
import { get, textOf } from './helpers.js';

const suite = generateTasks();
const all = [...suite.train, ...suite.test];
let host: MiniArenaHost;
before(async () => {
  host = await startMiniArenaHost();
});
after(async () => {
  await host.close();
});

// WebArena's task format (config_files/test.raw.json), with MiniArena's extra `miniarena` field.
const contents = z.object({
  exact_match: z.string().optional(),
  must_include: z.array(z.string()).optional(),
});
const webArenaTask = z
  .object({
    sites: z.array(z.enum(['shopping', 'reddit', 'gitlab'])).length(1),
    task_id: z.number().int().nonnegative(),
    require_login: z.literal(true),
    storage_state: z.string().regex(/^\.\/\.auth\/(shopping|reddit|gitlab)_state\.json$/),
    start_url: z.string().regex(/^__(SHOPPING|REDDIT|GITLAB)__/),
    geolocation: z.null(),
    intent_template: z.string().min(5),
    instantiation_dict: z.record(z.string(), z.union([z.string(), z.number()])),
    intent: z.string().min(5),
    require_reset: z.boolean(),
    intent_template_id: z.number().int(),
    eval: z
      .object({
        eval_types: z.array(z.enum(['string_match', 'url_match', 'program_html'])).min(1),
        reference_answers: z
          .object({
            exact_match: z.string().optional(),
            must_include: z.array(z.string().min(1)).min(1).optional(),
            fuzzy_match: z.union([z.array(z.string()), z.literal('N/A')]).optional(),
          })
          .nullable(),
        reference_url: z.string(),
        program_html: z.array(
          z.object({ url: z.string().min(1), locator: z.string(), required_contents: contents }),
        ),
        string_note: z.string().optional(),
        url_note: z.literal('GOLD in PRED').optional(),
        reference_answer_raw_annotation: z.string().optional(),
      })
      .strict(),
    miniarena: z.object({
      template: z.string(),
      split: z.enum(['train', 'test']),
      held_out_template: z.boolean(),
      tier: z.union([z.literal(1), z.literal(2), z.literal(3)]),
      estimated_steps: z.number().int().min(1).max(25),
      oracle_steps: z.number().int().min(1).max(30).nullable(),
      steps_source: z.enum(['estimate', 'oracle']),
      features: z.array(z.string()),
      evidence_urls: z.array(z.string()),
      seed: z.number(),
    }),
  })
  .strict();

test('every task is in WebArena format and its evaluator has what its eval_types need', () => {
  for (const t of all) {
    webArenaTask.parse(t);
    const e = t.eval;
    // notes as in WebArena's files: present exactly for the evaluators that read them
    assert.equal(
      e.string_note !== undefined,
      e.eval_types.includes('string_match'),
      `${t.task_id} string_note`,
    );
    assert.equal(e.url_note !== undefined, e.eval_types.includes('url_match'), `${t.task_id} url_note`);
    if (e.eval_types.includes('string_match')) assert.ok(e.reference_answers, `${t.task_id} string_match`);
    if (e.eval_types.includes('url_match')) {
      assert.match(e.reference_url, /^__(SHOPPING|REDDIT|GITLAB)__\//);
      assert.equal(e.url_note, 'GOLD in PRED');
    }
    if (e.eval_types.includes('program_html'))
      assert.ok(e.program_html.length > 0, `${t.task_id} program_html`);
    assert.equal(t.sites[0], TEMPLATES.find((x) => x.id === t.intent_template_id)?.site);
    assert.ok(!/\{\{|\}\}/.test(t.intent), `unfilled slot in ${t.intent}`);
    assert.equal(t.miniarena.tier, tierOf(t.miniarena.oracle_steps ?? t.miniarena.estimated_steps));
    assert.equal(t.miniarena.steps_source, t.miniarena.oracle_steps === null ? 'estimate' : 'oracle');
  }
});

test('splits: enough tasks, unique ids, disjoint instantiations, held-out templates only in test', () => {
  assert.ok(TEMPLATES.length >= 30, `templates ${TEMPLATES.length}`);
  assert.ok(suite.train.length >= 600, `train ${suite.train.length}`);
  assert.ok(suite.test.length >= 200, `test ${suite.test.length}`);
  assert.equal(new Set(all.map((t) => t.task_id)).size, all.length);
  assert.equal(new Set(TEMPLATES.map((t) => t.id)).size, TEMPLATES.length);
  const key = (t: MiniArenaTask) => `${t.intent_template_id}|${t.intent}|${t.start_url}`;
  const trainKeys = new Set(suite.train.map(key));
  assert.equal(trainKeys.size, suite.train.length, 'duplicate instantiation in train');
  for (const t of suite.test) assert.ok(!trainKeys.has(key(t)), `test task ${t.task_id} also in train`);
  const trainTemplates = new Set(suite.train.map((t) => t.miniarena.template));
  const testTemplates = new Set(suite.test.map((t) => t.miniarena.template));
  assert.ok(HELD_OUT_TEMPLATES.length >= 3);
  for (const h of HELD_OUT_TEMPLATES) {
    assert.ok(!trainTemplates.has(h), `${h} leaked into train`);
    assert.ok(testTemplates.has(h), `${h} missing from test`);
  }
  for (const t of TEMPLATES)
    assert.ok(trainTemplates.has(t.key) || testTemplates.has(t.key), `${t.key} has no tasks`);
  assert.ok(suite.train.every((t) => t.miniarena.split === 'train' && !t.miniarena.held_out_template));
  assert.ok(suite.test.every((t) => t.miniarena.split === 'test'));
});

test('every site and every tier is well represented in both splits, with exploration features', () => {
  for (const split of [suite.train, suite.test]) {
    for (const site of ['shopping', 'reddit', 'gitlab'] as const)
      assert.ok(split.filter((t) => t.sites[0] === site).length >= split.length / 5, site);
    for (const tier of [1, 2, 3] as const) {
      const n = split.filter((t) => t.miniarena.tier === tier).length;
      assert.ok(n >= split.length * 0.1, `tier ${tier}: ${n} of ${split.length}`);
    }
    for (const f of [
      'second-page',
      'misleading-first-result',
      'facts-on-several-pages',
      'backtracking',
    ] as const)
      assert.ok(
        split.some((t) => t.miniarena.features.includes(f)),
        f,
      );
  }
  const types = new Set(all.flatMap((t) => t.eval.eval_types));
  assert.deepEqual([...types].sort(), ['program_html', 'string_match', 'url_match']);
});

/** Every reference answer of a task, as the strings the evaluator looks for. */
function answers(t: MiniArenaTask): string[] {
  const r = t.eval.reference_answers;
  return [...(r?.must_include ?? []), ...(r?.exact_match ? [r.exact_match] : [])];
}

test('for a sample of tasks, the reference answer is on the evidence pages of the live site', async () => {
  const withEvidence = all.filter((t) => t.miniarena.evidence_urls.length > 0);
  assert.ok(withEvidence.length > all.filter((t) => t.eval.eval_types.includes('string_match')).length / 2);
  // every template with evidence, several tasks each
  const byTemplate = new Map<string, MiniArenaTask[]>();
  for (const t of withEvidence)
    byTemplate.set(t.miniarena.template, [...(byTemplate.get(t.miniarena.template) ?? []), t]);
  let checked = 0;
  for (const tasks of byTemplate.values()) {
    for (const t of tasks.filter((_, i) => i % 4 === 0)) {
      const pages = await Promise.all(t.miniarena.evidence_urls.map((u) => get(host, host.resolve(u))));
      for (const p of pages) assert.equal(p.status, 200, t.miniarena.evidence_urls.join(' '));
      const text = pages.map((p) => textOf(p.body).toLowerCase()).join('\n');
      for (const a of answers(t))
        assert.ok(text.includes(a.toLowerCase()), `task ${t.task_id} (${t.intent}): "${a}" not on page`);
      checked++;
    }
  }
  assert.ok(checked >= 60, `checked ${checked}`);
});

test('monthly spending answers add up from the order pages the customer can read', async () => {
  const tasks = all.filter((t) => t.miniarena.template === 'shop_spent_in_month');
  assert.ok(tasks.length > 0);
  // read every order row from the paginated order history, as an agent would
  const rows: Array<{ date: string; total: number; status: string }> = [];
  let total = Number.POSITIVE_INFINITY;
  for (let page = 1; rows.length < total && page <= 10; page++) {
    const html = (await get(host, `/shop/orders?page=${page}`)).body;
    total = Number(/<caption>Orders \d+-\d+ of (\d+)<\/caption>/.exec(html)?.[1] ?? 0);
    for (const m of html.matchAll(
      /<tr class="order-row"><td>\d+<\/td><td>([^<]+)<\/td><td>[^<]*<\/td><td>\$([\d,.]+)<\/td><td class="order-status">(\w+)<\/td>/g,
    ))
      rows.push({
        date: m[1] ?? '',
        total: Math.round(Number((m[2] ?? '').replace(/,/g, '')) * 100),
        status: m[3] ?? '',
      });
  }
  assert.equal(rows.length, pristineState().shop.orders.filter((o) => o.user === SHOP_USER).length);
  for (const t of tasks) {
    const month = String(t.instantiation_dict.month).slice(0, 3);
    const year = String(t.instantiation_dict.year);
    const sum = rows
      .filter((r) => r.date.startsWith(`${month} `) && r.date.endsWith(year) && r.status !== 'Canceled')
      .reduce((s, r) => s + r.total, 0);
    assert.deepEqual(t.eval.reference_answers?.must_include, [(sum / 100).toFixed(2)]);
  }
});

test('url_match reference URLs and program_html target URLs resolve on the live site', async () => {
  const urls = new Set<string>();
  for (const t of all) {
    if (t.eval.reference_url) urls.add(t.eval.reference_url);
    for (const p of t.eval.program_html) urls.add(p.url);
  }
  let ok = 0;
  const pending: string[] = [];
  for (const u of urls) {
    const res = await get(host, host.resolve(u));
    // new orders, posts and issues do not exist until the task is done
    if (res.status === 404) pending.push(u);
    else {
      assert.equal(res.status, 200, u);
      ok++;
    }
  }
  const w = pristineState();
  const created = [
    `/orders/${w.shop.nextOrderId}`,
    `/${w.forum.nextPostId}`,
    ...w.tracker.projects.map((p) => `/${p.path}/-/issues/${p.nextIid}`),
  ];
  for (const u of pending)
    assert.ok(
      created.some((c) => u.endsWith(c)),
      `${u} is 404 and not a page the task creates`,
    );
  assert.ok(ok > 100, `resolved ${ok}`);
});

test('state-changing tasks are flagged require_reset; questions are not', () => {
  for (const t of all) {
    if (t.eval.eval_types.includes('program_html')) assert.equal(t.require_reset, true, t.intent);
    if (t.eval.eval_types.join() === 'string_match') assert.equal(t.require_reset, false, t.intent);
  }
});

test('the oracle lengths on disk were measured on this very suite and cover every task but a few', () => {
  const file = readOracleLengths();
  assert.ok(
    file,
    'tasks/miniarena/oracle-lengths.json is missing: run tti-run tasks check --split all --write-lengths',
  );
  assert.equal(
    file.suite,
    suiteFingerprint(all),
    'oracle-lengths.json was measured on another suite: re-measure',
  );
  const measured = all.filter((t) => t.miniarena.oracle_steps !== null);
  assert.ok(
    measured.length >= all.length * 0.99,
    `${measured.length} of ${all.length} tasks have a measured length`,
  );
  for (const t of measured) assert.equal(t.miniarena.oracle_steps, file.lengths[String(t.task_id)]);
});
