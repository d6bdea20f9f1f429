// Spec → SVG with Vega's headless renderer (no node-canvas), SVG → PNG with the project's own
// Chromium: one browser launch renders any number of plots.
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext } from 'playwright-core';
import * as vega from 'vega';
import { compile, type TopLevelSpec } from 'vega-lite';
import { launchBrowser, withCaptureRetries } from '../envs/index.js';

export interface SizeOptions {
  /** Plot area in CSS pixels; overrides the spec's own width/height. */
  width?: number;
  height?: number;
}

export interface RenderOptions extends SizeOptions {
  /** Device pixels per CSS pixel in the PNG (default: the renderer's, 2). */
  scale?: number;
}

/** The spec as Vega, with width/height overridden when given. */
export function toVega(spec: TopLevelSpec, options: SizeOptions = {}): vega.Spec {
  const sized = { ...spec } as TopLevelSpec & SizeOptions;
  if (options.width !== undefined) sized.width = options.width;
  if (options.height !== undefined) sized.height = options.height;
  return compile(sized).spec;
}

/** Renders a Vega-Lite spec to an SVG document string, in-process (no browser). */
export async function renderSvg(spec: TopLevelSpec, options: SizeOptions = {}): Promise<string> {
  const view = new vega.View(vega.parse(toVega(spec, options)), { renderer: 'none' });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}

function svgSize(svg: string): { width: number; height: number } {
  const open = /<svg\b[^>]*>/.exec(svg)?.[0] ?? '';
  const attr = (name: string) => Number(new RegExp(`\\b${name}="([\\d.]+)"`).exec(open)?.[1] ?? Number.NaN);
  const width = attr('width');
  const height = attr('height');
  if (!(width > 0 && height > 0)) throw new Error('the rendered SVG has no width/height');
  return { width, height };
}

function writeAtomically(file: string, data: Buffer): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(tmp, data);
    renameSync(tmp, file);
  } catch (error) {
    rmSync(tmp, { force: true });
    throw error;
  }
}

export interface PlotRendererOptions {
  /** Chromium to use; default findChromium() ($TTI_CHROMIUM, Playwright's, PATH). */
  executablePath?: string;
  /** Default device scale for renders (2: crisp in a README on a high-DPI screen). */
  scale?: number;
}

/** A headless Chromium that rasterises plots; `close()` it when done. */
export class PlotRenderer {
  readonly #browser: Browser;
  readonly #scale: number;
  readonly #contexts = new Map<number, Promise<BrowserContext>>();
  #closed = false;

  private constructor(browser: Browser, scale: number) {
    this.#browser = browser;
    this.#scale = scale;
  }

  static async launch(options: PlotRendererOptions = {}): Promise<PlotRenderer> {
    const scale = options.scale ?? 2;
    if (!(scale > 0)) throw new Error(`scale must be > 0, got ${scale}`);
    const browser = await launchBrowser(
      options.executablePath === undefined ? {} : { executablePath: options.executablePath },
    );
    return new PlotRenderer(browser, scale);
  }

  #context(scale: number): Promise<BrowserContext> {
    let context = this.#contexts.get(scale);
    if (!context) {
      // Plots need no scripts and no network: the SVG is self-contained.
      context = this.#browser.newContext({
        deviceScaleFactor: scale,
        javaScriptEnabled: false,
        offline: true,
      });
      this.#contexts.set(scale, context);
    }
    return context;
  }

  /** Renders the spec to a PNG at `outFile` (parent folders made, written atomically); returns the path. */
  async render(spec: TopLevelSpec, outFile: string, options: RenderOptions = {}): Promise<string> {
    if (this.#closed) throw new Error('PlotRenderer is closed');
    const scale = options.scale ?? this.#scale;
    if (!(scale > 0)) throw new Error(`scale must be > 0, got ${scale}`);
    const svg = await renderSvg(spec, options);
    const { width, height } = svgSize(svg);
    const page = await (await this.#context(scale)).newPage();
    try {
      await page.setViewportSize({ width: Math.ceil(width), height: Math.ceil(height) });
      await page.setContent(
        `<!doctype html><html><head><style>html,body{margin:0;padding:0;background:#fff}svg{display:block}</style></head><body>${svg}</body></html>`,
      );
      const png = await withCaptureRetries(() =>
        page.locator('body > svg').screenshot({ type: 'png', animations: 'disabled', timeout: 15_000 }),
      );
      writeAtomically(outFile, png);
      return outFile;
    } finally {
      await page.close().catch(() => undefined);
    }
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#browser.close().catch(() => undefined);
  }
}

/** One plot, one browser launch (about a second); use PlotRenderer for several. */
export async function renderPng(
  spec: TopLevelSpec,
  outFile: string,
  options: RenderOptions = {},
): Promise<string> {
  const renderer = await PlotRenderer.launch(options.scale === undefined ? {} : { scale: options.scale });
  try {
    return await renderer.render(spec, outFile, options);
  } finally {
    await renderer.close();
  }
}
