import type { Page } from 'playwright-core';
import type { ObservationNode } from './ax-tree.js';

/** Roles a policy can act on; only these get a mark. */
const MARKED_ROLES = new Set([
  'link',
  'button',
  'textbox',
  'searchbox',
  'combobox',
  'checkbox',
  'radio',
  'menuitem',
  'menuitemcheckbox',
  'menuitemradio',
  'tab',
  'option',
  'switch',
  'slider',
  'spinbutton',
  'listbox',
  'treeitem',
]);

const OVERLAY_ID = '__tti_set_of_marks__';

/** Pauses before each retry of a capture, in ms. */
const CAPTURE_RETRY_DELAYS_MS = [100, 400];

/**
 * Headless Chromium sometimes answers Page.captureScreenshot with "Unable to capture screenshot"
 * when no compositor frame is ready (seen under load on CI); a later attempt gets one. Other
 * errors, and a capture that keeps failing, still throw.
 */
export async function withCaptureRetries(
  capture: () => Promise<Buffer>,
  delaysMs: readonly number[] = CAPTURE_RETRY_DELAYS_MS,
): Promise<Buffer> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await capture();
    } catch (err) {
      const transient = err instanceof Error && /Unable to capture screenshot/.test(err.message);
      if (!transient || attempt >= delaysMs.length) throw err;
      await new Promise((resolve) => setTimeout(resolve, delaysMs[attempt]));
    }
  }
}

/**
 * A JPEG of the viewport; with marks, each interactive node in view gets a dashed box and its id.
 * The overlay is a fixed layer added just for the shot and removed after, so the page is unchanged.
 */
export async function screenshotWithMarks(
  page: Page,
  nodes: readonly ObservationNode[],
  quality: number,
): Promise<Buffer> {
  const marks = nodes
    .filter((n) => MARKED_ROLES.has(n.role) && n.bounds && n.bounds[2] > 0 && n.bounds[3] > 0)
    .map((n) => ({ id: n.id, b: n.bounds! }));
  if (marks.length > 0) {
    await page.evaluate(
      `((marks, overlayId) => {
        const layer = document.createElement('div');
        layer.id = overlayId;
        layer.style.cssText = 'position:fixed;left:0;top:0;width:100%;height:100%;pointer-events:none;z-index:2147483647';
        for (const m of marks) {
          const box = document.createElement('div');
          box.style.cssText = 'position:fixed;border:2px dashed #000;box-sizing:border-box;' +
            'left:' + m.b[0] + 'px;top:' + m.b[1] + 'px;width:' + m.b[2] + 'px;height:' + m.b[3] + 'px';
          const label = document.createElement('span');
          label.textContent = m.id;
          label.style.cssText = 'position:absolute;left:-2px;top:-16px;background:#000;color:#fff;font:bold 11px monospace;padding:0 2px;line-height:14px';
          box.appendChild(label);
          layer.appendChild(box);
        }
        (document.body || document.documentElement).appendChild(layer);
      })(${JSON.stringify(marks)}, ${JSON.stringify(OVERLAY_ID)})`,
    );
  }
  try {
    return await withCaptureRetries(() => page.screenshot({ type: 'jpeg', quality }));
  } finally {
    if (marks.length > 0) {
      await page.evaluate(`document.getElementById(${JSON.stringify(OVERLAY_ID)})?.remove()`).catch(() => {});
    }
  }
}
