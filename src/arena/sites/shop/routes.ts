import { displayDate, isoDate, money } from '../../format.js';
import { type Html, html, layout, NO_ENTER_SUBMIT, pager, paginate, plural } from '../../html.js';
import { intParam, notFound, ok, Router, redirect, type SiteRequest, type SiteResponse } from '../../http.js';
import { type SiteContext, safeNext } from '../common.js';
import {
  ORDERS_PAGE_SIZE,
  type Order,
  ordersOf,
  type Product,
  productRating,
  reviewCounts,
  SHIPPING,
  SHOP_PAGE_SIZE,
  type ShopSort,
  type ShopState,
  searchProducts,
  sortProducts,
} from './data.js';

const SORTS: Array<[ShopSort, string]> = [
  ['position', 'Position'],
  ['price_asc', 'Price: low to high'],
  ['price_desc', 'Price: high to low'],
  ['name_asc', 'Name'],
  ['rating_desc', 'Rating'],
];

export function shopRoutes(ctx: SiteContext<ShopState>): Router {
  const page = (req: SiteRequest, title: string, body: Html | Html[], flash?: string) =>
    ok(
      layout({
        siteName: 'MiniShop',
        base: req.base,
        title,
        nav: [
          ['/', 'Home'],
          ['/categories', 'Categories'],
          ['/cart', 'My Cart'],
          ['/orders', 'My Orders'],
          ['/account', 'My Account'],
        ],
        user: req.user,
        loginPath: '/login',
        search: { action: '/search', name: 'q', value: req.query.get('q') ?? '', label: 'Search products' },
        flash: flash ?? req.query.get('flash') ?? undefined,
        body,
      }),
    );
  const needLogin = (req: SiteRequest): SiteResponse | null =>
    req.user ? null : redirect(`${req.base}/login?next=${encodeURIComponent(`${req.base}${req.path}`)}`);
  const productUrl = (req: SiteRequest, p: Product) => `${req.base}/product/${p.slug}`;

  const productList = (req: SiteRequest, items: Product[], href: (q: URLSearchParams) => string): Html => {
    const st = ctx.state();
    const counts = reviewCounts(st);
    const defaultSort: ShopSort = req.query.has('q') ? 'relevance' : 'position';
    const sort = (req.query.get('sort') as ShopSort | null) ?? defaultSort;
    const sorted = sortProducts(st, items, sort);
    const pg = paginate(sorted, intParam(req.query.get('page'), 1), SHOP_PAGE_SIZE);
    const withParams = (changes: Record<string, string | null>) => {
      const q = new URLSearchParams(req.query);
      for (const [k, v] of Object.entries(changes)) {
        if (v === null) q.delete(k);
        else q.set(k, v);
      }
      return href(q);
    };
    const sorts: Array<[ShopSort, string]> = req.query.has('q')
      ? [['relevance', 'Relevance'], ...SORTS.slice(1)]
      : SORTS;
    return html`<p class="toolbar-amount">${
      pg.total === 0
        ? 'No products found.'
        : `Items ${(pg.page - 1) * SHOP_PAGE_SIZE + 1}-${(pg.page - 1) * SHOP_PAGE_SIZE + pg.items.length} of ${pg.total}`
    }</p>
<nav aria-label="Sort products"><span>Sort by:</span> ${sorts.map(([key, label]) =>
      key === sort
        ? html`<strong aria-current="true">${label}</strong> `
        : html`<a href="${withParams({ sort: key, page: null })}">${label}</a> `,
    )}</nav>
<ul class="grid product-list" aria-label="Products">${pg.items.map((p) => {
      const r = productRating(st, p.id);
      return html`<li class="card product-item"><a class="product-name" href="${productUrl(req, p)}">${p.name}</a>
<p class="price">${money(p.price)}</p>
<p class="muted">${r.count ? `Rating: ${r.avg} out of 5 (${plural(counts.get(p.id) ?? 0, 'review')})` : 'No reviews yet'}</p></li>`;
    })}</ul>
${pager(pg.page, pg.pages, (p) => withParams({ page: String(p) }))}`;
  };

  const orderTotalLine = (o: Order) => `${o.items.reduce((s, i) => s + i.qty, 0)} item(s)`;

  return new Router()
    .get(/^\/$/, (req) => {
      const st = ctx.state();
      const counts = reviewCounts(st);
      const popular = st.products
        .slice()
        .sort((a, b) => (counts.get(b.id) ?? 0) - (counts.get(a.id) ?? 0) || a.id - b.id)
        .slice(0, 8);
      return page(
        req,
        'Home',
        html`<h1>Welcome to MiniShop</h1>
<section aria-labelledby="cats"><h2 id="cats">Shop by category</h2>
<ul>${st.categories.map((c) => html`<li><a href="${req.base}/category/${c.slug}">${c.name}</a></li>`)}</ul></section>
<section aria-labelledby="pop"><h2 id="pop">Most reviewed products</h2>
<ul class="grid">${popular.map(
          (p) =>
            html`<li class="card"><a href="${productUrl(req, p)}">${p.name}</a> <span class="price">${money(p.price)}</span></li>`,
        )}</ul></section>`,
      );
    })
    .get(/^\/categories$/, (req) => {
      const st = ctx.state();
      return page(
        req,
        'Categories',
        html`<h1>Categories</h1><ul>${st.categories.map((c) => {
          const n = st.products.filter((p) => p.category === c.slug).length;
          return html`<li><a href="${req.base}/category/${c.slug}">${c.name}</a> <span class="muted">(${n} products)</span></li>`;
        })}</ul>`,
      );
    })
    .get(/^\/category\/([a-z0-9-]+)$/, (req, [slug]) => {
      const st = ctx.state();
      const cat = st.categories.find((c) => c.slug === slug);
      if (!cat) return notFound(req.base);
      const items = st.products.filter((p) => p.category === cat.slug);
      return page(
        req,
        cat.name,
        html`<nav aria-label="Breadcrumb"><a href="${req.base}/">Home</a> › ${cat.name}</nav><h1>${cat.name}</h1>
${productList(req, items, (q) => `${req.base}/category/${cat.slug}${q.size ? `?${q}` : ''}`)}`,
      );
    })
    .get(/^\/search$/, (req) => {
      const q = req.query.get('q') ?? '';
      const items = searchProducts(ctx.state(), q);
      return page(
        req,
        `Search results for '${q}'`,
        html`<h1>Search results for '${q}'</h1>${productList(req, items, (p) => `${req.base}/search?${p}`)}`,
      );
    })
    .get(/^\/product\/([a-z0-9-]+)$/, (req, [slug]) => {
      const st = ctx.state();
      const p = st.products.find((x) => x.slug === slug);
      if (!p) return notFound(req.base);
      const cat = st.categories.find((c) => c.slug === p.category);
      const reviews = st.reviews.filter((r) => r.productId === p.id);
      const r = productRating(st, p.id);
      return page(
        req,
        p.name,
        html`<nav aria-label="Breadcrumb"><a href="${req.base}/">Home</a> › <a href="${req.base}/category/${p.category}">${cat?.name ?? ''}</a> › ${p.name}</nav>
<article class="product-info">
<h1 class="product-title">${p.name}</h1>
<p class="price">${money(p.price)}</p>
<dl class="product-attributes">
<dt>SKU</dt><dd class="sku">${p.sku}</dd>
<dt>Brand</dt><dd class="brand">${p.brand}</dd>
<dt>Color</dt><dd class="color">${p.color}</dd>
<dt>Rating</dt><dd class="rating-summary">${r.count ? `${r.avg} out of 5 (${plural(r.count, 'review')})` : 'No reviews yet'}</dd>
</dl>
<p class="description">${p.description}</p>
<form method="post" action="${req.base}/cart/add" aria-label="Add to cart">
<input type="hidden" name="product_id" value="${p.id}">
<label for="qty">Qty</label> <input id="qty" name="qty" type="number" min="1" max="99" value="1">
<button type="submit">Add to Cart</button>
</form>
</article>
<section aria-labelledby="reviews-h" class="reviews"><h2 id="reviews-h">Customer Reviews (${reviews.length})</h2>
${reviews.length === 0 ? html`<p>No reviews yet. Be the first to review this product.</p>` : ''}
${reviews.map(
  (rv) => html`<article class="review-item card" aria-label="Review by ${rv.author}">
<h3 class="review-title">${rv.title}</h3>
<p class="review-rating">Rating: ${rv.rating} out of 5 stars</p>
<p class="review-author">Review by <strong>${rv.author}</strong> <span class="muted">posted ${displayDate(rv.date)}</span></p>
<p class="review-content">${rv.body}</p></article>`,
)}
<h2 id="write-review">Write Your Own Review</h2>
<form method="post" action="${req.base}/product/${p.slug}/review" aria-labelledby="write-review" class="review-form" ${NO_ENTER_SUBMIT}>
<fieldset><legend>Your Rating</legend>
${[1, 2, 3, 4, 5].map((n) => html`<label style="display:inline"><input type="radio" name="rating" value="${n}"> ${n} star${n > 1 ? 's' : ''}</label> `)}
</fieldset>
<label for="nickname">Nickname</label><input id="nickname" name="nickname">
<label for="summary">Summary</label><input id="summary" name="title">
<label for="review-text">Review</label><textarea id="review-text" name="body"></textarea>
<p><button type="submit">Submit Review</button></p>
</form></section>`,
      );
    })
    .post(/^\/product\/([a-z0-9-]+)\/review$/, (req, [slug]) => {
      const st = ctx.state();
      const p = st.products.find((x) => x.slug === slug);
      if (!p) return notFound(req.base);
      const rating = intParam(req.form.get('rating'), 0);
      const author = (req.form.get('nickname') ?? '').trim();
      const title = (req.form.get('title') ?? '').trim();
      const body = (req.form.get('body') ?? '').trim();
      const back = `${req.base}/product/${p.slug}`;
      if (rating < 1 || rating > 5 || !author || !title || !body)
        return redirect(
          `${back}?flash=${encodeURIComponent('Please fill in the rating, nickname, summary and review.')}`,
        );
      st.reviews.push({
        id: st.nextReviewId++,
        productId: p.id,
        author,
        rating,
        title,
        body,
        date: isoDate(st.today),
      });
      return redirect(`${back}?flash=${encodeURIComponent('You submitted your review.')}`);
    })
    .post(/^\/cart\/add$/, (req) => {
      const denied = needLogin(req);
      if (denied || !req.user) return denied ?? redirect(`${req.base}/login`);
      const st = ctx.state();
      const p = st.products.find((x) => x.id === intParam(req.form.get('product_id'), -1));
      if (!p) return notFound(req.base);
      const qty = Math.max(1, Math.min(99, intParam(req.form.get('qty'), 1)));
      const cart = st.carts[req.user] ?? [];
      st.carts[req.user] = cart;
      const line = cart.find((l) => l.productId === p.id);
      if (line) line.qty += qty;
      else cart.push({ productId: p.id, qty });
      return redirect(
        `${req.base}/cart?flash=${encodeURIComponent(`You added ${p.name} to your shopping cart.`)}`,
      );
    })
    .post(/^\/cart\/remove$/, (req) => {
      const denied = needLogin(req);
      if (denied || !req.user) return denied ?? redirect(`${req.base}/login`);
      const st = ctx.state();
      const id = intParam(req.form.get('product_id'), -1);
      st.carts[req.user] = (st.carts[req.user] ?? []).filter((l) => l.productId !== id);
      return redirect(`${req.base}/cart`);
    })
    .get(/^\/cart$/, (req) => {
      const denied = needLogin(req);
      if (denied || !req.user) return denied ?? redirect(`${req.base}/login`);
      const st = ctx.state();
      const lines = (st.carts[req.user] ?? []).flatMap((l) => {
        const p = st.products.find((x) => x.id === l.productId);
        return p ? [{ p, qty: l.qty }] : [];
      });
      const total = lines.reduce((s, l) => s + l.qty * l.p.price, 0);
      return page(
        req,
        'Shopping Cart',
        html`<h1>Shopping Cart</h1>
${
  lines.length === 0
    ? html`<p class="cart-empty">You have no items in your shopping cart.</p>`
    : html`<table class="cart-items"><caption>Items in your cart</caption>
<thead><tr><th scope="col">Item</th><th scope="col">Price</th><th scope="col">Qty</th><th scope="col">Subtotal</th><th scope="col">Action</th></tr></thead>
<tbody>${lines.map(
        (
          l,
        ) => html`<tr class="cart-item"><td><a class="cart-item-name" href="${productUrl(req, l.p)}">${l.p.name}</a></td><td>${money(l.p.price)}</td>
<td class="cart-qty">${l.qty}</td><td>${money(l.qty * l.p.price)}</td>
<td><form class="inline" method="post" action="${req.base}/cart/remove"><input type="hidden" name="product_id" value="${l.p.id}"><button type="submit" aria-label="Remove ${l.p.name}">Remove</button></form></td></tr>`,
      )}</tbody></table>
<p class="cart-total">Subtotal: <strong>${money(total)}</strong></p>
<p><a href="${req.base}/checkout">Proceed to Checkout</a></p>`
}`,
      );
    })
    .get(/^\/checkout$/, (req) => {
      const denied = needLogin(req);
      if (denied || !req.user) return denied ?? redirect(`${req.base}/login`);
      const st = ctx.state();
      const u = st.users.find((x) => x.email === req.user);
      const lines = st.carts[req.user] ?? [];
      if (lines.length === 0) return redirect(`${req.base}/cart`);
      const a = u?.address;
      return page(
        req,
        'Checkout',
        html`<h1>Checkout</h1>
<form method="post" action="${req.base}/checkout" aria-label="Shipping address and method" ${NO_ENTER_SUBMIT}>
<fieldset><legend>Shipping Address</legend>
<label for="ship-name">Full Name</label><input id="ship-name" name="name" value="${a?.name ?? ''}">
<label for="ship-street">Street Address</label><input id="ship-street" name="street" value="${a?.street ?? ''}">
<label for="ship-city">City</label><input id="ship-city" name="city" value="${a?.city ?? ''}">
<label for="ship-state">State</label><input id="ship-state" name="state" value="${a?.state ?? ''}">
<label for="ship-zip">Zip/Postal Code</label><input id="ship-zip" name="zip" value="${a?.zip ?? ''}">
</fieldset>
<fieldset><legend>Shipping Method</legend>
<label><input type="radio" name="shipping" value="standard" checked> Standard ${money(SHIPPING.standard)}</label>
<label><input type="radio" name="shipping" value="express"> Express ${money(SHIPPING.express)}</label>
</fieldset>
<p><button type="submit">Place Order</button></p>
</form>`,
      );
    })
    .post(/^\/checkout$/, (req) => {
      const denied = needLogin(req);
      if (denied || !req.user) return denied ?? redirect(`${req.base}/login`);
      const st = ctx.state();
      const lines = st.carts[req.user] ?? [];
      if (lines.length === 0) return redirect(`${req.base}/cart`);
      const f = (k: string) => (req.form.get(k) ?? '').trim();
      const address = {
        name: f('name'),
        street: f('street'),
        city: f('city'),
        state: f('state'),
        zip: f('zip'),
      };
      if (Object.values(address).some((v) => v === ''))
        return redirect(
          `${req.base}/checkout?flash=${encodeURIComponent('Please fill in every address field.')}`,
        );
      const shipping = f('shipping') === 'express' ? SHIPPING.express : SHIPPING.standard;
      const items = lines.flatMap((l) => {
        const p = st.products.find((x) => x.id === l.productId);
        return p ? [{ productId: p.id, name: p.name, qty: l.qty, price: p.price }] : [];
      });
      const order: Order = {
        id: st.nextOrderId++,
        user: req.user,
        date: isoDate(st.today),
        status: 'Pending',
        items,
        shipping,
        total: items.reduce((s, i) => s + i.qty * i.price, 0) + shipping,
        address,
      };
      st.orders.push(order);
      st.carts[req.user] = [];
      return redirect(
        `${req.base}/orders/${order.id}?flash=${encodeURIComponent('Thank you for your purchase!')}`,
      );
    })
    .get(/^\/orders$/, (req) => {
      const denied = needLogin(req);
      if (denied || !req.user) return denied ?? redirect(`${req.base}/login`);
      const pg = paginate(
        ordersOf(ctx.state(), req.user),
        intParam(req.query.get('page'), 1),
        ORDERS_PAGE_SIZE,
      );
      return page(
        req,
        'My Orders',
        html`<h1>My Orders</h1>
<table class="orders-history"><caption>Orders ${(pg.page - 1) * ORDERS_PAGE_SIZE + 1}-${(pg.page - 1) * ORDERS_PAGE_SIZE + pg.items.length} of ${pg.total}</caption>
<thead><tr><th scope="col">Order #</th><th scope="col">Date</th><th scope="col">Items</th><th scope="col">Order Total</th><th scope="col">Status</th><th scope="col">Action</th></tr></thead>
<tbody>${pg.items.map(
          (
            o,
          ) => html`<tr class="order-row"><td>${o.id}</td><td>${displayDate(o.date)}</td><td>${orderTotalLine(o)}</td><td>${money(o.total)}</td><td class="order-status">${o.status}</td>
<td><a href="${req.base}/orders/${o.id}" aria-label="View order ${o.id}">View Order</a></td></tr>`,
        )}</tbody></table>
${pager(pg.page, pg.pages, (p) => `${req.base}/orders?page=${p}`)}`,
      );
    })
    .get(/^\/orders\/(\d+)$/, (req, [id]) => {
      const denied = needLogin(req);
      if (denied || !req.user) return denied ?? redirect(`${req.base}/login`);
      const o = ctx.state().orders.find((x) => String(x.id) === id && x.user === req.user);
      if (!o) return notFound(req.base);
      return page(
        req,
        `Order # ${o.id}`,
        html`<h1>Order # ${o.id}</h1>
<p>Status: <strong class="order-status">${o.status}</strong></p>
<p>Order Date: <span class="order-date">${displayDate(o.date)}</span></p>
<table class="order-items"><caption>Items Ordered</caption>
<thead><tr><th scope="col">Product Name</th><th scope="col">Price</th><th scope="col">Qty</th><th scope="col">Subtotal</th></tr></thead>
<tbody>${o.items.map(
          (i) =>
            html`<tr><td class="order-item-name">${i.name}</td><td>${money(i.price)}</td><td>${i.qty}</td><td>${money(i.qty * i.price)}</td></tr>`,
        )}</tbody></table>
<p>Shipping &amp; Handling: ${money(o.shipping)}</p>
<p>Grand Total: <strong class="order-total">${money(o.total)}</strong></p>
<section aria-labelledby="addr"><h2 id="addr">Shipping Address</h2>
<address class="order-address">${o.address.name}<br>${o.address.street}<br>${o.address.city}, ${o.address.state} ${o.address.zip}</address></section>
<p><a href="${req.base}/orders">Back to My Orders</a></p>`,
      );
    })
    .get(/^\/account$/, (req) => {
      const denied = needLogin(req);
      if (denied) return denied;
      const u = ctx.state().users.find((x) => x.email === req.user);
      return page(
        req,
        'My Account',
        html`<h1>My Account</h1><section aria-labelledby="contact"><h2 id="contact">Contact Information</h2><p>${u?.fullName ?? ''}<br>${u?.email ?? ''}</p></section>
<section aria-labelledby="ab"><h2 id="ab">Default Shipping Address</h2><address>${u?.address.street ?? ''}<br>${u?.address.city ?? ''}, ${u?.address.state ?? ''} ${u?.address.zip ?? ''}</address></section>`,
      );
    })
    .get(/^\/login$/, (req) =>
      page(
        req,
        'Customer Login',
        html`<h1>Customer Login</h1>
<form method="post" action="${req.base}/login" aria-label="Sign in">
<input type="hidden" name="next" value="${req.query.get('next') ?? ''}">
<label for="email">Email</label><input id="email" name="email" type="email" autocomplete="username">
<label for="pass">Password</label><input id="pass" name="password" type="password" autocomplete="current-password">
<p><button type="submit">Sign In</button></p></form>`,
      ),
    )
    .post(/^\/login$/, (req) => {
      const email = (req.form.get('email') ?? '').trim();
      const u = ctx.state().users.find((x) => x.email === email && x.password === req.form.get('password'));
      if (!u)
        return redirect(
          `${req.base}/login?flash=${encodeURIComponent('The sign-in is incorrect. Try again.')}`,
        );
      return redirect(safeNext(req.base, req.form.get('next')), { 'set-cookie': ctx.signIn(u.email) });
    })
    .post(/^\/logout$/, (req) => redirect(`${req.base}/`, { 'set-cookie': ctx.signOut() }));
}
