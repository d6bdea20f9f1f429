// Metrics rows as the training loop writes them, and a small PNG decoder for the render tests.
import { inflateSync } from 'node:zlib';

/** A run of `n` iterations: horizon 10 → 20 → 30, eval every `evalEvery` iterations (null otherwise). */
export function metricsRows(n = 12, evalEvery = 3): Record<string, unknown>[] {
  const rows: Record<string, unknown>[] = [];
  let total = 0;
  for (let i = 1; i <= n; i++) {
    const horizon = i <= n / 3 ? 10 : i <= (2 * n) / 3 ? 20 : 30;
    const envSteps = 500;
    total += envSteps;
    const success = Math.min(0.9, 0.1 + i * 0.05);
    rows.push({
      iteration: i,
      horizon,
      policyVersion: i - 1,
      envSteps,
      totalEnvSteps: total,
      train: { episodes: 64, success, meanSteps: horizon * 0.7 },
      eval:
        i % evalEvery === 0
          ? {
              episodes: 40,
              success: success - 0.05,
              meanSteps: horizon * 0.6,
              horizon: 30,
              minTry: 3,
              byTier: {
                easy: { episodes: 20, success: success },
                hard: { episodes: 20, success: success / 2 },
              },
            }
          : null,
      replay: { seen: i * 64, kept: Math.round(i * 64 * success) },
      learner: i === 1 ? null : { loss: 1 / i, samples: 512, samplesPerSec: 200 + i },
      envStepsPerSec: 40 + i,
      learnerSamplesPerSec: i === 1 ? null : 200 + i,
      restarts: i > n / 2 ? 1 : 0,
      wallMs: 30_000,
      at: new Date(Date.UTC(2025, 0, 1, 0, i)).toISOString(),
    });
  }
  return rows;
}

export const jsonl = (rows: readonly unknown[]): string =>
  `${rows.map((r) => JSON.stringify(r)).join('\n')}\n`;

export interface DecodedPng {
  width: number;
  height: number;
  /** RGBA, 4 bytes a pixel. */
  pixels: Buffer;
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export function hasPngSignature(png: Buffer): boolean {
  return png.subarray(0, 8).equals(SIGNATURE);
}

/** Decodes the 8-bit, non-interlaced RGB/RGBA PNGs Chromium writes (and refuses anything else). */
export function decodePng(png: Buffer): DecodedPng {
  if (!hasPngSignature(png)) throw new Error('not a PNG: bad signature');
  let offset = 8;
  let width = 0;
  let height = 0;
  let channels = 0;
  const idat: Buffer[] = [];
  while (offset < png.length) {
    const length = png.readUInt32BE(offset);
    const type = png.toString('latin1', offset + 4, offset + 8);
    const data = png.subarray(offset + 8, offset + 8 + length);
    offset += 12 + length;
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      const [bitDepth, colorType, , , interlace] = data.subarray(8, 13);
      if (bitDepth !== 8 || (colorType !== 2 && colorType !== 6) || interlace !== 0) {
        throw new Error(
          `unsupported PNG: depth ${bitDepth}, colour type ${colorType}, interlace ${interlace}`,
        );
      }
      channels = colorType === 6 ? 4 : 3;
    } else if (type === 'IDAT') idat.push(data);
    else if (type === 'IEND') break;
  }
  if (!(width > 0 && height > 0)) throw new Error('PNG without a usable IHDR');
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  const out = Buffer.alloc(width * height * 4);
  let prev = Buffer.alloc(stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]!;
    const line = Buffer.from(raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1)));
    for (let i = 0; i < stride; i++) {
      const a = i >= channels ? line[i - channels]! : 0;
      const b = prev[i]!;
      const c = i >= channels ? prev[i - channels]! : 0;
      let add = 0;
      if (filter === 1) add = a;
      else if (filter === 2) add = b;
      else if (filter === 3) add = (a + b) >> 1;
      else if (filter === 4) {
        const p = a + b - c;
        const pa = Math.abs(p - a);
        const pb = Math.abs(p - b);
        const pc = Math.abs(p - c);
        add = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      } else if (filter !== 0) throw new Error(`bad PNG filter ${filter} on row ${y}`);
      line[i] = (line[i]! + add) & 0xff;
    }
    for (let x = 0; x < width; x++) {
      for (let k = 0; k < 4; k++) {
        out[(y * width + x) * 4 + k] = k < channels ? line[x * channels + k]! : 255;
      }
    }
    prev = line;
  }
  return { width, height, pixels: out };
}

/** How many pixels lie within `tolerance` (per channel) of the colour `#rrggbb`. */
export function pixelsNear(png: DecodedPng, hex: string, tolerance = 24): number {
  const [r, g, b] = [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16)) as [
    number,
    number,
    number,
  ];
  let n = 0;
  for (let i = 0; i < png.pixels.length; i += 4) {
    if (
      Math.abs(png.pixels[i]! - r) <= tolerance &&
      Math.abs(png.pixels[i + 1]! - g) <= tolerance &&
      Math.abs(png.pixels[i + 2]! - b) <= tolerance
    ) {
      n++;
    }
  }
  return n;
}

export function distinctColours(png: DecodedPng): number {
  const seen = new Set<number>();
  for (let i = 0; i < png.pixels.length; i += 4) seen.add(png.pixels.readUInt32BE(i));
  return seen.size;
}
