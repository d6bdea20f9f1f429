import type { Router } from '../http.js';

/** What a site's routes may use from the host: its current state and session cookies. */
export interface SiteContext<S> {
  state(): S;
  /** Set-Cookie header value that signs `user` in to this site. */
  signIn(user: string): string;
  /** Set-Cookie header value that signs out of this site. */
  signOut(): string;
}

export type SiteKey = 'shop' | 'forum' | 'tracker';

export interface SiteModule<S> {
  key: SiteKey;
  routes(ctx: SiteContext<S>): Router;
}

/** "return to" targets must stay inside the site. */
export function safeNext(base: string, next: string | null): string {
  return next?.startsWith(`${base}/`) && !next.startsWith('//') ? next : `${base}/`;
}
