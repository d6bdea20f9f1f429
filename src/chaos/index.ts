// `tti-run chaos`: random kills on a live run, and the verdict on what it lost.
export * from './chaos-run.js';
export * from './duration.js';
export * from './host-cut.js';
