import { createHash } from 'node:crypto';

/** Escaped HTML building: interpolated strings are escaped, `Html` values and arrays of them are not. */
export class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

export type HtmlValue = Html | string | number | null | undefined | false | readonly HtmlValue[];

export function esc(s: string): string {
  return s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

function render(v: HtmlValue): string {
  if (v === null || v === undefined || v === false) return '';
  if (v instanceof Html) return v.value;
  if (Array.isArray(v)) return v.map(render).join('');
  return esc(String(v));
}

export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): Html {
  let out = strings[0] ?? '';
  for (let i = 0; i < values.length; i++) out += render(values[i] as HtmlValue) + (strings[i + 1] ?? '');
  return new Html(out);
}

export function raw(s: string): Html {
  return new Html(s);
}

// Links are inline-block: a link that wraps onto two lines would otherwise measure as the union of
// its line boxes, and a click at that box's centre (WebArena's way of clicking) can miss the text.
const STYLE = `
body{font-family:system-ui,sans-serif;margin:0;color:#1d1d1f;background:#fafafa}
header{background:#24324a;color:#fff;padding:8px 16px;display:flex;gap:16px;align-items:center;flex-wrap:wrap}
header a{color:#fff}
a{display:inline-block}
header .brand{font-weight:700;font-size:1.2em;text-decoration:none}
nav ul{list-style:none;display:flex;gap:12px;margin:0;padding:0}
main{padding:16px;max-width:1100px}
table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:4px 8px;text-align:left}
.card{background:#fff;border:1px solid #ddd;border-radius:6px;padding:8px 12px;margin:8px 0}
.grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(240px,1fr));gap:8px;list-style:none;padding:0}
.muted{color:#666;font-size:.9em}
.label{display:inline-block;background:#e4ebf5;border-radius:8px;padding:0 6px;margin-right:4px}
form.inline{display:inline}
label{display:block;margin-top:6px}
footer{padding:16px;color:#666;font-size:.8em}
`;

export interface LayoutOptions {
  siteName: string;
  base: string;
  title: string;
  nav: Array<[string, string]>;
  user: string | null;
  loginPath: string;
  search?: { action: string; name: string; value: string; label: string };
  flash?: string;
  body: HtmlValue;
}

export function layout(o: LayoutOptions): string {
  const doc = html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${o.title} · ${o.siteName}</title>
<style>${raw(STYLE)}</style>
</head>
<body>
<header>
<a class="brand" href="${o.base}/">${o.siteName}</a>
<nav aria-label="Main">
<ul>${o.nav.map(([href, text]) => html`<li><a href="${o.base}${href}">${text}</a></li>`)}</ul>
</nav>
${
  o.search
    ? html`<form role="search" method="get" action="${o.base}${o.search.action}">
<label for="site-search" style="display:inline">${o.search.label}</label>
<input id="site-search" type="search" name="${o.search.name}" value="${o.search.value}">
<button type="submit">Search</button>
</form>`
    : ''
}
<div class="account">${
    o.user
      ? html`Signed in as <strong class="current-user">${o.user}</strong>
<form class="inline" method="post" action="${o.base}/logout"><button type="submit">Sign out</button></form>`
      : html`<a href="${o.base}${o.loginPath}">Sign in</a>`
  }</div>
</header>
<main id="main">
${o.flash ? html`<p role="status" class="flash">${o.flash}</p>` : ''}
${o.body}
</main>
<footer>${o.siteName} — a MiniArena site</footer>
</body>
</html>
`;
  return doc.value;
}

/** Page links: "Previous", numbered pages, "Next". `href(p)` builds the URL of page p. */
export function pager(page: number, pages: number, href: (p: number) => string): Html {
  if (pages <= 1) return html``;
  const items: Html[] = [];
  if (page > 1) items.push(html`<li><a href="${href(page - 1)}" rel="prev">Previous</a></li>`);
  for (let p = 1; p <= pages; p++) {
    items.push(
      p === page
        ? html`<li><span aria-current="page">Page ${p}</span></li>`
        : html`<li><a href="${href(p)}">Page ${p}</a></li>`,
    );
  }
  if (page < pages) items.push(html`<li><a href="${href(page + 1)}" rel="next">Next</a></li>`);
  return html`<nav aria-label="Pagination" class="pager"><ul style="list-style:none;display:flex;gap:8px;padding:0">${items}</ul></nav>`;
}

export function paginate<T>(items: readonly T[], page: number, perPage: number) {
  const pages = Math.max(1, Math.ceil(items.length / perPage));
  const p = Math.min(Math.max(1, page), pages);
  return { page: p, pages, items: items.slice((p - 1) * perPage, p * perPage), total: items.length };
}

/** "1 review", "3 reviews". */
export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** The one script MiniArena's pages run: a key handler (NO_ENTER_SUBMIT), which fetches nothing. */
const NO_ENTER_HANDLER = "if(event.key==='Enter'&&event.target.tagName==='INPUT'){event.preventDefault()}";

/** On a multi-field form: Enter in a text input does not submit it (click the button instead), so an
 *  agent whose "type" presses Enter can fill one field after another. Single-field forms keep Enter. */
export const NO_ENTER_SUBMIT = raw(`onkeydown="${esc(NO_ENTER_HANDLER)}"`);

/**
 * Every MiniArena response's script policy: that handler and no other script (the env's own
 * evaluation over CDP is not a page's script). What MINIARENA_QUIET_MS relies on.
 */
export const PAGE_SCRIPT_POLICY = `script-src 'unsafe-hashes' 'sha256-${createHash('sha256').update(NO_ENTER_HANDLER).digest('base64')}'`;
