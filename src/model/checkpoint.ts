// Model checkpoints on top of CheckpointStore (atomic folders with a sha256 manifest): the
// policy's options and weights, the optimizer's state, and the caller's counters.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { CheckpointStore, Manifest } from './checkpoint-store.js';
import { DEFAULT_POLICY_OPTIONS, type PolicyOptions, TfjsPolicy } from './policy.js';
import type { TensorFrames } from './types.js';

const POLICY_FILE = 'policy.json';
const WEIGHTS_FILE = 'weights.bin';
const OPTIMIZER_FILE = 'optimizer.bin';
const OPTIMIZER_SPECS = 'optimizer.json';

export class NoCheckpointError extends Error {
  override name = 'NoCheckpointError';
}

/** Frames concatenated into one buffer, with the specs to split them again. */
function joinFrames(frames: Buffer[]): Buffer {
  return Buffer.concat(frames);
}

function splitFrames(specs: TensorFrames['specs'], data: Buffer, what: string): TensorFrames {
  const frames: Buffer[] = [];
  let o = 0;
  for (const s of specs) {
    const bytes = s.shape.reduce((a, b) => a * b, 1) * 4;
    if (o + bytes > data.byteLength) throw new Error(`${what} is shorter than its specs say (${s.name})`);
    frames.push(data.subarray(o, o + bytes));
    o += bytes;
  }
  if (o !== data.byteLength) throw new Error(`${what} has ${data.byteLength - o} bytes beyond its specs`);
  return { specs, frames };
}

/**
 * Saves the policy (options + weights), the optimizer's state (when given: BcTrainer.exportState)
 * and the counters as checkpoint `version`; returns the checkpoint's folder.
 */
export function saveModelCheckpoint(
  store: CheckpointStore,
  version: number,
  policy: TfjsPolicy,
  optimizerState: TensorFrames | null,
  counters: Record<string, number>,
): string {
  const weights = policy.exportWeights();
  const files = new Map<string, Buffer>();
  files.set(
    POLICY_FILE,
    Buffer.from(`${JSON.stringify({ options: policy.options, weights: weights.specs }, null, 2)}\n`),
  );
  files.set(WEIGHTS_FILE, joinFrames(weights.frames));
  if (optimizerState) {
    const state = optimizerState;
    files.set(OPTIMIZER_SPECS, Buffer.from(`${JSON.stringify(state.specs)}\n`));
    files.set(OPTIMIZER_FILE, joinFrames(state.frames));
  }
  return store.save(version, files, counters);
}

export interface LoadedModel {
  policy: TfjsPolicy;
  optimizerState: TensorFrames | null;
  counters: Record<string, number>;
  version: number;
  /** Newer checkpoints skipped, and why. */
  warnings: string[];
  /** The folder loaded. */
  path: string;
}

function verifyFolder(folder: string): { manifest: Manifest; files: Map<string, Buffer> } {
  const manifest = Manifest.parse(JSON.parse(readFileSync(path.join(folder, 'manifest.json'), 'utf8')));
  const files = new Map<string, Buffer>();
  for (const entry of manifest.files) {
    const data = readFileSync(path.join(folder, entry.name));
    if (data.byteLength !== entry.bytes || createHash('sha256').update(data).digest('hex') !== entry.sha256) {
      throw new Error(`${entry.name} in ${folder} fails its size or sha256 check`);
    }
    files.set(entry.name, data);
  }
  return { manifest, files };
}

function decode(
  files: Map<string, Buffer>,
  where: string,
): { policy: TfjsPolicy; optimizerState: TensorFrames | null } {
  const meta = files.get(POLICY_FILE);
  const weights = files.get(WEIGHTS_FILE);
  if (!meta || !weights)
    throw new Error(`${where} has no ${POLICY_FILE} / ${WEIGHTS_FILE}: not a model checkpoint`);
  const parsed = JSON.parse(meta.toString('utf8')) as {
    options: Partial<PolicyOptions>;
    weights: TensorFrames['specs'];
  };
  const options: PolicyOptions = { ...DEFAULT_POLICY_OPTIONS, ...parsed.options };
  const policy = TfjsPolicy.fromWeights(
    options,
    splitFrames(parsed.weights, weights, `${where}/${WEIGHTS_FILE}`),
  );
  let optimizerState: TensorFrames | null = null;
  const specs = files.get(OPTIMIZER_SPECS);
  const state = files.get(OPTIMIZER_FILE);
  if (specs && state) {
    optimizerState = splitFrames(
      JSON.parse(specs.toString('utf8')) as TensorFrames['specs'],
      state,
      `${where}/${OPTIMIZER_FILE}`,
    );
  }
  return { policy, optimizerState };
}

/**
 * Loads a model checkpoint: from a checkpoint folder (…/v00000007), or the newest valid one of a
 * store (a CheckpointStore or its directory), falling back past corrupted ones with a warning
 * each. Throws NoCheckpointError when there is none. Give `optimizerState` to
 * `await new BcTrainer(policy, …).importState(…)` to resume training.
 */
export function loadModelCheckpoint(pathOrStore: string | CheckpointStore): LoadedModel {
  if (typeof pathOrStore === 'string' && existsSync(path.join(pathOrStore, 'manifest.json'))) {
    const { manifest, files } = verifyFolder(pathOrStore);
    return {
      ...decode(files, pathOrStore),
      counters: manifest.counters,
      version: manifest.policyVersion,
      warnings: [],
      path: pathOrStore,
    };
  }
  const store =
    typeof pathOrStore === 'string' ? new CheckpointStore(pathOrStore, Number.MAX_SAFE_INTEGER) : pathOrStore;
  const warnings: string[] = [];
  const loaded = store.loadLatest();
  if (!loaded) throw new NoCheckpointError(`no valid checkpoint in ${store.dir}`);
  for (const s of loaded.skipped) warnings.push(`skipped checkpoint v${s.policyVersion}: ${s.reason}`);
  const where = path.join(store.dir, `v${String(loaded.manifest.policyVersion).padStart(8, '0')}`);
  return {
    ...decode(loaded.files, where),
    counters: loaded.manifest.counters,
    version: loaded.manifest.policyVersion,
    warnings,
    path: where,
  };
}
