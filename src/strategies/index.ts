// The collection and evaluation strategies, each a plug-in of the episode runner (src/episode) in
// a module of its own: they import the runner, never one another.
import type { Config } from '../config/index.js';
import type { Strategy } from '../episode/index.js';
import { branchSearch } from './branch-search.js';
import { stopProbes } from './stop-probes.js';
import { testTimeSearch } from './test-time-search.js';

/** A worker's strategies, in the order they act: each says itself which episodes it takes part in. */
export function strategiesFor(config: Config): Strategy[] {
  return [stopProbes(config), branchSearch(config), testTimeSearch(config)];
}
