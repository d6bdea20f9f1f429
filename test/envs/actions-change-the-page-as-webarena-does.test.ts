import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { type Action, BrowserEnv, type Observation } from '../../src/envs/index.js';
import { page, serve, type TestServer } from './support/server.js';
import { webarenaTask } from './support/tasks.js';

const FORM = page(
  'Form',
  `<h1 id="h">Start</h1>
<button onclick="document.getElementById('h').textContent='Clicked'">Press me</button>
<form action="/search"><input name="q" aria-label="Query" value="abc"></form>
<div onmouseover="document.getElementById('h').textContent='Hovered'" style="width:200px;height:40px">Hover zone</div>
<a href="/next">Next page</a>
<select aria-label="Size" onchange="document.getElementById('h').textContent='Size ' + this.value"><option>S</option><option value="m">M (medium)</option><option>L</option></select>
<script>document.addEventListener('keydown', (e) => {
  if (e.ctrlKey && e.key === 'b') document.getElementById('h').textContent = 'Control+b';
});</script>`,
);

// Counts the key and input events a field gets, in its heading.
const COUNTED = page(
  'Counted',
  `<h1 id="h">keys 0 inputs 0</h1>
<form action="/search"><input name="q" aria-label="Query"
  onkeydown="if (event.key !== 'Enter') this.dataset.k = +(this.dataset.k || 0) + 1; show(this)"
  oninput="this.dataset.i = +(this.dataset.i || 0) + 1; show(this)"></form>
<script>function show(f) { document.getElementById('h').textContent = 'keys ' + (f.dataset.k || 0) + ' inputs ' + (f.dataset.i || 0); }</script>`,
);

const TALL = page(
  'Tall',
  `<button>Top button</button><div style="height:1000px"></div><button>Lower button</button><div style="height:3000px"></div>`,
);

// A button under a cover: one that fades out (as a date picker does once a day is picked), one that stays.
const COVERED = page(
  'Covered',
  `<h1 id="h">none</h1>
<button id="b" style="position:absolute;left:20px;top:80px;width:120px;height:30px"
  onclick="document.getElementById('h').textContent='button'">Under</button>
<div id="c" style="position:absolute;left:0;top:60px;width:200px;height:80px;background:#eee"
  onclick="document.getElementById('h').textContent='cover'"></div>
<script>
const fade = new URLSearchParams(location.search).has('fade');
const c = document.getElementById('c');
if (fade) {
  // fades out over 1 s from load, stepping the opacity as jQuery's fadeOut does (its first step at
  // once: a cover still at full opacity is not fading, and a click on a fast machine can come first)
  let o = 0.99;
  c.style.opacity = String(o);
  const t = setInterval(() => { o -= 0.1; c.style.opacity = String(o); if (o <= 0.01) { c.style.display = 'none'; clearInterval(t); } }, 100);
}
</script>`,
);

let server: TestServer;
let env: BrowserEnv;
before(async () => {
  server = await serve({
    '/form': FORM,
    '/next': page('Next', '<h1>Second page</h1>'),
    '/tall': TALL,
    '/counted': COUNTED,
    '/covered': COVERED,
    '/search': (_req, res, url) => {
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end(page('Results', `<h1>Results for ${url.searchParams.get('q')}</h1>`));
    },
  });
  env = await BrowserEnv.launch({ horizon: 50, earlyStop: { repeatedActions: 0 } });
});
after(async () => {
  await env.close();
  await server.close();
});

function idOf(obs: Observation, role: string, name: string): string {
  const n = obs.nodes.find((x) => x.role === role && x.name === name);
  assert.ok(n, `no ${role} '${name}' in:\n${obs.tree}`);
  return n.id;
}

async function act(a: Action | string): Promise<Observation> {
  const r = await env.step(a);
  assert.equal(r.done, false, `episode ended: ${r.record?.endReason} ${r.record?.error}`);
  return r.observation!;
}

test('click [id] clicks the element that id names', async () => {
  let obs = await env.reset(webarenaTask(`${server.origin}/form`));
  assert.match(obs.tree, /heading 'Start'/);
  obs = await act(
    `In summary, the next action I will perform is \`\`\`click [${idOf(obs, 'button', 'Press me')}]\`\`\``,
  );
  assert.match(obs.tree, /heading 'Clicked'/);
  obs = await act({ type: 'click', elementId: idOf(obs, 'link', 'Next page') });
  assert.equal(obs.url, `${server.origin}/next`);
  assert.match(obs.tree, /heading 'Second page'/);
  await env.abandon();
});

test('type appends without clearing; flag 1 presses Enter, flag 0 does not', async () => {
  let obs = await env.reset(webarenaTask(`${server.origin}/form`));
  const q = idOf(obs, 'textbox', 'Query');
  obs = await act(`\`\`\`type [${q}] [def] [0]\`\`\``);
  assert.equal(obs.url, `${server.origin}/form`);
  obs = await act(`\`\`\`type [${q}] [ghi] [1]\`\`\``);
  assert.equal(obs.url, `${server.origin}/search?q=abcdefghi`);
  assert.match(obs.tree, /heading 'Results for abcdefghi'/);
  await env.abandon();
});

test("TTI's Type clears the field first, then types and presses Enter", async () => {
  const tti = await BrowserEnv.launch({ actionFormat: 'tti' });
  try {
    const obs = await tti.reset(webarenaTask(`${server.origin}/form`));
    const r = await tti.step(
      `Thought: search for shoes.\nAction: Type [${idOf(obs, 'textbox', 'Query')}] [red shoes]`,
    );
    assert.equal(r.observation!.url, `${server.origin}/search?q=red+shoes`);
  } finally {
    await tti.close();
  }
});

test("typing 'insert' enters the text as one input event (no key per character), and Enter still submits", async () => {
  const insert = await BrowserEnv.launch({ typing: 'insert', earlyStop: { repeatedActions: 0 } });
  const keys = await BrowserEnv.launch({ earlyStop: { repeatedActions: 0 } });
  try {
    for (const [env, heading] of [
      [insert, 'keys 0 inputs 1'],
      [keys, 'keys 5 inputs 5'],
    ] as const) {
      const obs = await env.reset(webarenaTask(`${server.origin}/counted`));
      const q = idOf(obs, 'textbox', 'Query');
      const typed = await env.step(`\`\`\`type [${q}] [shoes] [0]\`\`\``);
      assert.match(typed.observation!.tree, new RegExp(`heading '${heading}'`));
      const submitted = await env.step(`\`\`\`type [${q}] [ red] [1]\`\`\``);
      assert.equal(submitted.observation!.url, `${server.origin}/search?q=shoes+red`);
    }
  } finally {
    await insert.close();
    await keys.close();
  }
});

test('hover moves the mouse over the element; press maps Meta to Control off Mac', async () => {
  let obs = await env.reset(webarenaTask(`${server.origin}/form`));
  obs = await act({ type: 'hover', elementId: idOf(obs, 'StaticText', 'Hover zone') });
  assert.match(obs.tree, /heading 'Hovered'/);
  obs = await act('```press [Meta+b]```');
  assert.match(obs.tree, /heading 'Control\+b'/);
  await env.abandon();
});

test("select_option picks a <select>'s option by its text or value, as a person's choice would (change fires)", async () => {
  let obs = await env.reset(webarenaTask(`${server.origin}/form`));
  const size = idOf(obs, 'combobox', 'Size');
  obs = await act(`\`\`\`select_option [${size}] [M (medium)]\`\`\``);
  assert.match(obs.tree, /heading 'Size m'/);
  assert.match(obs.tree, /option 'M \(medium\)' selected: True/);
  // an option's own id names its <select>; a value works as well as the text
  obs = await act({ type: 'select_option', elementId: idOf(obs, 'option', 'L'), option: 'L' });
  assert.match(obs.tree, /heading 'Size L'/);
  obs = await act({ type: 'select_option', elementId: size, option: 'm' });
  assert.match(obs.tree, /heading 'Size m'/);
  // no such option, or not a <select>: a note, and the episode goes on
  obs = await act({ type: 'select_option', elementId: size, option: 'XXL' });
  assert.match(obs.notes.join('\n'), /has no option "XXL" \(options: "S", "M \(medium\)", "L"\)/);
  obs = await act({ type: 'select_option', elementId: idOf(obs, 'button', 'Press me'), option: 'S' });
  assert.match(obs.notes.join('\n'), /not a <select>/);
  await env.abandon();
});

test('scroll moves the window by its height, up and down', async () => {
  const vp = await BrowserEnv.launch({ observation: { currentViewportOnly: true } });
  try {
    let obs = await vp.reset(webarenaTask(`${server.origin}/tall`));
    assert.match(obs.tree, /'Top button'/);
    assert.doesNotMatch(obs.tree, /'Lower button'/);
    obs = (await vp.step('```scroll [down]```')).observation!;
    assert.match(obs.tree, /'Lower button'/);
    assert.doesNotMatch(obs.tree, /'Top button'/);
    obs = (await vp.step('```scroll [up]```')).observation!;
    assert.match(obs.tree, /'Top button'/);
  } finally {
    await vp.close();
  }
});

test('new_tab, goto, tab_focus and close_tab manage tabs; the header follows', async () => {
  let obs = await env.reset(webarenaTask(`${server.origin}/form`));
  obs = await act('```new_tab```');
  assert.equal(obs.tabs, 'Tab 0: Form | Tab 1 (current): ');
  obs = await act(`\`\`\`goto [${server.origin}/next]\`\`\``);
  assert.equal(obs.tabs, 'Tab 0: Form | Tab 1 (current): Next');
  obs = await act('```tab_focus [0]```');
  assert.equal(obs.tabs, 'Tab 0 (current): Form | Tab 1: Next');
  assert.equal(obs.url, `${server.origin}/form`);
  obs = await act('```tab_focus [1]```');
  obs = await act('```close_tab```');
  assert.equal(obs.tabs, 'Tab 0 (current): Form');
  await env.abandon();
});

test('go_back and go_forward walk the history', async () => {
  let obs = await env.reset(webarenaTask(`${server.origin}/form`));
  obs = await act({ type: 'click', elementId: idOf(obs, 'link', 'Next page') });
  assert.equal(obs.url, `${server.origin}/next`);
  obs = await act('```go_back```');
  assert.equal(obs.url, `${server.origin}/form`);
  obs = await act('```go_forward```');
  assert.equal(obs.url, `${server.origin}/next`);
  await env.abandon();
});

test('start URLs joined by |AND| open one tab each, the first current', async () => {
  const obs = await env.reset(webarenaTask([`${server.origin}/form`, `${server.origin}/next`]));
  assert.equal(obs.tabs, 'Tab 0 (current): Form | Tab 1: Next');
  await env.abandon();
});

test('an impossible or unparseable action leaves a note in the next observation and the episode goes on', async () => {
  let obs = await env.reset(webarenaTask(`${server.origin}/form`));
  obs = await act('```click [99999999]```');
  assert.match(obs.notes.join('\n'), /there is no element \[99999999\]/);
  obs = await act('```tab_focus [7]```');
  assert.match(obs.notes.join('\n'), /there is no tab 7/);
  obs = await act('I think I should click something');
  assert.match(obs.notes.join('\n'), /Invalid action: Cannot parse action/);
  obs = await act(`\`\`\`click [${idOf(obs, 'button', 'Press me')}]\`\`\``);
  assert.deepEqual(obs.notes, []);
  assert.match(obs.tree, /heading 'Clicked'/);
  await env.abandon();
});

test('a click waits out a cover fading over its element; a cover that stays takes the click', async () => {
  let obs = await env.reset(webarenaTask(`${server.origin}/covered?fade`));
  obs = await act({ type: 'click', elementId: idOf(obs, 'button', 'Under') });
  assert.match(obs.tree, /heading 'button'/);
  await env.abandon();
  obs = await env.reset(webarenaTask(`${server.origin}/covered`));
  obs = await act({ type: 'click', elementId: idOf(obs, 'button', 'Under') });
  assert.match(obs.tree, /heading 'cover'/);
  await env.abandon();
});
