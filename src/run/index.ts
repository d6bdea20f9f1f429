// A run on disk and from outside: its directory, CURVE key file, remote workers' credentials, the
// gate that checks them (and which roles may connect to which socket), the check that a message
// speaks for the worker it names, the process table that finds its processes, and the client of a
// live supervisor's status socket.
export * from './credentials.js';
export * from './curve-keys.js';
export * from './key-gate.js';
export * from './ownership.js';
export * from './process-table.js';
export * from './run-dir.js';
export * from './socket-roles.js';
export * from './speaker-check.js';
export * from './status-client.js';
