// Writes that are done only when they are whole and on disk: a short write is finished or fails,
// and a created or renamed file is durable only once its folder is fsynced (SQLite's rule).
import { closeSync, fsyncSync, openSync, writeSync } from 'node:fs';

/** Why a write could not complete, when the cause is space (a full disk, a quota, a size limit). */
const SPACE_CODES = new Set(['ENOSPC', 'EDQUOT', 'EFBIG']);

export function isOutOfSpace(error: unknown): boolean {
  return SPACE_CODES.has((error as NodeJS.ErrnoException | null)?.code ?? '');
}

/**
 * Writes all of `data` at `position` (or at the file's offset when null), looping on short writes;
 * a write that makes no progress throws EIO-like `short write` rather than returning.
 */
export function writeAll(fd: number, data: Buffer, position: number | null): void {
  let done = 0;
  while (done < data.byteLength) {
    const n = writeSync(fd, data, done, data.byteLength - done, position === null ? null : position + done);
    if (n <= 0) {
      const error: NodeJS.ErrnoException = new Error(
        `short write: ${done} of ${data.byteLength} bytes, then none`,
      );
      // No progress is how a size limit or a full disk shows when the call itself does not fail.
      error.code = 'ENOSPC';
      throw error;
    }
    done += n;
  }
}

/** fsyncs a folder, so a file created, renamed or removed in it survives a crash. */
export function fsyncDir(dir: string): void {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
