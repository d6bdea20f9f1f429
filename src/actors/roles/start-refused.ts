// A role that cannot start as configured throws this: its worker exits with EXIT_REFUSED, and the
// supervisor stops the run naming the reason once, not after a crash loop of restarts.

export class StartRefusedError extends Error {
  override name = 'StartRefusedError';
}
