// Why an episode could not start. A failed login is one of them, told apart because it is the
// site's fault, not the policy's: the env worker marks its host unhealthy and gives the episode back.

export class EpisodeSetupError extends Error {
  override name = 'EpisodeSetupError';
}

/** The task's login did not hold (browser/login.ts says when). */
export class LoginFailedError extends EpisodeSetupError {
  override name = 'LoginFailedError';
}

/** Whether an error (from a reset, through any wrapping that keeps its name) is a failed login. */
export function isLoginFailure(error: unknown): error is LoginFailedError {
  return error instanceof Error && error.name === 'LoginFailedError';
}
