import path from 'node:path';
import { fileURLToPath } from 'node:url';

// Compiled to dist/src/util/paths.js, so the project root is three levels up.
export const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
export const cliEntry = path.join(projectRoot, 'bin', 'tti-run');
/** The embedded default's config: what `tti-run train` and `tti-run eval` use without --config. */
export const defaultConfigFile = path.join(projectRoot, 'configs', 'miniarena.yaml');
