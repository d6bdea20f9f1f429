// Every registered config section, the core first. A part that owns keys adds its section here:
// schema.ts lays each at the paths it names, and test/config checks that every key has one owner.
import { core } from '../core.js';
import { awr } from './awr.js';
import { branchSearch } from './branch-search.js';
import { demoMix } from './demo-mix.js';
import { envCtrl } from './env-ctrl.js';
import { envs } from './envs.js';
import { externalLearner } from './external-learner.js';
import { fault } from './fault.js';
import { filteredBc } from './filtered-bc.js';
import { judge } from './judge.js';
import { miniwob } from './miniwob.js';
import { stopProbes } from './stop-probes.js';
import { supervisor } from './supervisor.js';
import { testTimeSearch } from './test-time-search.js';
import { tfjsPolicy } from './tfjs-policy.js';
import { transport } from './transport.js';

export const SECTIONS = [
  core,
  testTimeSearch,
  branchSearch,
  stopProbes,
  filteredBc,
  awr,
  demoMix,
  externalLearner,
  tfjsPolicy,
  envs,
  envCtrl,
  miniwob,
  judge,
  supervisor,
  transport,
  fault,
] as const;
