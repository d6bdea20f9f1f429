// The episode viewer: a local web page over a run's episode records.
export * from './server.js';
