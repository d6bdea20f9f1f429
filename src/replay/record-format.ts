// How a replay log frames its records, and how it reads them back.
//
// Record layout (little endian): [u32 magic 'TTIR'][u32 payload length][u32 crc32 of payload]
// [u32 crc32 of the 12 bytes before][payload = msgpack(trajectory)]. The magic and the header's
// own checksum make resync reliable: after a bad record, the next valid one is found by its magic,
// and a stray magic inside a payload fails the header checksum. A log written before the magic
// (layout [u32 length][u32 crc32][payload]) is read with the old rule, once, and rewritten.
import { readSync } from 'node:fs';
import { crc32 } from 'node:zlib';
import { Packr } from 'msgpackr';
import type { Trajectory } from '../protocol/index.js';

export const HEADER_BYTES = 16;
/** The largest payload a record may hold; a bigger trajectory is refused at append. */
export const MAX_RECORD_BYTES = 256 * 1024 * 1024;
const MAGIC = Buffer.from('TTIR', 'latin1');
const LEGACY_HEADER_BYTES = 8;
const WINDOW_BYTES = 8 * 1024 * 1024;
const packr = new Packr({ useRecords: false, mapsAsObjects: true });

export class RecordTooLarge extends Error {
  override readonly name = 'RecordTooLarge';
}

export function encodeRecord(trajectory: Trajectory): Buffer {
  const payload = packr.pack(trajectory);
  if (payload.byteLength > MAX_RECORD_BYTES)
    throw new RecordTooLarge(
      `trajectory ${trajectory.episodeId} is ${payload.byteLength} bytes encoded, over the replay record cap of ${MAX_RECORD_BYTES}`,
    );
  const record = Buffer.allocUnsafe(HEADER_BYTES + payload.byteLength);
  MAGIC.copy(record, 0);
  record.writeUInt32LE(payload.byteLength, 4);
  record.writeUInt32LE(crc32(payload), 8);
  record.writeUInt32LE(crc32(record.subarray(0, 12)), 12);
  record.set(payload, HEADER_BYTES);
  return record;
}

/** Sequential reads of a file through one cached window (a record is rarely bigger than it). */
class FileWindow {
  private buffer = Buffer.alloc(0);
  private start = 0;

  constructor(private readonly fd: number) {}

  /** `length` bytes at `position`; shorter only where the file ends. */
  read(position: number, length: number): Buffer {
    if (position >= this.start && position + length <= this.start + this.buffer.byteLength)
      return this.buffer.subarray(position - this.start, position - this.start + length);
    const buffer = Buffer.allocUnsafe(Math.max(length, WINDOW_BYTES));
    let filled = 0;
    while (filled < buffer.byteLength) {
      const n = readSync(this.fd, buffer, filled, buffer.byteLength - filled, position + filled);
      if (n === 0) break;
      filled += n;
    }
    this.buffer = buffer.subarray(0, filled);
    this.start = position;
    return this.buffer.subarray(0, Math.min(length, filled));
  }
}

export interface ScannedRecord {
  trajectory: Trajectory;
  /** where the record starts in the file, and its bytes, header included */
  offset: number;
  length: number;
}

export interface BadRange {
  start: number;
  end: number;
  reason: string;
}

/** The record at `position` if one whole, valid record starts there (ending by `limit`), else why not. */
function recordAt(window: FileWindow, position: number, limit: number): ScannedRecord | string {
  if (limit - position < HEADER_BYTES) return `a record header is cut short at byte ${position}`;
  const header = window.read(position, HEADER_BYTES);
  if (!header.subarray(0, 4).equals(MAGIC)) return `no record starts at byte ${position}`;
  if (crc32(header.subarray(0, 12)) !== header.readUInt32LE(12))
    return `the record header at byte ${position} fails its checksum`;
  const length = header.readUInt32LE(4);
  const checksum = header.readUInt32LE(8);
  if (length > MAX_RECORD_BYTES) return `the record at byte ${position} claims ${length} bytes, over the cap`;
  if (position + HEADER_BYTES + length > limit) return `the record at byte ${position} is cut short`;
  const payload = window.read(position + HEADER_BYTES, length);
  if (crc32(payload) !== checksum) return `the record at byte ${position} fails its checksum`;
  let trajectory: Trajectory;
  try {
    trajectory = packr.unpack(payload) as Trajectory;
  } catch {
    return `the record at byte ${position} does not decode`;
  }
  if (typeof trajectory?.episodeId !== 'string') return `the record at byte ${position} is not a trajectory`;
  return { trajectory, offset: position, length: HEADER_BYTES + length };
}

/** The first valid record after `from` (by its magic), or null when none starts before `limit`. */
function resync(window: FileWindow, from: number, limit: number): ScannedRecord | null {
  let position = from + 1;
  while (position <= limit - HEADER_BYTES) {
    const chunk = window.read(position, Math.min(WINDOW_BYTES, limit - position));
    let at = chunk.indexOf(MAGIC);
    while (at >= 0) {
      const found = recordAt(window, position + at, limit);
      if (typeof found !== 'string') return found;
      // the window reads into a fresh buffer when it moves, so `chunk` still holds these bytes
      at = chunk.indexOf(MAGIC, at + 1);
    }
    // a magic may straddle the chunk's end: the next chunk starts 3 bytes back
    position += Math.max(1, chunk.byteLength - (MAGIC.byteLength - 1));
  }
  return null;
}

export interface ScanSlice {
  records: ScannedRecord[];
  /** bad byte ranges with a valid record after them */
  bad: BadRange[];
  /** where to go on: `limit` once the slice reached it */
  next: number;
  /** bytes at the end that hold no whole record: a torn tail, or one still being written */
  tail: BadRange | null;
}

/**
 * Reads records from `from` towards `limit`, stopping once about `budget` bytes are read (so a
 * large log can be read in slices between heartbeats). A bad record is skipped to the next valid
 * one; bad bytes with nothing valid after them are the tail.
 */
export function scanSlice(
  fd: number,
  from: number,
  limit: number,
  budget = Number.POSITIVE_INFINITY,
): ScanSlice {
  const window = new FileWindow(fd);
  const records: ScannedRecord[] = [];
  const bad: BadRange[] = [];
  let position = from;
  while (position < limit && position - from < budget) {
    const found = recordAt(window, position, limit);
    if (typeof found !== 'string') {
      records.push(found);
      position += found.length;
      continue;
    }
    const next = resync(window, position, limit);
    if (next === null)
      return { records, bad, next: limit, tail: { start: position, end: limit, reason: found } };
    bad.push({ start: position, end: next.offset, reason: found });
    records.push(next);
    position = next.offset + next.length;
  }
  return { records, bad, next: position, tail: null };
}

/** Whether the file's first bytes are a record of the layout before the magic. */
export function isLegacyLog(fd: number, size: number): boolean {
  if (size === 0) return false;
  const head = Buffer.alloc(Math.min(4, size));
  readSync(fd, head, 0, head.byteLength, 0);
  return !head.equals(MAGIC.subarray(0, head.byteLength));
}

/** A log of the layout before the magic: its records up to the first bad one (it had no resync). */
export function scanLegacy(fd: number, size: number): { trajectories: Trajectory[]; end: number } {
  const window = new FileWindow(fd);
  const trajectories: Trajectory[] = [];
  let offset = 0;
  while (size - offset >= LEGACY_HEADER_BYTES) {
    const header = window.read(offset, LEGACY_HEADER_BYTES);
    const length = header.readUInt32LE(0);
    if (length > MAX_RECORD_BYTES || offset + LEGACY_HEADER_BYTES + length > size) break;
    const payload = window.read(offset + LEGACY_HEADER_BYTES, length);
    if (crc32(payload) !== header.readUInt32LE(4)) break;
    try {
      trajectories.push(packr.unpack(payload) as Trajectory);
    } catch {
      break;
    }
    offset += LEGACY_HEADER_BYTES + length;
  }
  return { trajectories, end: offset };
}
