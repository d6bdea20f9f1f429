// Where a run's trainable policy starts, for the learner and the inference workers alike: the
// run's own newest checkpoint when it has one (a restarted worker, a resumed run), else the
// checkpoint `model.checkpoint` names (fine-tuning a trained policy, or an eval's policy), else a
// fresh init. The run's own checkpoints come first: a worker restarted in a run that began from a
// given checkpoint must not go back to it and lose what the run has learned since.
import { existsSync } from 'node:fs';
import path from 'node:path';
import {
  CheckpointStore,
  type LoadedModel,
  loadModelCheckpoint,
  readPriorFile,
  TfjsPolicy,
} from '../../model/index.js';
import { StartRefusedError } from './start-refused.js';
import type { RoleContext } from './worker-shell.js';

export interface StartingPolicy {
  /** 'run': the run's own newest checkpoint; 'given': `model.checkpoint`. */
  from: 'run' | 'given';
  loaded: LoadedModel;
}

/** The checkpoint a role starts from, or null for a fresh init. */
export function startingPolicy(ctx: RoleContext): StartingPolicy | null {
  if (ctx.runDir !== null) {
    const store = new CheckpointStore(
      path.join(ctx.runDir, 'checkpoints'),
      ctx.config.model.keep_checkpoints,
    );
    if (store.versions().length > 0)
      return { from: 'run', loaded: warned(ctx, refusing(`the run's checkpoints (${store.dir})`, store)) };
  }
  const given = ctx.config.model.checkpoint;
  // A worker on another machine may not have the file: it starts fresh, and the learner's weights
  // reach it over PUB/SUB before it serves (inference-role.ts).
  if (given !== null && ctx.remote && !existsSync(given)) {
    ctx.log.warn(`model.checkpoint ${given} is not on this machine; waiting for the learner's weights`);
    return null;
  }
  return given === null
    ? null
    : { from: 'given', loaded: warned(ctx, refusing(`model.checkpoint ${given}`, given)) };
}

/**
 * Loads a checkpoint; one that cannot load (weights of an older network, a folder that is no
 * checkpoint) fails the same way on every restart, so the worker refuses to start, naming it.
 */
function refusing(what: string, from: string | CheckpointStore): LoadedModel {
  try {
    return loadModelCheckpoint(from);
  } catch (e) {
    throw new StartRefusedError(
      `${what} cannot be loaded: ${(e as Error).message}. A checkpoint of another tti version ` +
        'or policy shape does not load: start a new run, or set model.checkpoint to one that fits.',
    );
  }
}

/** A freshly initialised policy of the run's seed, with `model.prior` when one is given. */
export function freshPolicy(ctx: RoleContext): TfjsPolicy {
  const file = ctx.config.model.prior;
  return TfjsPolicy.create({
    seed: ctx.config.seed,
    ...(file === null ? {} : { prior: readPriorFile(file) }),
  });
}

function warned(ctx: RoleContext, loaded: LoadedModel): LoadedModel {
  for (const warning of loaded.warnings) ctx.log.warn(warning);
  return loaded;
}
