import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';

export class BrowserNotFoundError extends Error {
  override name = 'BrowserNotFoundError';
}

const SYSTEM_NAMES = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable'];

function isExecutable(file: string): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export interface FindChromiumOptions {
  env?: NodeJS.ProcessEnv;
  /** Skip Playwright's own download location (tests use this to reach the system lookup). */
  skipPlaywright?: boolean;
}

/**
 * Where Chromium is: $TTI_CHROMIUM (or $CHROME_PATH), then Playwright's own browser when it is on
 * disk, then chromium / chromium-browser / google-chrome on PATH. Never downloads anything.
 */
export function findChromium(opts: FindChromiumOptions = {}): string {
  const env = opts.env ?? process.env;
  for (const name of ['TTI_CHROMIUM', 'CHROME_PATH'] as const) {
    const v = env[name];
    if (!v) continue;
    if (isExecutable(v)) return v;
    throw new BrowserNotFoundError(
      `${name}=${v} is not an executable file. Point ${name} at a Chromium binary (e.g. /usr/bin/chromium) or unset it.`,
    );
  }
  if (!opts.skipPlaywright) {
    try {
      const own = chromium.executablePath();
      if (own && isExecutable(own)) return own;
    } catch {
      // playwright-core knows no default location on this platform
    }
  }
  const dirs = (env.PATH ?? '').split(path.delimiter).filter(Boolean);
  for (const name of SYSTEM_NAMES) {
    for (const dir of dirs) {
      const file = path.join(dir, name);
      if (isExecutable(file)) return file;
    }
  }
  throw new BrowserNotFoundError(
    'No Chromium found (looked at $TTI_CHROMIUM, $CHROME_PATH, Playwright’s browser folder, and ' +
      `${SYSTEM_NAMES.join(' / ')} on PATH). Install it with \`apt-get install -y chromium\`, ` +
      'or set TTI_CHROMIUM=/path/to/chrome. tti never downloads a browser.',
  );
}
