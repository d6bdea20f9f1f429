// The replay buffer's durable store: an append-only log of kept trajectories (framing and reading
// in record-format.ts).
//
// An append returns only once the whole record is written and fsynced, so a trajectory
// acknowledged after it is never lost; a write that cannot complete (a full disk, a quota, a size
// limit) is cut back to the last whole record and the append throws, so the sender keeps it.
// Opening reads the log in slices (a large log must not stop the worker's heartbeats) while appends
// go on; a bad record costs only its own bytes, which move to a side file. Compaction rewrites the
// log to what `capacity` keeps while appends go on: new file, fsync, rename, fsync the folder.
import {
  appendFileSync,
  closeSync,
  existsSync,
  fstatSync,
  fsyncSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readSync,
  renameSync,
  rmSync,
} from 'node:fs';
import path from 'node:path';
import { setImmediate as yieldToEvents } from 'node:timers/promises';
import type { Trajectory } from '../protocol/index.js';
import { fsyncDir, isOutOfSpace, writeAll } from '../util/index.js';
import {
  type BadRange,
  encodeRecord,
  isLegacyLog,
  type ScannedRecord,
  scanLegacy,
  scanSlice,
} from './record-format.js';

/** How much of the log one slice of a background open reads before it yields. */
const SLICE_BYTES = 4 * 1024 * 1024;
/** How much a compaction copies before it yields to appends and heartbeats. */
const COPY_BYTES = 4 * 1024 * 1024;

export interface OpenReport {
  /** whole records read */
  records: number;
  /** bad byte ranges found (moved to `sideFile` unless that could not be written) */
  badRanges: number;
  badBytes: number;
  /** why each range was bad (the first few) */
  reasons: string[];
  sideFile: string | null;
  /** the log was in the layout before the record magic and was rewritten */
  migrated: boolean;
}

/** An append that could not complete; nothing of it is in the log. `outOfSpace`: the disk, a quota or a size limit. */
export class ReplayWriteFailed extends Error {
  override readonly name = 'ReplayWriteFailed';
  constructor(
    readonly file: string,
    readonly code: string,
    readonly outOfSpace: boolean,
    cause: Error,
  ) {
    super(`cannot write ${file}: ${cause.message}`, { cause });
  }
}

interface Entry {
  trajectory: Trajectory;
  offset: number;
  length: number;
}

function readBytes(fd: number, position: number, length: number): Buffer {
  const buffer = Buffer.allocUnsafe(length);
  let done = 0;
  while (done < length) {
    const n = readSync(fd, buffer, done, length - done, position + done);
    if (n === 0) throw new Error(`the log ends at byte ${position + done}, before ${position + length}`);
    done += n;
  }
  return buffer;
}

export class ReplayLog {
  private fd: number;
  private readonly byEpisode = new Map<string, Entry>();
  /** kept trajectories, oldest first (the buffer index TTI's recency weight uses) */
  private order: Entry[] = [];
  /** where the records an open reads go in `order`: before what was appended meanwhile */
  private loadedCount = 0;
  private view: Trajectory[] | null = null;
  /** the end of the last whole record: the next append's offset */
  private bytes: number;
  /** records in the file, kept or dropped by the capacity (what compaction removes) */
  private fileRecords = 0;
  /** records the open read (for its report) */
  private readRecords = 0;
  /** a failed append may have left bytes after `bytes` that could not be cut yet */
  private dirtyTail = false;
  private compacting: Promise<void> | null = null;
  private loading = true;
  private closed = false;
  readonly dir: string;
  readonly sideFile: string;

  private constructor(
    readonly file: string,
    fd: number,
    bytes: number,
    readonly capacity: number,
  ) {
    this.fd = fd;
    this.bytes = bytes;
    this.dir = path.dirname(file);
    this.sideFile = `${file}.bad`;
  }

  /** Opens (or creates) the log in `dir` and reads it whole before returning. */
  static open(dir: string, capacity: number): { log: ReplayLog; report: OpenReport } {
    const { log, legacy } = ReplayLog.start(dir, capacity);
    const end = log.bytes;
    const slice = scanSlice(log.fd, 0, end);
    log.take(slice.records);
    const report = log.finishOpen(slice.bad, slice.tail, end, legacy);
    return { log, report };
  }

  /**
   * Opens the log in `dir` and returns at once: it is read in slices, each one served as it comes
   * (oldest records first), while appends go on; `loaded` settles once it is whole.
   */
  static openInBackground(dir: string, capacity: number): { log: ReplayLog; loaded: Promise<OpenReport> } {
    const { log, legacy } = ReplayLog.start(dir, capacity);
    const end = log.bytes;
    const loaded = (async () => {
      const bad: BadRange[] = [];
      let tail: BadRange | null = null;
      let position = 0;
      while (position < end && !log.closed) {
        const slice = scanSlice(log.fd, position, end, SLICE_BYTES);
        log.take(slice.records);
        bad.push(...slice.bad);
        tail = slice.tail;
        position = slice.next;
        await yieldToEvents();
      }
      return log.finishOpen(bad, tail, end, legacy);
    })();
    return { log, loaded };
  }

  /** Opens the file; a log of the old layout is rewritten in the new one first (once). */
  private static start(dir: string, capacity: number): { log: ReplayLog; legacy: boolean } {
    const existed = existsSync(dir);
    mkdirSync(dir, { recursive: true });
    if (!existed) fsyncDir(path.dirname(dir));
    const file = path.join(dir, 'replay.log');
    const created = !existsSync(file);
    let fd = openSync(file, created ? 'w+' : 'r+');
    if (created) fsyncDir(dir);
    let size = fstatSync(fd).size;
    let legacy = false;
    if (isLegacyLog(fd, size)) {
      const { trajectories, end } = scanLegacy(fd, size);
      const temp = `${file}.migrate`;
      const out = openSync(temp, 'w');
      try {
        let at = 0;
        for (const trajectory of trajectories) {
          const record = encodeRecord(trajectory);
          writeAll(out, record, at);
          at += record.byteLength;
        }
        fsyncSync(out);
      } finally {
        closeSync(out);
      }
      if (end < size) appendFileSync(`${file}.bad`, readBytes(fd, end, size - end));
      closeSync(fd);
      renameSync(temp, file);
      fsyncDir(dir);
      fd = openSync(file, 'r+');
      size = fstatSync(fd).size;
      legacy = true;
    }
    return { log: new ReplayLog(file, fd, size, capacity), legacy };
  }

  /** Records an open read, in file order, placed before any appended meanwhile. */
  private take(records: readonly ScannedRecord[]): void {
    this.fileRecords += records.length;
    this.readRecords += records.length;
    const fresh: Entry[] = [];
    for (const r of records) {
      if (this.byEpisode.has(r.trajectory.episodeId)) continue;
      const entry = { trajectory: r.trajectory, offset: r.offset, length: r.length };
      this.byEpisode.set(r.trajectory.episodeId, entry);
      fresh.push(entry);
    }
    this.order.splice(this.loadedCount, 0, ...fresh);
    this.loadedCount += fresh.length;
    this.trim();
  }

  /** The bad ranges go to the side file; the log is cut (a tail) or rewritten without them. */
  private finishOpen(bad: BadRange[], tail: BadRange | null, end: number, migrated: boolean): OpenReport {
    this.loading = false;
    const ranges = tail === null ? bad : [...bad, tail];
    const report: OpenReport = {
      records: this.readRecords,
      badRanges: ranges.length,
      badBytes: ranges.reduce((n, r) => n + r.end - r.start, 0),
      reasons: ranges.slice(0, 5).map((r) => `bytes ${r.start}–${r.end}: ${r.reason}`),
      sideFile: null,
      migrated,
    };
    if (ranges.length === 0 || this.closed) return report;
    try {
      const created = !existsSync(this.sideFile);
      for (const range of ranges) {
        const header = `# replay.log bytes ${range.start}-${range.end}: ${range.reason}\n`;
        appendFileSync(
          this.sideFile,
          Buffer.concat([Buffer.from(header), readBytes(this.fd, range.start, range.end - range.start)]),
        );
      }
      const side = openSync(this.sideFile, 'r');
      fsyncSync(side);
      closeSync(side);
      if (created) fsyncDir(this.dir);
      report.sideFile = this.sideFile;
    } catch {
      // No room for the side file: the bad bytes stay in the log (they are skipped on every open).
      return report;
    }
    if (bad.length === 0 && tail !== null && this.bytes === end) {
      // Only a torn tail and nothing appended after it: cut it.
      ftruncateSync(this.fd, tail.start);
      fsyncSync(this.fd);
      this.bytes = tail.start;
    } else {
      // Appends went after the bad bytes, or they are in the middle: the kept records are rewritten.
      this.needsRewrite = true;
    }
    return report;
  }

  /** Set when bad bytes stay in the file until the next compaction removes them. */
  private needsRewrite = false;

  get size(): number {
    return this.order.length;
  }

  /** Still reading the log it opened (what it read so far is served). */
  get isLoading(): boolean {
    return this.loading;
  }

  has(episodeId: string): boolean {
    return this.byEpisode.has(episodeId);
  }

  /** All kept trajectories, oldest first. */
  trajectories(): readonly Trajectory[] {
    this.view ??= this.order.map((e) => e.trajectory);
    return this.view;
  }

  /**
   * Appends a trajectory, fsynced. Returns false, writing nothing, for an episode already kept (a
   * restarted env worker may send its episode twice). Throws RecordTooLarge for a trajectory over
   * the record cap and ReplayWriteFailed for a write that could not complete: nothing of it stays.
   */
  append(trajectory: Trajectory): boolean {
    if (this.closed) throw new Error(`${this.file} is closed`);
    if (this.byEpisode.has(trajectory.episodeId)) return false;
    const record = encodeRecord(trajectory);
    try {
      if (this.dirtyTail) {
        ftruncateSync(this.fd, this.bytes);
        this.dirtyTail = false;
      }
      writeAll(this.fd, record, this.bytes);
      fsyncSync(this.fd);
    } catch (error) {
      // Back to the last whole record, so the log holds nothing of an append it did not acknowledge.
      try {
        ftruncateSync(this.fd, this.bytes);
        fsyncSync(this.fd);
      } catch {
        this.dirtyTail = true;
      }
      const code = (error as NodeJS.ErrnoException).code ?? 'EIO';
      throw new ReplayWriteFailed(this.file, code, isOutOfSpace(error), error as Error);
    }
    const entry = { trajectory, offset: this.bytes, length: record.byteLength };
    this.bytes += record.byteLength;
    this.fileRecords += 1;
    this.byEpisode.set(trajectory.episodeId, entry);
    this.order.push(entry);
    this.trim();
    return true;
  }

  /** Whether the file holds as many dropped records as kept ones (or bad bytes): time to compact. */
  get wantsCompaction(): boolean {
    if (this.loading || this.compacting !== null || this.closed) return false;
    return this.needsRewrite || this.fileRecords - this.order.length >= Math.max(this.capacity, 64);
  }

  /**
   * Rewrites the log with only what is kept, while appends go on: the kept records are copied to a
   * new file in slices; then, at once, what was appended meanwhile; fsync, rename, fsync the folder.
   * A crash at any point leaves the old log or the new one whole. Throws when the copy cannot be
   * written (the old log stays as it was).
   */
  compact(): Promise<void> {
    if (this.loading) return Promise.reject(new Error('the log is still being opened'));
    this.compacting ??= this.rewrite().finally(() => {
      this.compacting = null;
    });
    return this.compacting;
  }

  private async rewrite(): Promise<void> {
    const temp = `${this.file}.compact`;
    const end = this.bytes;
    const snapshot = this.order.filter((e) => e.offset < end);
    const moved = new Map<Entry, number>();
    const out = openSync(temp, 'w');
    let outOpen = true;
    try {
      let at = 0;
      let sinceYield = 0;
      for (const entry of snapshot) {
        writeAll(out, readBytes(this.fd, entry.offset, entry.length), at);
        moved.set(entry, at);
        at += entry.length;
        sinceYield += entry.length;
        if (sinceYield >= COPY_BYTES) {
          sinceYield = 0;
          await yieldToEvents();
          if (this.closed) throw new Error('the log was closed during compaction');
        }
      }
      // From here to the switch nothing yields, so no append falls between the copy and the rename.
      const appended = this.bytes - end;
      if (appended > 0) writeAll(out, readBytes(this.fd, end, appended), at);
      fsyncSync(out);
      closeSync(out);
      outOpen = false;
      renameSync(temp, this.file);
      fsyncDir(this.dir);
      closeSync(this.fd);
      this.fd = openSync(this.file, 'r+');
      let appendedRecords = 0;
      for (const entry of this.order) {
        const to = moved.get(entry);
        if (to !== undefined) entry.offset = to;
        else if (entry.offset >= end) {
          entry.offset = entry.offset - end + at;
          appendedRecords += 1;
        }
      }
      this.bytes = at + appended;
      this.fileRecords = moved.size + appendedRecords;
      this.needsRewrite = false;
      this.dirtyTail = false;
    } catch (error) {
      if (outOpen) closeSync(out);
      rmSync(temp, { force: true });
      throw error;
    }
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    closeSync(this.fd);
  }

  /** Over capacity, the oldest go (TTI's buffer is a bounded FIFO). */
  private trim(): void {
    this.view = null;
    const over = this.order.length - this.capacity;
    if (over <= 0) return;
    for (const dropped of this.order.splice(0, over)) this.byEpisode.delete(dropped.trajectory.episodeId);
    this.loadedCount = Math.max(0, this.loadedCount - over);
  }
}

// The reader lived here before it had a file of its own; callers that import it from here still can.
export { ReplayLogReader, readReplayLog } from './log-reader.js';
