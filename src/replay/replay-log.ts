// The replay buffer's durable store: an append-only log of kept trajectories.
//
// Record layout: [u32 payload length][u32 crc32 of payload][payload = msgpack(trajectory)], little
// endian. `append` returns once the record is fsynced, so a trajectory acknowledged after it is
// never lost. On open, the log is read front to back; the first record that is short or fails its
// checksum is where a crash tore the write: the file is cut there and the loss is reported.
import {
  closeSync,
  existsSync,
  fstatSync,
  fsyncSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readSync,
  renameSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';
import { crc32 } from 'node:zlib';
import { Packr } from 'msgpackr';
import type { Trajectory } from '../protocol/index.js';

const HEADER_BYTES = 8;
const MAX_RECORD_BYTES = 256 * 1024 * 1024;
const packr = new Packr({ useRecords: false, mapsAsObjects: true });

function encodeRecord(trajectory: Trajectory): Buffer {
  const payload = packr.pack(trajectory);
  const header = Buffer.alloc(HEADER_BYTES);
  header.writeUInt32LE(payload.byteLength, 0);
  header.writeUInt32LE(crc32(payload), 4);
  return Buffer.concat([header, payload]);
}

/**
 * Reads whole records from byte `from` up to `size`; stops at the first record that is short,
 * fails its checksum or does not decode (a torn tail, or one still being written) and says why.
 */
function scanRecords(
  fd: number,
  from: number,
  size: number,
): { trajectories: Trajectory[]; end: number; reason: string | null } {
  const trajectories: Trajectory[] = [];
  let offset = from;
  let reason: string | null = null;
  const header = Buffer.alloc(HEADER_BYTES);
  while (offset < size) {
    if (size - offset < HEADER_BYTES) {
      reason = `a record header is cut short at byte ${offset}`;
      break;
    }
    readSync(fd, header, 0, HEADER_BYTES, offset);
    const length = header.readUInt32LE(0);
    const checksum = header.readUInt32LE(4);
    if (length > MAX_RECORD_BYTES || offset + HEADER_BYTES + length > size) {
      reason = `the record at byte ${offset} is cut short`;
      break;
    }
    const payload = Buffer.alloc(length);
    readSync(fd, payload, 0, length, offset + HEADER_BYTES);
    if (crc32(payload) !== checksum) {
      reason = `the record at byte ${offset} fails its checksum`;
      break;
    }
    let trajectory: Trajectory;
    try {
      trajectory = packr.unpack(payload) as Trajectory;
    } catch {
      reason = `the record at byte ${offset} does not decode`;
      break;
    }
    trajectories.push(trajectory);
    offset += HEADER_BYTES + length;
  }
  return { trajectories, end: offset, reason };
}

/**
 * A read-only view of a live log, for a chaos run or a report: each `poll` returns the records
 * appended since the last poll. A tail still being written waits for the next poll (nothing is
 * cut); a log that shrank (its torn tail cut on reopen, or compacted) is read again from the start.
 */
export class ReplayLogReader {
  private offset = 0;

  constructor(readonly file: string) {}

  static inDir(dir: string): ReplayLogReader {
    return new ReplayLogReader(path.join(dir, 'replay.log'));
  }

  poll(): { trajectories: Trajectory[]; restarted: boolean } {
    if (!existsSync(this.file)) return { trajectories: [], restarted: false };
    const fd = openSync(this.file, 'r');
    try {
      const size = fstatSync(fd).size;
      const restarted = size < this.offset;
      if (restarted) this.offset = 0;
      const { trajectories, end, reason } = scanRecords(fd, this.offset, size);
      // A record still being written is short; one that fails its checksum means the file changed
      // under this reader (cut and written again): the next poll reads it from the start.
      this.offset = reason === null || reason.includes('cut short') ? end : 0;
      return { trajectories, restarted };
    } finally {
      closeSync(fd);
    }
  }
}

/** Every whole record of the log in `dir`, read without changing the file. */
export function readReplayLog(dir: string): Trajectory[] {
  return ReplayLogReader.inDir(dir).poll().trajectories;
}

export interface OpenReport {
  records: number;
  /** bytes cut from a torn or corrupted tail, 0 when the log was whole */
  truncatedBytes: number;
  /** why the tail was cut, when it was */
  reason: string | null;
}

export class ReplayLog {
  private fd: number;
  private readonly byEpisode = new Map<string, Trajectory>();
  /** kept trajectories, oldest first (the buffer index TTI's recency weight uses) */
  private readonly order: Trajectory[] = [];
  private bytes: number;

  private constructor(
    readonly file: string,
    fd: number,
    bytes: number,
    readonly capacity: number,
  ) {
    this.fd = fd;
    this.bytes = bytes;
  }

  /** Opens (or creates) the log in `dir`, cutting a torn tail. */
  static open(dir: string, capacity: number): { log: ReplayLog; report: OpenReport } {
    mkdirSync(dir, { recursive: true });
    const file = path.join(dir, 'replay.log');
    const fd = openSync(file, existsSync(file) ? 'r+' : 'w+');
    const size = fstatSync(fd).size;
    const { trajectories, end: offset, reason } = scanRecords(fd, 0, size);
    const truncatedBytes = size - offset;
    if (truncatedBytes > 0) {
      // Cut the tail so the next append continues a whole log.
      ftruncateSync(fd, offset);
      fsyncSync(fd);
    }
    const log = new ReplayLog(file, fd, offset, capacity);
    for (const trajectory of trajectories) log.index(trajectory);
    return { log, report: { records: trajectories.length, truncatedBytes, reason } };
  }

  get size(): number {
    return this.order.length;
  }

  has(episodeId: string): boolean {
    return this.byEpisode.has(episodeId);
  }

  /** All kept trajectories, oldest first. */
  trajectories(): readonly Trajectory[] {
    return this.order;
  }

  /**
   * Appends a trajectory and fsyncs. Returns false, writing nothing, for an episode already kept
   * (a restarted env worker may send its episode twice).
   */
  append(trajectory: Trajectory): boolean {
    if (this.byEpisode.has(trajectory.episodeId)) return false;
    const record = encodeRecord(trajectory);
    writeSync(this.fd, record, 0, record.byteLength, this.bytes);
    fsyncSync(this.fd);
    this.bytes += record.byteLength;
    this.index(trajectory);
    return true;
  }

  /** Rewrites the log with only what is kept (after the capacity dropped old records). */
  compact(): void {
    const temp = `${this.file}.compact`;
    const fd = openSync(temp, 'w');
    let bytes = 0;
    try {
      for (const trajectory of this.order) {
        const record = encodeRecord(trajectory);
        writeSync(fd, record);
        bytes += record.byteLength;
      }
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, this.file);
    // The open descriptor still points at the old file: reopen onto the compacted one.
    closeSync(this.fd);
    this.fd = openSync(this.file, 'r+');
    this.bytes = bytes;
  }

  close(): void {
    closeSync(this.fd);
  }

  private index(trajectory: Trajectory): void {
    if (this.byEpisode.has(trajectory.episodeId)) return;
    this.byEpisode.set(trajectory.episodeId, trajectory);
    this.order.push(trajectory);
    // Over capacity, the oldest go (TTI's buffer is a bounded FIFO).
    while (this.order.length > this.capacity) {
      const dropped = this.order.shift();
      if (dropped) this.byEpisode.delete(dropped.episodeId);
    }
  }
}
