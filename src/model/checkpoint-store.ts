// Checkpoints on disk: one folder per policy version holding the files (weights, optimizer state,
// ...) and a manifest with each file's size and sha256. A checkpoint is written into a temporary
// folder, every file fsynced, then renamed into place, so a crash leaves either the whole
// checkpoint or none. Loading verifies the manifest; a corrupted latest checkpoint is skipped (and
// reported) in favour of the one before; saving that version again moves the corrupted folder aside
// (`corrupt-v…`) rather than refusing, so a learner that fell back can go on. A save that cannot be
// written (a full disk) leaves nothing behind and throws. The newest `keep` are kept.
import { createHash } from 'node:crypto';
import {
  closeSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
} from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { fsyncDir, writeAll } from '../util/index.js';

export const Manifest = z.object({
  policyVersion: z.number().int().nonnegative(),
  createdAt: z.string(),
  /** iteration, steps, RNG state, ... whatever the learner needs to resume */
  counters: z.record(z.string(), z.number()),
  files: z.array(z.object({ name: z.string(), bytes: z.number().int(), sha256: z.string() })),
});
export type Manifest = z.infer<typeof Manifest>;

export interface LoadedCheckpoint {
  manifest: Manifest;
  files: Map<string, Buffer>;
  /** newer checkpoints that were skipped, and why */
  skipped: { policyVersion: number; reason: string }[];
}

const FOLDER = /^v(\d{8})$/;
const folderOf = (version: number) => `v${String(version).padStart(8, '0')}`;
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

function writeSynced(file: string, data: Buffer | string): void {
  const fd = openSync(file, 'w');
  try {
    writeAll(fd, typeof data === 'string' ? Buffer.from(data) : data, 0);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

export class CheckpointStore {
  /** The folder of one version's checkpoint. */
  pathOf(policyVersion: number): string {
    return path.join(this.dir, folderOf(policyVersion));
  }

  constructor(
    readonly dir: string,
    readonly keep: number,
  ) {
    if (keep < 1) throw new RangeError('keep at least one checkpoint');
    mkdirSync(dir, { recursive: true });
  }

  /** Policy versions on disk, oldest first (complete folders only). */
  versions(): number[] {
    return readdirSync(this.dir)
      .map((name) => FOLDER.exec(name)?.[1])
      .filter((v): v is string => v !== undefined)
      .map(Number)
      .sort((a, b) => a - b);
  }

  save(policyVersion: number, files: ReadonlyMap<string, Buffer>, counters: Record<string, number>): string {
    const final = path.join(this.dir, folderOf(policyVersion));
    if (existsSync(final)) {
      // A corrupted one (what a fallback skipped) goes aside, kept for a look; a sound one stays.
      if (typeof this.verify(policyVersion) !== 'string')
        throw new Error(`checkpoint for policy version ${policyVersion} already exists`);
      renameSync(final, path.join(this.dir, `corrupt-${folderOf(policyVersion)}-${Date.now()}`));
      fsyncDir(this.dir);
    }
    const temp = path.join(this.dir, `.tmp-${folderOf(policyVersion)}-${process.pid}`);
    rmSync(temp, { recursive: true, force: true });
    try {
      this.writeFolder(temp, policyVersion, files, counters);
    } catch (error) {
      // A half-written folder would only hold space a full disk needs back.
      rmSync(temp, { recursive: true, force: true });
      throw error;
    }
    renameSync(temp, final);
    fsyncDir(this.dir);
    this.prune();
    return final;
  }

  private writeFolder(
    temp: string,
    policyVersion: number,
    files: ReadonlyMap<string, Buffer>,
    counters: Record<string, number>,
  ): void {
    mkdirSync(temp);
    const entries: Manifest['files'] = [];
    for (const [name, data] of files) {
      if (name === 'manifest.json' || name.includes('/') || name.startsWith('.')) {
        throw new Error(`bad checkpoint file name '${name}'`);
      }
      writeSynced(path.join(temp, name), data);
      entries.push({ name, bytes: data.byteLength, sha256: sha256(data) });
    }
    const manifest: Manifest = {
      policyVersion,
      createdAt: new Date().toISOString(),
      counters,
      files: entries,
    };
    writeSynced(path.join(temp, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    fsyncDir(temp);
  }

  /** The newest checkpoint that verifies, or null when none does. */
  loadLatest(): LoadedCheckpoint | null {
    const skipped: LoadedCheckpoint['skipped'] = [];
    for (const version of this.versions().reverse()) {
      const result = this.verify(version);
      if (typeof result === 'string') {
        skipped.push({ policyVersion: version, reason: result });
        continue;
      }
      return { ...result, skipped };
    }
    return null;
  }

  private verify(version: number): Omit<LoadedCheckpoint, 'skipped'> | string {
    const folder = path.join(this.dir, folderOf(version));
    let manifest: Manifest;
    try {
      const parsed = Manifest.safeParse(JSON.parse(readFileSync(path.join(folder, 'manifest.json'), 'utf8')));
      if (!parsed.success) return `manifest.json is malformed: ${parsed.error.issues[0]?.message ?? ''}`;
      manifest = parsed.data;
    } catch (error) {
      return `manifest.json cannot be read: ${(error as Error).message}`;
    }
    if (manifest.policyVersion !== version) return `manifest says version ${manifest.policyVersion}`;
    const files = new Map<string, Buffer>();
    for (const entry of manifest.files) {
      let data: Buffer;
      try {
        data = readFileSync(path.join(folder, entry.name));
      } catch {
        return `${entry.name} is missing`;
      }
      if (data.byteLength !== entry.bytes)
        return `${entry.name} has ${data.byteLength} bytes, not ${entry.bytes}`;
      if (sha256(data) !== entry.sha256) return `${entry.name} fails its sha256`;
      files.set(entry.name, data);
    }
    return { manifest, files };
  }

  private prune(): void {
    const versions = this.versions();
    for (const version of versions.slice(0, Math.max(0, versions.length - this.keep))) {
      rmSync(path.join(this.dir, folderOf(version)), { recursive: true, force: true });
    }
    // Temporary folders are what a crash mid-save leaves behind.
    for (const name of readdirSync(this.dir)) {
      if (name.startsWith('.tmp-') && !name.endsWith(`-${process.pid}`)) {
        rmSync(path.join(this.dir, name), { recursive: true, force: true });
      }
    }
  }
}
