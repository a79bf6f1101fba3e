import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const AXE_SOURCE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core'), 'utf8');
const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/** axe-core's serious and critical findings on the page as it is now, one line each. */
export async function seriousAxeFindings(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  return page.evaluate(async (tags) => {
    const w = window as unknown as {
      axe: {
        run: (ctx: unknown, o: unknown) => Promise<{ violations: { id: string; impact: string | null; nodes: { target: unknown }[] }[] }>;
      };
    };
    const { violations } = await w.axe.run(document, { runOnly: { type: 'tag', values: tags } });
    return violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .flatMap((v) => v.nodes.map((n) => `${v.impact} ${v.id} ${JSON.stringify(n.target)}`));
  }, AXE_TAGS);
}

/** True when nothing on the page is wider than the viewport (no sideways scrolling). */
export const pageFitsWidth = (page: Page) =>
  page.evaluate((width) => document.documentElement.scrollWidth <= width, page.viewportSize()!.width);

/** Waits until the page's finite animations and transitions (a sheet sliding and fading in) have finished, so colours are measured as shown. */
export const animationsSettled = (page: Page) =>
  page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => a.effect?.getComputedTiming().iterations !== Infinity)
        .map((a) => a.finished.catch(() => undefined)),
    ).then(() => undefined),
  );
