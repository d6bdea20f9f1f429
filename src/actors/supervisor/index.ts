// The supervisor: starts a run's workers, restarts them, runs the TTI loop and answers status and
// control requests. Child processes never import it (they import src/protocol).
export * from './supervisor.js';
