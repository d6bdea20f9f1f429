import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { newEpisodeContext } from '../../src/envs/browser/launch.js';
import { EpisodeSession } from '../../src/envs/browser/session.js';
import { launchBrowser, type ObservationOptions, TRUNCATION_MARKER } from '../../src/envs/index.js';
import { nodeStates, observationColumns } from '../../src/envs/observation/columns.js';
import { observe } from '../../src/envs/observation/observe.js';
import { withCaptureRetries } from '../../src/envs/observation/set-of-marks.js';
import { page, serve, type TestServer } from './support/server.js';

const SHOP = page(
  'One Stop Market',
  `<nav><ul><li><a href="/account">My Account</a></li><li><a href="/cart">Cart</a></li></ul></nav>
<main>
<h1>Don't miss out</h1>
<p>Price: <strong>$5.00</strong></p>
<div><span>Sold by</span> <a href="/acme">Acme</a></div>
<button>Add to Cart</button>
<p>Add to Cart</p>
<form><label for="q">Search</label> <input id="q" type="text" required>
<input type="checkbox" id="c" checked><label for="c">Gift&nbsp;wrap</label>
<select aria-label="Size"><option>S</option><option selected>M</option></select>
<textarea aria-label="Review"></textarea></form>
<img src="data:," alt="">
</main>`,
);

// WebArena's rules at work: empty list/listitem/paragraph/generic/strong nodes skipped with their
// children moved up; the repeated "Add to Cart" StaticText dropped; repr() quoting (Don't, \xa0);
// focusable/editable/settable/level/multiline not printed; depth in tabs.
const GOLDEN = `Tab 0 (current): One Stop Market

[N] RootWebArea 'One Stop Market' focused: True url: URL
\t[N] ListMarker '• '
\t[N] link 'My Account' url: URL
\t[N] ListMarker '• '
\t[N] link 'Cart' url: URL
\t[N] main ''
\t\t[N] heading "Don't miss out"
\t\t[N] StaticText 'Price: '
\t\t[N] StaticText '$5.00'
\t\t[N] StaticText 'Sold by'
\t\t[N] link 'Acme' url: URL
\t\t[N] button 'Add to Cart'
\t\t[N] form ''
\t\t\t[N] StaticText 'Search'
\t\t\t[N] textbox 'Search' required: True
\t\t\t[N] checkbox 'Gift\\xa0wrap' checked: true
\t\t\t[N] combobox 'Size' hasPopup: menu expanded: False
\t\t\t\t[N] MenuListPopup ''
\t\t\t\t\t[N] option 'S' selected: False
\t\t\t\t\t[N] option 'M' selected: True
\t\t\t[N] textbox 'Review' required: False`;

const TALL = page(
  'Tall',
  `<button style="position:absolute;top:10px">Top</button>
<button style="position:absolute;top:700px;height:100px">Half out</button>
<button style="position:absolute;top:3000px">Far</button>
<a href="/x" style="display:inline-block;width:0;height:0;overflow:hidden">Zero</a>`,
);

const TRICKY = page(
  'Tricky',
  `<div style="position:fixed;top:5px;left:600px">Fixed bar <b>bold</b></div>
<div id="sc" style="height:200px;overflow:auto"><p style="height:500px">inner <i>scrolled</i></p><p>deep text</p></div>
<span style="display:inline-block;transform:translateX(30px) scale(1.5)">moved</span>
<span>${'many words '.repeat(120)}<a href="/w">wrapped link across lines</a></span>
<div style="display:contents"><button>Contents child</button></div>
<ol><li>first</li><li>second</li></ol>
<button style="display:none">Hidden</button>
${Array.from({ length: 60 }, (_, i) => `<p>row ${i} <a href="/r${i}">go ${i}</a></p>`).join('')}`,
);

const LONG = page(
  'Long',
  Array.from({ length: 400 }, (_, i) => `<p><a href="/p${i}">link number ${i}</a></p>`).join(''),
);

// A <span> link inside running text that already contains its word, controls with states, and a
// text far below the fold.
const FLAGS = page(
  'Flags',
  `<p>Lorem ipsum dolor sit amet <span id="l">amet</span>.</p>
<button>Go</button>
<input type="checkbox" checked aria-label="Agree">
<input type="text" aria-label="Name" required>
<div style="position:absolute;top:2000px">Far below</div>
<script>document.getElementById('l').addEventListener('click', () => {});</script>`,
);

// BrowserGym's flags after each name; the span's text takes clicks itself, so WebArena's clean-up
// (its word is in the line before) spares it, while the '.' goes as usual (the URL has one). A
// button without a listener is not clickable to Chrome's DOMSnapshot (nor to BrowserGym).
const FLAGS_GOLDEN = `Tab 0 (current): Flags

[N] RootWebArea 'Flags', visible focused: True url: URL
\t[N] StaticText 'Lorem ipsum dolor sit amet ', visible
\t[N] StaticText 'amet', clickable, visible
\t[N] button 'Go', visible
\t[N] checkbox 'Agree', clickable, visible checked: true
\t[N] textbox 'Name', clickable, visible required: True
\t[N] StaticText 'Far below'`;

let server: TestServer;
let browser: Browser;
before(async () => {
  server = await serve({
    '/shop': SHOP,
    '/tall': TALL,
    '/long': LONG,
    '/tricky': TRICKY,
    '/other': page('Other tab', '<p>hi</p>'),
    '/flags': FLAGS,
  });
  browser = await launchBrowser();
});
after(async () => {
  await browser.close();
  await server.close();
});

async function observeAt(path: string, opts: ObservationOptions = {}, extraTabs: string[] = []) {
  const context = await newEpisodeContext(browser);
  const p = await context.newPage();
  await p.goto(server.origin + path);
  for (const t of extraTabs) await (await context.newPage()).goto(server.origin + t);
  await p.bringToFront();
  const session = new EpisodeSession(context, p);
  const obs = await observe(p, await session.client(), opts);
  return { ...obs, context, page: p };
}

test('the accessibility tree renders in WebArena text form (golden lines)', async () => {
  const { observation, elements, context, page: tab } = await observeAt('/shop');
  const normalized = observation.text.replace(/\[-?\d+\]/g, '[N]').replace(/url: \S+/g, 'url: URL');
  assert.equal(normalized, GOLDEN);
  assert.match(observation.tree, new RegExp(`link 'Acme' url: ${server.origin}/acme$`, 'm'));
  assert.equal(observation.url, `${server.origin}/shop`);
  assert.equal(await tab.evaluate("innerWidth + 'x' + innerHeight"), '1280x720');
  // Ids are Chrome's AX node ids, and each printed one maps to a DOM node with a box.
  const link = observation.nodes.find((n) => n.role === 'link' && n.name === 'Acme')!;
  assert.match(observation.tree, new RegExp(`\\[${link.id}\\] link 'Acme'`));
  assert.ok(elements.get(link.id)!.backendNodeId > 0);
  assert.ok(link.bounds && link.bounds[2] > 0 && link.bounds[3] > 0);
  assert.equal(link.depth, 2);
  assert.deepEqual(observation.nodes.find((n) => n.role === 'checkbox')!.properties, { checked: 'true' });
  await context.close();
});

test('every node carries clickable, focusable, editable and visible; the text shows them only with flags on', async () => {
  const off = await observeAt('/flags');
  await off.context.close();
  assert.doesNotMatch(off.observation.text, /, (clickable|visible)/, 'WebArena text by default');
  assert.doesNotMatch(
    off.observation.text,
    /StaticText 'amet'/,
    "WebArena's clean-up drops the repeated word",
  );
  const { observation, context } = await observeAt('/flags', { flags: true });
  await context.close();
  const normalized = observation.text.replace(/\[-?\d+\]/g, '[N]').replace(/url: \S+/g, 'url: URL');
  assert.equal(normalized, FLAGS_GOLDEN);
  const node = (role: string, name: string) =>
    observation.nodes.find((n) => n.role === role && n.name === name)!;
  const flags = (role: string, name: string) => {
    const n = node(role, name);
    return [n.clickable, n.focusable, n.editable, n.visible];
  };
  assert.deepEqual(flags('StaticText', 'amet'), [true, false, false, true]);
  assert.deepEqual(flags('StaticText', 'Lorem ipsum dolor sit amet '), [false, false, false, true]);
  assert.deepEqual(flags('button', 'Go'), [false, true, false, true]);
  assert.deepEqual(flags('textbox', 'Name'), [true, true, true, true]);
  assert.deepEqual(flags('StaticText', 'Far below'), [false, false, false, false]);
  // The columns a trainable policy gets: flags as 0/1, true states in order, integer boxes.
  const columns = observationColumns(observation.nodes, { width: 1280, height: 720 });
  const at = (role: string, name: string) => observation.nodes.indexOf(node(role, name));
  assert.equal(columns.states[at('checkbox', 'Agree')], 'checked');
  assert.equal(columns.states[at('textbox', 'Name')], 'required');
  assert.equal(columns.states[at('button', 'Go')], '');
  assert.equal(columns.editable[at('textbox', 'Name')], 1);
  assert.equal(columns.clickable[at('StaticText', 'amet')], 1);
  assert.equal(columns.visible[at('StaticText', 'Far below')], 0);
  const go = node('button', 'Go').bounds!;
  const i = at('button', 'Go');
  assert.deepEqual(
    [columns.x[i], columns.y[i], columns.w[i], columns.h[i]],
    go.map((v) => Math.round(v)),
  );
  for (const key of ['x', 'y', 'w', 'h'] as const) assert.ok(columns[key].every(Number.isInteger), key);
  assert.equal(
    nodeStates({ expanded: 'False', checked: 'mixed', focused: 'True', disabled: 'False' }),
    'mixed focused',
  );
  assert.equal(
    nodeStates({ required: 'True', selected: 'True', pressed: 'true' }),
    'selected pressed required',
  );
  assert.ok((columns.y[at('StaticText', 'Far below')] ?? 0) >= 2000);
});

test("boxes from one layout snapshot equal WebArena's per-node getBoundingClientRect", async () => {
  const context = await newEpisodeContext(browser);
  const p = await context.newPage();
  await p.goto(`${server.origin}/tricky`);
  await p.evaluate('window.scrollTo(0, 150); document.getElementById("sc").scrollTop = 120');
  const client = await new EpisodeSession(context, p).client();
  for (const currentViewportOnly of [false, true]) {
    const exact = await observe(p, client, { bounds: 'per-node', currentViewportOnly });
    const fast = await observe(p, client, { bounds: 'snapshot', currentViewportOnly });
    assert.equal(fast.observation.text, exact.observation.text);
    assert.equal(fast.observation.nodes.length, exact.observation.nodes.length);
    exact.observation.nodes.forEach((n, i) => {
      const f = fast.observation.nodes[i]!;
      assert.equal(f.id, n.id);
      if (n.bounds === null || f.bounds === null) {
        assert.equal(f.bounds, n.bounds, `${n.role} '${n.name}'`);
        return;
      }
      const far = n.bounds.some((v, k) => Math.abs(v - f.bounds![k]!) >= 0.5);
      assert.ok(!far, `${n.role} '${n.name}' ${n.bounds} vs ${f.bounds}`);
    });
  }
  await context.close();
});

test("TTI's variant drops the url property too", async () => {
  const { observation, context } = await observeAt('/shop', { ignoreUrlProperty: true });
  assert.doesNotMatch(observation.tree, /url:/);
  assert.equal(observation.text.replace(/\[-?\d+\]/g, '[N]'), GOLDEN.replace(/ url: URL/g, ''));
  await context.close();
});

test('viewport-only pruning drops far, zero-size and mostly hidden nodes; the full tree keeps them', async () => {
  const full = await observeAt('/tall');
  assert.match(full.observation.tree, /button 'Far'/);
  assert.match(full.observation.tree, /button 'Half out'/);
  await full.context.close();
  const vp = await observeAt('/tall', { currentViewportOnly: true });
  assert.match(vp.observation.tree, /button 'Top'/);
  assert.doesNotMatch(vp.observation.tree, /'Far'|link 'Zero'/);
  // 20 of 100 px visible: 0.2 with the true ratio; WebArena's ow*oh/w*h keeps it (a known quirk).
  assert.match(vp.observation.tree, /button 'Half out'/);
  await vp.context.close();
  const fixed = await observeAt('/tall', { currentViewportOnly: true, viewportRatio: 'corrected' });
  assert.doesNotMatch(fixed.observation.tree, /'Half out'/);
  await fixed.context.close();
});

test('the tab header lists every tab and marks the current one', async () => {
  const { observation, context } = await observeAt('/shop', {}, ['/other']);
  assert.equal(observation.tabs, 'Tab 0 (current): One Stop Market | Tab 1: Other tab');
  assert.ok(observation.text.startsWith(`${observation.tabs}\n\n[`));
  await context.close();
});

test('a tree over the size cap is cut at a line with a visible marker', async () => {
  const { observation, context } = await observeAt('/long', { maxChars: 2000 });
  assert.equal(observation.truncated, true);
  assert.ok(observation.tree.length <= 2000 + 80);
  const last = observation.tree.split('\n').at(-1)!;
  assert.ok(last.startsWith(TRUNCATION_MARKER), last);
  assert.match(last, /\d+ of \d+ lines shown/);
  await context.close();
});

test('screenshot is a JPEG; set-of-marks draws boxes and leaves the page unchanged', async () => {
  const plain = await observeAt('/shop', { screenshot: true });
  const marked = await observeAt('/shop', { setOfMarks: true });
  for (const o of [plain, marked]) {
    const shot = o.observation.screenshot!;
    assert.equal(shot[0], 0xff);
    assert.equal(shot[1], 0xd8);
  }
  assert.notDeepEqual(plain.observation.screenshot, marked.observation.screenshot);
  assert.equal(await marked.page.evaluate('document.getElementById("__tti_set_of_marks__") === null'), true);
  await plain.context.close();
  await marked.context.close();
});

// Chromium's transient "Unable to capture screenshot" cannot be caused on demand, so a capture
// function stands in for page.screenshot here.
test('a screenshot Chromium could not capture is taken again; other errors and lasting failures throw', async () => {
  const unable = () =>
    new Error('page.screenshot: Protocol error (Page.captureScreenshot): Unable to capture screenshot');
  let calls = 0;
  const shot = await withCaptureRetries(async () => {
    calls += 1;
    if (calls < 3) throw unable();
    return Buffer.from([0xff, 0xd8]);
  }, [1, 1]);
  assert.equal(calls, 3);
  assert.deepEqual([...shot], [0xff, 0xd8]);
  calls = 0;
  await assert.rejects(
    withCaptureRetries(async () => {
      calls += 1;
      throw unable();
    }, [1, 1]),
    /Unable to capture screenshot/,
  );
  assert.equal(calls, 3);
  calls = 0;
  await assert.rejects(
    withCaptureRetries(async () => {
      calls += 1;
      throw new Error('Target page, context or browser has been closed');
    }, [1, 1]),
    /has been closed/,
  );
  assert.equal(calls, 1);
});
