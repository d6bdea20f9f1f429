// Completes package-lock.json with the optional per-platform packages this machine's registry
// does not serve (biome's and msgpackr-extract's binaries for macOS, Windows, musl, ...).
// npm leaves them out of the lock it writes here, and `npm ci` then refuses the lock as out of
// sync. An entry with the version is enough: on each platform npm installs the matching binary
// and skips the rest, as it does for any optional dependency. Run after changing dependencies:
//   npm run lock
import { readFileSync, writeFileSync } from 'node:fs';

const file = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(file, 'utf8'));
const packages = lock.packages;
let added = 0;
for (const entry of Object.values({ ...packages })) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const where = `node_modules/${name}`;
    if (packages[where]) continue;
    packages[where] = { version, optional: true, ...(entry.dev ? { dev: true } : {}) };
    added += 1;
  }
}
writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`complete-lockfile: added ${added} optional platform package(s)`);
