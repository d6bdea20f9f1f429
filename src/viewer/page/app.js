// The episode viewer's page: lists a run's episodes (polling for new ones, so it follows a live
// run), filters them, and replays one step by step. Text from web pages and model replies is only
// ever set as textContent. Plain browser JavaScript, served as is (no build step).

const DASH = '–';
/** Rows drawn at most; a long run has thousands of episodes and the filters narrow them. */
const MAX_ROWS = 500;

const $ = (id) => document.getElementById(id);

const state = {
  /** EpisodeSummary[] in the order the server found them */
  episodes: [],
  ids: new Set(),
  /** ids that arrived after the first load, marked in the list */
  fresh: new Set(),
  /** { id, summary, record, step } of the open episode */
  open: null,
  pollMs: 2000,
  loaded: false,
};

const show = (value) => (value === null || value === undefined || value === '' ? DASH : String(value));

function el(tag, text, className) {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (className) node.className = className;
  return node;
}

async function getJson(url) {
  const res = await fetch(url, { cache: 'no-store' });
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
  return res.json();
}

// --- the run header -------------------------------------------------------------------------------

function renderRun(run) {
  $('run-name').textContent = run.name;
  const parts = [];
  if (run.state) {
    parts.push(run.state.state ?? 'unknown state');
    if (run.state.iteration !== null) parts.push(`iteration ${run.state.iteration} done`);
    if (run.state.policyVersion !== null) parts.push(`policy v${run.state.policyVersion}`);
  }
  if (run.config?.horizonSchedule) parts.push(`horizons ${run.config.horizonSchedule.join('→')}`);
  if (run.config) parts.push(run.config.tasks);
  if (run.config && run.config.screenshot !== null)
    parts.push(`screenshots: ${screenshotMode(run.config.screenshot)}`);
  $('run-state').textContent = parts.join(' · ');
  state.pollMs = run.pollMs ?? state.pollMs;
}

function screenshotMode(value) {
  if (value === true) return 'every episode';
  if (value === 'eval') return 'eval episodes';
  return 'off';
}

// --- the list -------------------------------------------------------------------------------------

function filters() {
  const form = new FormData($('filters'));
  return Object.fromEntries([...form.entries()].map(([k, v]) => [k, String(v).trim()]));
}

const labelOf = (value) => (value === null || value === undefined ? DASH : String(value));

function matches(s, f) {
  if (f.split && s.split !== f.split) return false;
  if (f.iteration && labelOf(s.iteration) !== f.iteration) return false;
  if (f.version && !s.policyVersions.map(String).includes(f.version)) return false;
  if (f.template && labelOf(s.template) !== f.template) return false;
  if (f.tier && labelOf(s.tier) !== f.tier) return false;
  if (f.success === 'yes' && !s.success) return false;
  if (f.success === 'no' && s.success) return false;
  if (f.task) {
    const words = f.task.toLowerCase().split(/\s+/);
    const hay = `${s.taskId} ${s.intent} ${s.episodeId}`.toLowerCase();
    if (!words.every((w) => hay.includes(w))) return false;
  }
  return true;
}

/** Keeps each select's options in step with the values the episodes have (and the chosen one). */
function refreshOptions() {
  const sets = {
    iteration: new Set(),
    version: new Set(),
    template: new Set(),
    tier: new Set(),
  };
  for (const s of state.episodes) {
    sets.iteration.add(labelOf(s.iteration));
    for (const v of s.policyVersions) sets.version.add(String(v));
    sets.template.add(labelOf(s.template));
    sets.tier.add(labelOf(s.tier));
  }
  const numeric = (a, b) => (a === DASH) - (b === DASH) || Number(a) - Number(b) || a.localeCompare(b);
  for (const [name, values] of Object.entries(sets)) {
    const select = $('filters').elements.namedItem(name);
    const chosen = select.value;
    const sorted = [...values].sort(name === 'template' ? (a, b) => a.localeCompare(b) : numeric);
    const have = [...select.options].slice(1).map((o) => o.value);
    if (have.join('\n') === sorted.join('\n')) continue;
    select.replaceChildren(el('option', 'all'));
    select.options[0].value = '';
    for (const v of sorted) {
      const option = el('option', name === 'version' ? `v${v}` : v);
      option.value = v;
      select.append(option);
    }
    select.value = chosen;
  }
}

const tierOf = (tier) => (tier === null || tier === undefined ? null : tier);

/** A suite without tiers (MiniWoB++, WebVoyager, …): no tier column and no tier filter, rather than a column of dashes. */
function showTiers() {
  const tiered = state.episodes.some((s) => tierOf(s.tier) !== null);
  $('episodes').classList.toggle('no-tiers', !tiered);
  $('tier-filter').hidden = !tiered;
}

function renderList() {
  showTiers();
  const f = filters();
  const shown = state.episodes.filter((s) => matches(s, f));
  // Newest first: a live run's latest episodes on top.
  shown.sort((a, b) => b.startedAt.localeCompare(a.startedAt) || b.episodeId.localeCompare(a.episodeId));
  const body = $('episodes').tBodies[0];
  const rows = shown.slice(0, MAX_ROWS).map((s) => {
    const tr = document.createElement('tr');
    tr.dataset.episode = s.episodeId;
    if (state.open?.id === s.episodeId) tr.classList.add('picked');
    if (state.fresh.has(s.episodeId)) tr.classList.add('fresh');
    const task = el('td', undefined, 'task');
    task.title = s.intent;
    task.append(
      el('span', s.taskId),
      el('span', ` ${s.intent.slice(0, 60)}${s.intent.length > 60 ? '…' : ''}`, 'muted'),
    );
    tr.append(
      el('td', show(s.iteration)),
      el('td', show(s.split)),
      task,
      Object.assign(el('td', show(s.template), 'template'), { title: show(s.template) }),
      el('td', show(s.tier), 'tier'),
      el('td', String(s.steps)),
      el('td', s.success ? 'success' : 'fail', s.success ? 'ok' : 'fail'),
      el('td', s.policyVersions.length ? s.policyVersions.map((v) => `v${v}`).join(',') : DASH),
      el('td', s.startedAt ? new Date(s.startedAt).toLocaleTimeString() : DASH),
    );
    tr.addEventListener('click', () => openEpisode(s.episodeId, 0));
    return tr;
  });
  body.replaceChildren(...rows);
  const total = state.episodes.length;
  const cut = shown.length > MAX_ROWS ? ` (the newest ${MAX_ROWS} shown; narrow the filters)` : '';
  $('count').textContent = `${shown.length} of ${total} episode${total === 1 ? '' : 's'}${cut}`;
}

async function poll() {
  try {
    const page = await getJson(`/api/episodes?since=${state.episodes.length}`);
    const added = page.episodes.filter((s) => !state.ids.has(s.episodeId));
    for (const s of added) {
      state.ids.add(s.episodeId);
      state.episodes.push(s);
      if (state.loaded) state.fresh.add(s.episodeId);
    }
    if (added.length > 0 || !state.loaded) {
      refreshOptions();
      renderList();
    }
    const warnings = $('warnings');
    warnings.hidden = page.warnings.length === 0;
    warnings.textContent = page.warnings.join('\n');
    $('live').classList.add('on');
    $('live').textContent = 'live';
    if (state.loaded && added.length > 0 && $('follow').checked) {
      const newest = added.reduce((a, b) => (b.startedAt > a.startedAt ? b : a));
      await openEpisode(newest.episodeId, 0);
    }
    state.loaded = true;
  } catch {
    $('live').classList.remove('on');
    $('live').textContent = 'offline';
  }
}

async function pollRun() {
  try {
    renderRun(await getJson('/api/run'));
  } catch {
    // the list's poll says the server is gone
  }
}

// --- one episode ----------------------------------------------------------------------------------

async function openEpisode(id, step) {
  if (state.open?.id !== id) {
    const record = await getJson(`/api/episodes/${encodeURIComponent(id)}`);
    const summary = state.episodes.find((s) => s.episodeId === id) ?? null;
    state.open = { id, record, summary, step: 0 };
    renderEpisode();
  }
  state.fresh.delete(id);
  for (const tr of $('episodes').tBodies[0].rows) {
    tr.classList.toggle('picked', tr.dataset.episode === id);
    if (tr.dataset.episode === id) tr.classList.remove('fresh');
  }
  goToStep(step);
}

function renderEpisode() {
  const { record, summary } = state.open;
  $('empty').hidden = true;
  $('episode').hidden = false;
  $('intent').textContent = record.task?.intent ?? DASH;
  const run = record.run;
  $('episode-meta').textContent = [
    `episode ${record.episodeId}`,
    `task ${record.task?.id ?? DASH}`,
    `template ${show(summary?.template ?? record.task?.template)}`,
    tierOf(summary?.tier ?? record.task?.tier) === null
      ? null
      : `tier ${show(summary?.tier ?? record.task?.tier)}`,
    `split ${show(run?.split)}`,
    `iteration ${show(run?.iteration)}`,
    run?.mode ? (run.mode === 'eval' ? 'greedy (eval)' : 'sampled (collection)') : null,
    run?.workerId ? `worker ${run.workerId}` : null,
  ]
    .filter(Boolean)
    .join(' · ');
  const v = record.verdict ?? {};
  const verdict = $('verdict');
  verdict.replaceChildren(
    el('span', v.success ? 'success' : 'fail', v.success ? 'ok' : 'fail'),
    el('span', ` score ${show(v.score)} (${show(v.status)}) — ${show(v.why)}`),
  );
  $('verdict-parts').replaceChildren(
    ...(v.parts ?? []).map((p) => el('li', `${p.evaluator}: ${p.score} (${p.status}) — ${p.why}`)),
  );
  const end = [
    `answer: ${show(record.answer)}`,
    `ended by ${show(record.endReason)}`,
    `horizon ${show(record.horizon)}`,
    `min_try ${show(record.minTry)}`,
    `${((record.durationMs ?? 0) / 1000).toFixed(1)} s`,
  ];
  if (record.error) end.push(`error: ${record.error}`);
  if (record.blockedRequests?.length) end.push(`blocked: ${record.blockedRequests.join(', ')}`);
  $('episode-end').textContent = end.join(' · ');
  const steps = record.steps ?? [];
  $('step-slider').max = String(Math.max(0, steps.length - 1));
}

function goToStep(index) {
  const open = state.open;
  if (!open) return;
  const steps = open.record.steps ?? [];
  const i = Math.max(0, Math.min(steps.length - 1, index));
  open.step = i;
  $('step-slider').value = String(i);
  $('step-label').textContent = steps.length ? `step ${i + 1} / ${steps.length}` : 'no steps';
  $('prev').disabled = i <= 0;
  $('next').disabled = i >= steps.length - 1;
  history.replaceState(null, '', `#episode=${encodeURIComponent(open.id)}&step=${i + 1}`);
  const step = steps[i];
  if (step) renderStep(open.id, open.record, step);
}

function renderStep(id, record, step) {
  const started = Date.parse(record.startedAt);
  const at = Date.parse(step.startedAt);
  const facts = [
    ['action', step.actionText ?? DASH],
    ['element', elementText(step)],
    ['policy', step.policyVersion === undefined ? DASH : `v${step.policyVersion}`],
    ['url', step.url ?? DASH],
    [
      'timings',
      `act ${show(step.actMs)} ms · observe ${show(step.observeMs)} ms` +
        (Number.isFinite(started) && Number.isFinite(at)
          ? ` · at +${((at - started) / 1000).toFixed(1)} s`
          : ''),
    ],
  ];
  $('step-facts').replaceChildren(...facts.flatMap(([k, v]) => [el('dt', k), el('dd', v)]));
  $('reply').textContent = step.reply ?? `(no model text: the action came parsed) ${step.actionText ?? ''}`;
  const notes = [
    ...(step.notes ?? []).map((n) => `before: ${n}`),
    ...(step.result ?? []).map((n) => `after: ${n}`),
  ];
  $('notes').replaceChildren(...(notes.length ? notes.map((n) => el('li', n)) : [el('li', 'none', 'muted')]));
  $('observation').textContent = step.observation ?? '';
  renderShot(id, step);
}

/** The element the action named: from the record, or just its id (records before boxes). */
function elementText(step) {
  if (step.target) return `[${step.target.id}] ${step.target.role} '${step.target.name}'`;
  const id = step.action?.elementId;
  if (id === undefined) return DASH;
  if (step.target === null) return `[${id}] was not on the page the agent saw`;
  return `[${id}] (this record does not keep element boxes)`;
}

function renderShot(id, step) {
  const shot = $('shot');
  const img = $('shot-img');
  const outline = $('outline');
  if (!step.screenshotFile) {
    shot.hidden = true;
    img.removeAttribute('src');
    const none = $('no-shot');
    none.hidden = false;
    none.textContent =
      'No screenshot for this step (training records them only when env.screenshot is true; ' +
      "'eval', the default, records eval episodes). The observation below is what the agent read.";
    return;
  }
  $('no-shot').hidden = true;
  shot.hidden = false;
  outline.hidden = true;
  const box = step.target?.bounds ?? null;
  $('shot-caption').textContent = step.target
    ? box
      ? `outlined: ${elementText(step)}`
      : `${elementText(step)} has no box on the page`
    : step.action?.elementId === undefined
      ? 'this action names no element'
      : elementText(step);
  img.onload = () => {
    if (!box || !img.naturalWidth) return;
    const [x, y, w, h] = box;
    const W = img.naturalWidth;
    const H = img.naturalHeight;
    // Clamp to the screenshot: part of a long element may be outside the viewport.
    const left = Math.max(0, x);
    const top = Math.max(0, y);
    const right = Math.min(W, x + w);
    const bottom = Math.min(H, y + h);
    if (right <= left || bottom <= top) {
      $('shot-caption').textContent += ' (outside the visible part of the page)';
      return;
    }
    outline.style.left = `${(left / W) * 100}%`;
    outline.style.top = `${(top / H) * 100}%`;
    outline.style.width = `${((right - left) / W) * 100}%`;
    outline.style.height = `${((bottom - top) / H) * 100}%`;
    outline.hidden = false;
  };
  img.src = `/api/episodes/${encodeURIComponent(id)}/${encodeURIComponent(step.screenshotFile)}`;
}

// --- wiring ---------------------------------------------------------------------------------------

function fromHash() {
  const params = new URLSearchParams(location.hash.slice(1));
  const id = params.get('episode');
  const step = Number(params.get('step') ?? 1) - 1;
  return id ? { id, step: Number.isFinite(step) ? step : 0 } : null;
}

$('filters').addEventListener('input', renderList);
$('filters').addEventListener('submit', (e) => e.preventDefault());
$('prev').addEventListener('click', () => goToStep((state.open?.step ?? 0) - 1));
$('next').addEventListener('click', () => goToStep((state.open?.step ?? 0) + 1));
$('step-slider').addEventListener('input', (e) => goToStep(Number(e.target.value)));
document.addEventListener('keydown', (e) => {
  if (e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement) return;
  if (e.key === 'ArrowLeft') goToStep((state.open?.step ?? 0) - 1);
  if (e.key === 'ArrowRight') goToStep((state.open?.step ?? 0) + 1);
});

async function loop() {
  await poll();
  setTimeout(loop, state.pollMs);
}
async function runLoop() {
  await pollRun();
  setTimeout(runLoop, state.pollMs * 2);
}

await pollRun();
await poll();
const wanted = fromHash();
if (wanted && state.ids.has(wanted.id)) {
  await openEpisode(wanted.id, wanted.step);
  document.querySelector('#episodes tr.picked')?.scrollIntoView({ block: 'center' });
}
setTimeout(loop, state.pollMs);
setTimeout(runLoop, state.pollMs * 2);
