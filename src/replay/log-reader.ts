// Reading a replay log without changing it: for a chaos run that follows a live log, and for the
// commands that export or pretrain from a run's replay.
import { closeSync, existsSync, fstatSync, openSync } from 'node:fs';
import path from 'node:path';
import type { Trajectory } from '../protocol/index.js';
import { isLegacyLog, scanLegacy, scanSlice } from './record-format.js';

/**
 * A read-only view of a live log: each `poll` returns the records appended since the last poll. A
 * bad record followed by valid ones is skipped; bad bytes at the end wait for the next poll (a
 * record still being written); a log that shrank or was replaced (its tail cut on reopen, or
 * compacted) is read again from the start.
 */
export class ReplayLogReader {
  private offset = 0;
  private inode = -1;

  constructor(readonly file: string) {}

  static inDir(dir: string): ReplayLogReader {
    return new ReplayLogReader(path.join(dir, 'replay.log'));
  }

  poll(): { trajectories: Trajectory[]; restarted: boolean } {
    if (!existsSync(this.file)) return { trajectories: [], restarted: false };
    const fd = openSync(this.file, 'r');
    try {
      const stat = fstatSync(fd);
      const restarted = stat.size < this.offset || (this.inode !== -1 && stat.ino !== this.inode);
      this.inode = stat.ino;
      if (restarted) this.offset = 0;
      if (isLegacyLog(fd, stat.size)) {
        // The old layout has no resync: it is read whole each time, until replay rewrites it.
        const { trajectories } = scanLegacy(fd, stat.size);
        const fresh = restarted || this.offset === 0 ? trajectories : [];
        this.offset = stat.size;
        return { trajectories: fresh, restarted };
      }
      const slice = scanSlice(fd, this.offset, stat.size);
      this.offset = slice.tail?.start ?? slice.next;
      return { trajectories: slice.records.map((r) => r.trajectory), restarted };
    } finally {
      closeSync(fd);
    }
  }
}

/** Every whole record of the log in `dir`, read without changing the file. */
export function readReplayLog(dir: string): Trajectory[] {
  return ReplayLogReader.inDir(dir).poll().trajectories;
}
