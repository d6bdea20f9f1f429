// The episode viewer on a real run, in real Chromium: `tti-run view` is opened on an empty run
// directory, a short training (one iteration: collection, training, eval) starts in it, and the
// page lists its episodes as they are written. Then the filters, a replay step by step (eval
// episodes have screenshots, collection episodes only their text), and an episode from another
// task source (no template, no tier: "–") that arrives while the page is open.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import {
  BrowserEnv,
  type EpisodeRecord,
  type EpisodeSummary,
  launchBrowser,
  type Task,
} from '../../src/envs/index.js';
import { page as htmlPage, serve } from '../envs/support/server.js';
import { RunFixture } from '../helpers/run-fixture.js';
import { decodePng, distinctColours } from '../report/support/fixtures.js';
import { startViewerProcess } from './support/viewer-process.js';

const TRAIN = [
  'iterations=1',
  'rollout_size=2',
  'horizon_schedule=[3]',
  'eval_tasks=2',
  'eval_horizon=3',
  // a few updates make the version the eval acts with; the preset's 50 are for learning
  'min_updates=5',
  // the default: eval episodes get screenshots, collection episodes do not
  'env.screenshot=eval',
];

async function getJson<T>(url: string): Promise<T> {
  const res = await fetch(url);
  assert.equal(res.status, 200, url);
  return (await res.json()) as T;
}

// Page-side code is passed as strings: the project's TypeScript has no DOM types.
const until = (page: Page, expression: string, timeout = 20_000) =>
  page.waitForFunction(expression, null, { timeout });
const byId = (id: string) => `document.getElementById(${JSON.stringify(id)})`;
const ROWS = "document.querySelectorAll('#episodes tbody tr')";

/** The list's cells, one array per row, as the page shows them. */
async function table(page: Page): Promise<string[][]> {
  return (await page.evaluate(
    `[...${ROWS}].map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? ''))`,
  )) as string[][];
}

async function stepLabel(page: Page, label: string): Promise<void> {
  await until(page, `${byId('step-label')}.textContent === ${JSON.stringify(label)}`);
}

/** The shown screenshot's file name (once loaded) and its natural size. */
async function loadedShot(page: Page, file: string): Promise<[number, number]> {
  const img = byId('shot-img');
  await until(
    page,
    `${img}.complete && ${img}.naturalWidth > 0 && ${img}.src.endsWith(${JSON.stringify(file)})`,
  );
  return (await page.evaluate(`[${img}.naturalWidth, ${img}.naturalHeight]`)) as [number, number];
}
const COLUMN = { iteration: 0, split: 1, task: 2, template: 3, tier: 4, steps: 5, result: 6, policy: 7 };

async function waitForRows(page: Page, n: number, timeout = 20_000): Promise<void> {
  await until(page, `${ROWS}.length === ${n}`, timeout);
}

async function setFilter(page: Page, name: string, value: string): Promise<void> {
  if (name === 'task') await page.fill('#filters input[name=task]', value);
  else await page.selectOption(`#filters select[name=${name}]`, value);
}

async function clearFilters(page: Page): Promise<void> {
  for (const name of ['split', 'iteration', 'version', 'template', 'tier', 'success'])
    await setFilter(page, name, '');
  await setFilter(page, 'task', '');
}

/** A task from a source no label rule knows (MiniWoB++-like): no template, no tier. */
function otherSourceTask(url: string, file: string): Task {
  return {
    kind: 'webvoyager',
    id: 'click-button-7',
    intent: 'Click the button labelled Submit.',
    sites: ['miniwob'],
    startUrls: [url],
    requireLogin: false,
    storageState: null,
    eval: null,
    intentTemplateId: null,
    source: { file, entry: 0, format: 'webvoyager' },
  };
}

test('the viewer follows a short training run, filters its episodes, steps through one and degrades without screenshots', async (t) => {
  const run = RunFixture.create();
  t.after(() => run.cleanup());
  const viewer = await startViewerProcess(['--run-dir', run.runDir, '--port', '0', '--poll', '300']);
  t.after(async () => {
    await viewer.stop();
  });
  const browser = await launchBrowser();
  t.after(() => browser.close());
  // The page's CSP forbids eval; the test's string predicates need it (the server's CSP header is
  // checked below).
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 }, bypassCSP: true });
  const pageErrors: string[] = [];
  page.on('pageerror', (e) => pageErrors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') pageErrors.push(m.text());
  });
  const response = await page.goto(viewer.url);
  assert.match(response?.headers()['content-security-policy'] ?? '', /script-src 'self'/);
  await until(page, `${byId('count')}.textContent === '0 of 0 episodes'`);

  // --- live: the list grows while the run goes on -------------------------------------------------
  await run.startForeground(TRAIN, false);
  await until(page, `${ROWS}.length >= 1`, 120_000);
  assert.equal(run.foreground?.exitCode, null, 'the first episode is listed while the run is still going');
  const code = await run.foregroundExit(180_000);
  assert.equal(code, 0, `train exited with ${code}:\n${run.foregroundOutput.slice(-3000)}`);
  const metrics = JSON.parse(readFileSync(path.join(run.runDir, 'metrics.jsonl'), 'utf8').trim()) as {
    train: { episodes: number };
    eval: { episodes: number };
    policyVersion: number;
  };
  const total = metrics.train.episodes + metrics.eval.episodes;
  await waitForRows(page, total);
  const api = await getJson<{ total: number; episodes: EpisodeSummary[] }>(`${viewer.url}api/episodes`);
  assert.equal(api.total, total);
  // the header follows the run's state too
  await until(page, `${byId('run-state')}.textContent.startsWith('stopped')`);

  // --- filters --------------------------------------------------------------------------------------
  const count = (pred: (s: EpisodeSummary) => boolean) => api.episodes.filter(pred).length;
  await setFilter(page, 'split', 'test');
  await waitForRows(page, metrics.eval.episodes);
  for (const row of await table(page)) assert.equal(row[COLUMN.split], 'test');
  await setFilter(page, 'split', 'train');
  await waitForRows(page, metrics.train.episodes);
  for (const row of await table(page)) assert.equal(row[COLUMN.split], 'train');
  await clearFilters(page);

  const template = api.episodes[0]!.template!;
  await setFilter(page, 'template', template);
  await waitForRows(
    page,
    count((s) => s.template === template),
  );
  for (const row of await table(page)) assert.equal(row[COLUMN.template], template);
  await clearFilters(page);

  const tier = String(api.episodes[0]!.tier);
  await setFilter(page, 'tier', tier);
  await waitForRows(
    page,
    count((s) => String(s.tier) === tier),
  );
  await clearFilters(page);

  for (const success of ['yes', 'no'] as const) {
    await setFilter(page, 'success', success);
    await waitForRows(
      page,
      count((s) => s.success === (success === 'yes')),
    );
  }
  await clearFilters(page);

  await setFilter(page, 'iteration', '1');
  await waitForRows(page, total);
  for (const row of await table(page)) assert.equal(row[COLUMN.iteration], '1');
  await clearFilters(page);

  // Every episode knows the policy versions that acted; eval ran after training, with the latest.
  const versions = [...new Set(api.episodes.flatMap((s) => s.policyVersions))];
  assert.ok(versions.length > 0, 'the records carry policy versions');
  for (const s of api.episodes.filter((e) => e.split === 'test'))
    assert.deepEqual(s.policyVersions, [metrics.policyVersion], 'eval acted with the trained version');
  for (const v of versions) {
    await setFilter(page, 'version', String(v));
    await waitForRows(
      page,
      count((s) => s.policyVersions.includes(v)),
    );
  }
  await clearFilters(page);

  const someTask = api.episodes[0]!;
  await setFilter(page, 'task', someTask.taskId);
  await until(
    page,
    `[...${ROWS}].some((tr) => tr.dataset.episode === ${JSON.stringify(someTask.episodeId)})`,
  );
  await clearFilters(page);
  await waitForRows(page, total);

  // --- an eval episode, step by step, with its screenshots -----------------------------------------
  const evalEpisode = api.episodes.filter((s) => s.split === 'test').sort((a, b) => b.steps - a.steps)[0]!;
  assert.equal(evalEpisode.screenshots, evalEpisode.steps, 'eval episodes record a screenshot per step');
  const record = await getJson<EpisodeRecord>(`${viewer.url}api/episodes/${evalEpisode.episodeId}`);
  await page.click(`#episodes tbody tr[data-episode="${evalEpisode.episodeId}"]`);
  await stepLabel(page, `step 1 / ${record.steps.length}`);
  assert.equal(await page.textContent('#intent'), record.task.intent);
  assert.match((await page.textContent('#verdict')) ?? '', record.verdict.success ? /success/ : /fail/);
  assert.ok(
    ((await page.textContent('#verdict')) ?? '').includes(record.verdict.why),
    'the verdict says why',
  );
  for (let i = 0; i < record.steps.length; i++) {
    if (i > 0) await page.click('#next');
    const step = record.steps[i]!;
    await stepLabel(page, `step ${i + 1} / ${record.steps.length}`);
    assert.equal(await page.textContent('#observation'), step.observation);
    assert.ok(((await page.textContent('#step-facts')) ?? '').includes(step.actionText));
    assert.ok(((await page.textContent('#step-facts')) ?? '').includes(`v${step.policyVersion}`));
    assert.equal(await page.textContent('#reply'), step.reply);
    // the screenshot of this step loads, at the viewport's size
    assert.deepEqual(await loadedShot(page, step.screenshotFile!), [1280, 720]);
    const b = step.target?.bounds;
    const inView =
      b && b[2] > 0 && b[3] > 0 && b[0] < 1280 && b[1] < 720 && b[0] + b[2] > 0 && b[1] + b[3] > 0;
    if (inView) await checkOutline(page, b);
  }
  await page.keyboard.press('ArrowLeft');
  await stepLabel(page, `step ${Math.max(1, record.steps.length - 1)} / ${record.steps.length}`);
  assert.match(page.url(), new RegExp(`#episode=${evalEpisode.episodeId}&step=`), 'the URL names the step');

  // --- a collection episode: no screenshots, the text observation stands in ----------------------------
  const collected = api.episodes.find((s) => s.split === 'train')!;
  assert.equal(
    collected.screenshots,
    0,
    "collection episodes have no screenshots under env.screenshot 'eval'",
  );
  await page.click(`#episodes tbody tr[data-episode="${collected.episodeId}"]`);
  await until(page, `${byId('no-shot')}.hidden === false`);
  assert.equal(await page.isHidden('#shot'), true);
  assert.ok(((await page.textContent('#observation')) ?? '').startsWith('Tab 0 (current)'));

  // --- an episode from another task source arrives while the page is open -------------------------
  const server = await serve({
    '/': htmlPage(
      'Click test',
      '<p>Click the button labelled Submit.</p><button style="position:absolute;left:300px;top:150px;width:160px;height:50px">Submit</button>',
    ),
  });
  t.after(() => server.close());
  const env = await BrowserEnv.launch({ actionFormat: 'tti', recordDir: path.join(run.runDir, 'episodes') });
  t.after(() => env.close());
  const taskFile = path.join(run.runDir, 'miniwob-tasks.jsonl');
  writeFileSync(
    taskFile,
    `${JSON.stringify({ id: 'click-button-7', intent: 'Click the button labelled Submit.' })}\n`,
  );
  const obs = await env.reset(otherSourceTask(`${server.origin}/`, taskFile), {
    episodeId: 'other-source-1',
    screenshot: true,
    run: { iteration: 1, split: 'test', mode: 'eval', workerId: 'test', taskFile },
  });
  const submit = obs.nodes.find((n) => n.role === 'button' && n.name === 'Submit')!;
  await env.step(`Thought: click it.\nAction: Click [${submit.id}]`, { policyVersion: 5 });
  await env.step('Thought: done.\nAction: ANSWER [done]', { policyVersion: 5 });
  await waitForRows(page, total + 1);
  const fresh = (await table(page)).find((r) => r[COLUMN.task]?.startsWith('click-button-7'))!;
  assert.equal(fresh[COLUMN.template], '–', 'no template: shown as a dash');
  assert.equal(fresh[COLUMN.tier], '–', 'no tier: shown as a dash');
  await setFilter(page, 'template', '–');
  await waitForRows(page, 1);
  await setFilter(page, 'template', '');
  await page.click('#episodes tbody tr[data-episode="other-source-1"]');
  await stepLabel(page, 'step 1 / 2');
  await loadedShot(page, 'step-000.jpg');
  await checkOutline(page, [300, 150, 160, 50]);
  assert.match((await page.textContent('#shot-caption')) ?? '', /outlined: \[\d+\] button 'Submit'/);

  // --- a screenshot of the page: a real, non-blank image ---------------------------------------------
  const shot = await page.screenshot({ type: 'png' });
  const png = decodePng(shot);
  assert.deepEqual([png.width, png.height], [1400, 900]);
  assert.ok(distinctColours(png) > 100, `the page is drawn: ${distinctColours(png)} colours`);
  if (process.env.TTI_VIEWER_SCREENSHOT) writeFileSync(process.env.TTI_VIEWER_SCREENSHOT, shot);
  assert.deepEqual(pageErrors, [], 'no script errors on the page');

  // Ctrl-C stops the viewer cleanly.
  assert.equal(await viewer.stop(), 0);
});

/** The outline sits on the element's box, scaled from screenshot pixels to the shown image. */
async function checkOutline(page: Page, bounds: readonly number[]): Promise<void> {
  await until(page, `${byId('outline')}.hidden === false`);
  const [img, outline] = await Promise.all([
    page.locator('#shot-img').boundingBox(),
    page.locator('#outline').boundingBox(),
  ]);
  assert.ok(img && outline);
  const scale = img.width / 1280;
  const [x, y, w, h] = bounds as [number, number, number, number];
  const left = Math.max(0, x);
  const top = Math.max(0, y);
  const want = {
    x: img.x + left * scale,
    y: img.y + top * scale,
    width: (Math.min(1280, x + w) - left) * scale,
    height: (Math.min(720, y + h) - top) * scale,
  };
  for (const k of ['x', 'y', 'width', 'height'] as const)
    assert.ok(Math.abs(outline[k] - want[k]) <= 2, `outline ${k}: ${outline[k]} vs ${want[k]}`);
}
