// How a child's exit status tells the supervisor what a restart would do.

/**
 * The child refused to start for a reason a restart repeats (a checkpoint that does not fit the
 * policy, a missing file the config names): the supervisor stops the run with the child's last
 * error at once rather than restarting it into the same failure. 78 is sysexits' EX_CONFIG.
 */
export const EXIT_REFUSED = 78;
