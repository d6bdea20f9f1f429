// Which tfjs backend runs the policy and the trainer. Best first: tfjs-node-gpu (CUDA), tfjs-node
// (native TensorFlow on the CPU), wasm (SIMD, single thread), cpu (plain JavaScript). The native
// ones are optional dependencies: their install downloads libtensorflow, which fails offline, so
// they are often absent. Every backend here runs both inference and training (see tf.ts for the
// gradient that wasm needs).
import { registerGradients, tf } from './tf.js';

export type BackendName = 'gpu' | 'node' | 'wasm' | 'cpu';
export type BackendChoice = 'auto' | BackendName;

export const BACKEND_ORDER: readonly BackendName[] = ['gpu', 'node', 'wasm', 'cpu'];

const PACKAGE: Record<'gpu' | 'node', string> = {
  gpu: '@tensorflow/tfjs-node-gpu',
  node: '@tensorflow/tfjs-node',
};

/** tfjs's own name for each of ours (both native packages register "tensorflow"). */
const TF_NAME: Record<BackendName, string> = {
  gpu: 'tensorflow',
  node: 'tensorflow',
  wasm: 'wasm',
  cpu: 'cpu',
};

export class BackendUnavailableError extends Error {
  override name = 'BackendUnavailableError';
}

let current: { name: BackendName; choice: BackendChoice } | null = null;
let pending: Promise<BackendName> | null = null;

/** The backend loaded in this process, or null before loadBackend. */
export function currentBackend(): BackendName | null {
  return current?.name ?? null;
}

async function tryNative(which: 'gpu' | 'node'): Promise<void> {
  const pkg = PACKAGE[which];
  try {
    // A variable specifier: the packages are optional and have no types when absent.
    const specifier: string = pkg;
    await import(specifier);
  } catch (error) {
    const why = error instanceof Error ? error.message.split('\n')[0] : String(error);
    throw new BackendUnavailableError(
      `backend '${which}' needs ${pkg}, which does not load here (${why}). ` +
        `Install it with \`npm install ${pkg}\` (it downloads libtensorflow${which === 'gpu' ? ' for CUDA' : ''}, ` +
        "so it needs network access), or choose backend 'auto', 'wasm' or 'cpu'.",
    );
  }
  if (tf.findBackendFactory(TF_NAME[which]) === null) {
    throw new BackendUnavailableError(
      `${pkg} loaded but registered no 'tensorflow' backend with this copy of @tensorflow/tfjs-core ` +
        '(two versions of tfjs-core installed?). Align the versions, or choose wasm or cpu.',
    );
  }
}

async function activate(which: BackendName): Promise<void> {
  if (which === 'gpu' || which === 'node') await tryNative(which);
  let ok = false;
  try {
    ok = await tf.setBackend(TF_NAME[which]);
    await tf.ready();
  } catch (error) {
    throw new BackendUnavailableError(
      `backend '${which}' failed to initialise: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  if (!ok || tf.getBackend() !== TF_NAME[which]) {
    throw new BackendUnavailableError(`backend '${which}' failed to initialise (tfjs refused it)`);
  }
}

async function load(choice: BackendChoice, log: (message: string) => void): Promise<BackendName> {
  registerGradients();
  // Production mode: no debug checks, and no banner on stderr urging tfjs-node on every cpu/wasm
  // start (we log which backend runs and why the others were skipped instead).
  tf.env().set('PROD', true);
  if (choice !== 'auto') {
    await activate(choice);
    log(`model backend: ${choice} (forced)`);
    return choice;
  }
  const skipped: string[] = [];
  for (const which of BACKEND_ORDER) {
    try {
      await activate(which);
      log(
        `model backend: ${which}${skipped.length ? ` (skipped ${skipped.join('; ')})` : ' (the best available)'}`,
      );
      return which;
    } catch (error) {
      skipped.push(`${which}: ${error instanceof Error ? error.message.split(' (')[0] : String(error)}`);
    }
  }
  throw new BackendUnavailableError(`no tfjs backend loads: ${skipped.join('; ')}`);
}

/**
 * Loads the best backend that works ('auto'), or the one forced. A forced one that fails throws a
 * BackendUnavailableError naming the package and what to do. Idempotent per process: the same
 * choice again returns the loaded backend; a different forced choice switches to it.
 */
export async function loadBackend(
  choice: BackendChoice,
  log: (message: string) => void = () => {},
): Promise<BackendName> {
  if (pending) {
    try {
      await pending;
    } catch {
      // a failed earlier load leaves nothing to wait for
    }
  }
  if (current && (choice === 'auto' || choice === current.choice || choice === current.name)) {
    if (tf.getBackend() !== TF_NAME[current.name]) await activate(current.name);
    return current.name;
  }
  pending = load(choice, log);
  const name = await pending;
  current = { name, choice };
  return name;
}
