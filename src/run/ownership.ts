// Whether a run directory is safe to resume. `--resume` reads RUN_DIR/config.yaml and runs what it
// names (learner.command, an external learner), loads its checkpoints and trusts its keys: a folder
// another user owns, or others can write, could have been edited by them, so it is refused, naming
// the path, its owner and its mode. root is held to the same rule: that is the case that matters.
import { lstatSync, type Stats } from 'node:fs';
import path from 'node:path';

/** The paths whose owner and mode decide: the folder, its config and the key folder. */
const CHECKED = ['', 'config.yaml', 'curve', 'curve/allow.json', 'curve/keys.json', 'token'];

/** Throws, naming the first path another user owns or others (group or world) may write. */
export function checkRunDirOwnership(root: string, uid = process.getuid?.() ?? null): void {
  if (uid === null) return; // no uids (Windows): nothing to compare
  for (const relative of CHECKED) {
    const file = path.join(root, relative);
    let stat: Stats;
    try {
      stat = lstatSync(file);
    } catch {
      continue; // not there: nothing to trust
    }
    if (relative !== '' && stat.isSymbolicLink())
      throw new Error(`refusing to resume ${root}: ${file} is a symbolic link`);
    if (stat.uid !== uid)
      throw new Error(
        `refusing to resume ${root}: ${file} is owned by uid ${stat.uid}, not by this user (uid ${uid})`,
      );
    if ((stat.mode & 0o022) !== 0)
      throw new Error(
        `refusing to resume ${root}: others can write ${file} (mode ${(stat.mode & 0o777).toString(8)}); chmod go-w it if that is meant`,
      );
  }
}
