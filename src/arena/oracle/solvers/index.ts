import type { Solver } from '../types.js';
import { forumSolvers } from './forum.js';
import { shopSolvers } from './shop.js';
import { trackerSolvers } from './tracker.js';

/** One scripted solver per intent template, keyed by the template's key. */
export const SOLVERS: Readonly<Record<string, Solver>> = {
  ...shopSolvers,
  ...forumSolvers,
  ...trackerSolvers,
};
