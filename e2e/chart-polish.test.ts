import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../apps/server/test/test-app.ts';
import { liveQuotes, tick as kitTick } from '../apps/server/test/trading/test-kit.ts';
import { DESKTOP, jsErrors, newPage, PHONE, startE2E, type E2E } from './harness.ts';

/**
 * Chart polish: signed numbers in chart labels read sign-first in Arabic, the phone chart bar's
 * labels never collide in any language, and indicator legends show (and edit) their parameters.
 */
const AXE_SOURCE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core'), 'utf8');

/** Serious or critical WCAG 2.2 AA findings of axe-core on the page as it is now. */
async function axeSerious(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  return page.evaluate(async () => {
    const w = window as unknown as {
      axe: { run: (ctx: unknown, o: unknown) => Promise<{ violations: { id: string; impact: string | null }[] }> };
    };
    const result = await w.axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] },
    });
    return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id);
  });
}

describe('chart polish', () => {
  let e2e: E2E;
  const tick = (code: string, bid: string, ask: string) => kitTick(e2e.server, code, bid, ask);
  const btcId = () => e2e.server.ctx.services.market.symbolByCode('BTCUSDT')!.id;

  async function loggedInPage(
    device: typeof PHONE | typeof DESKTOP,
    lang: string,
  ): Promise<{ context: BrowserContext; page: Page; token: string; userId: number }> {
    const demo = await call(e2e.server, 'GET', '/api/user/createAccountDemoForU');
    const login = await call(e2e.server, 'POST', '/api/user/loginForU', { demo_id: demo.data.demo_id });
    expect(login.code).toBe(1);
    const session = JSON.stringify({ state: { token: login.data.token, user: login.data.user }, version: 0 });
    const { context, page } = await newPage(e2e, device, { lang });
    await context.addInitScript((value) => localStorage.setItem('session', value), session);
    return { context, page, token: login.data.token, userId: login.data.user.id };
  }

  /** The order line titles the chart was handed (it draws them on its canvas). */
  const lineTitles = (page: Page) =>
    page.getByTestId('kline-chart').evaluate((el) => (el as HTMLElement & { orderLineTitles?: () => string[] }).orderLineTitles?.() ?? []);

  // A signed figure isolated left-to-right: the sign is the first thing inside the isolate.
  const ISOLATED_NEGATIVE = /\u2066-[\d,.]+\u2069/;

  beforeAll(async () => {
    e2e = await startE2E();
    for (const task of e2e.server.ctx.background.filter((t) => t.name.startsWith('price-source'))) await task.stop();
    await liveQuotes(e2e.server);
    await tick('BTCUSDT', '95000.00', '95020.00');
  });
  afterAll(async () => e2e?.close());

  for (const [device, size] of [
    [PHONE, 'phone'],
    [DESKTOP, 'desktop'],
  ] as const) {
    it(`keeps the minus in front of a position's loss and the day's change in chart labels (${size}, ar)`, async () => {
      await tick('BTCUSDT', '95000.00', '95020.00');
      const { context, page, token } = await loggedInPage(device, 'ar');
      // A buy opened at the ask is at a loss at the bid: its line shows a negative profit.
      const placed = await call(
        e2e.server,
        'GET',
        '/v1/api/forex/submit',
        { type: 1, cont: '0.1', forex_id: btcId(), status: 1, multiple: 2 },
        { token },
      );
      expect(placed.code).toBe(1);
      await page.goto('/trade?symbol=BTCUSDT');
      await expect.poll(() => page.getByTestId('chart-order-line').count(), { timeout: 15_000 }).toBe(1);
      const listed = (await page.getByTestId('chart-order-line').textContent())!;
      expect(listed).toMatch(ISOLATED_NEGATIVE);
      await expect.poll(() => lineTitles(page)).toHaveLength(1);
      const [title] = await lineTitles(page);
      expect(title).toContain('شراء 0.1');
      expect(title).toMatch(ISOLATED_NEGATIVE);
      // No Arabic letter mark or direction mark left to pull the sign behind the digits.
      expect(title).not.toMatch(/[\u061c\u200e\u200f]/);

      // The day's change in the quote header: signed, isolated, sign first.
      const change = page.getByTestId('quote-change').first();
      await expect.poll(() => change.textContent()).toMatch(/^\u2066[+-]?[\d,.]+%\u2069$/);
      const stat = page.getByTestId('stat-change').first();
      if (await stat.count()) expect(await stat.textContent()).toMatch(/^\u2066[+-]?[\d,.]+%\u2069$/);
      await page.screenshot({ path: `/tmp/chart-polish-${size}-ar-signs.png` });
      expect(jsErrors(page)).toEqual([]);
      await context.close();
    });
  }

  for (const lang of ['hk', 'en', 'ar']) {
    it(`lays out the phone chart bar without two labels overlapping (phone, ${lang})`, async () => {
      const { context, page } = await loggedInPage(PHONE, lang);
      await page.goto('/trade?symbol=BTCUSDT');
      await page.getByTestId('kline-chart').waitFor();
      // The bar: the period buttons above the chart, then the chart type and indicator toggles.
      const boxes = await page.getByTestId('kline-chart').evaluate((el) => {
        const root = el.parentElement!.parentElement!;
        const bars = [root.previousElementSibling!, root.firstElementChild!];
        return bars.flatMap((bar) =>
          [...bar.querySelectorAll('button')].map((b) => {
            const r = b.getBoundingClientRect();
            return {
              text: b.textContent,
              x: r.x,
              y: r.y,
              w: r.width,
              h: r.height,
              clipped: b.scrollWidth > b.clientWidth + 1 || b.scrollHeight > b.clientHeight + 1,
            };
          }),
        );
      });
      expect(boxes.length).toBeGreaterThanOrEqual(9 + 3 + 5);
      for (const box of boxes) {
        expect(box.w, `${box.text} has a width`).toBeGreaterThan(0);
        expect(box.clipped, `${box.text} shows its whole label`).toBe(false);
      }
      for (let i = 0; i < boxes.length; i++)
        for (let j = i + 1; j < boxes.length; j++) {
          const [a, b] = [boxes[i]!, boxes[j]!];
          const overlapX = Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x);
          const overlapY = Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y);
          expect(overlapX > 0.5 && overlapY > 0.5, `${a.text} and ${b.text} overlap`).toBe(false);
        }
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await page.screenshot({ path: `/tmp/chart-polish-phone-${lang}-bar.png` });
      expect(jsErrors(page)).toEqual([]);
      await context.close();
    });
  }
  for (const [device, size, lang] of [
    [DESKTOP, 'desktop', 'en'],
    [PHONE, 'phone', 'ar'],
  ] as const) {
    it(`shows an indicator's legend with its parameters and value, edits its period, and keeps it after a reload (${size}, ${lang})`, async () => {
      await tick('BTCUSDT', '95000.00', '95020.00');
      const { context, page, userId } = await loggedInPage(device, lang);
      await page.goto('/trade?symbol=BTCUSDT');
      await page.getByTestId('kline-chart').waitFor();
      await page.getByRole('button', { name: 'SMA', exact: true }).click();
      const legend = page.locator('[data-testid="indicator-legend"][data-indicator="sma"]');
      const value = legend.locator('[data-line="sma"]');
      await expect.poll(() => legend.textContent()).toContain('SMA 20');
      await expect.poll(() => value.textContent()).toMatch(/\d{2},\d{3}\.\d{2}/);
      const before = await value.textContent();
      expect(await axeSerious(page)).toEqual([]);
      await page.screenshot({ path: `/tmp/chart-polish-${size}-${lang}-legend.png` });

      await legend.click();
      const dialog = page.getByRole('dialog');
      await dialog.waitFor();
      const period = dialog.getByRole('textbox');
      expect(await period.inputValue()).toBe('20');
      // Out of range: refused with its rule, the chart keeps the last valid period.
      await period.fill('0');
      await expect.poll(() => dialog.getByRole('alert').count()).toBe(1);
      expect(await legend.textContent()).toContain('SMA 20');
      await period.fill('50');
      await expect.poll(() => legend.textContent()).toContain('SMA 50');
      expect(await dialog.getByRole('alert').count()).toBe(0);
      expect(await axeSerious(page)).toEqual([]);
      await page.screenshot({ path: `/tmp/chart-polish-${size}-${lang}-legend-edit.png` });
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      await expect.poll(() => value.textContent()).not.toBe(before);
      const stored = JSON.parse((await page.evaluate((key) => localStorage.getItem(key), `chart-prefs:${userId}`))!);
      expect(stored.params.sma).toEqual({ period: 50 });

      await page.reload();
      await expect.poll(() => legend.textContent()).toContain('SMA 50');
      // The toggle's description names the edited period too.
      expect(await page.getByRole('button', { name: 'SMA', exact: true }).getAttribute('title')).toMatch(/\(50\)$/);
      await expect.poll(() => value.textContent()).toMatch(/\d{2},\d{3}\.\d{2}/);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(device.viewport.width);
      // MACD's legend: its parameters, and its signed values each isolated left-to-right (the sign first in Arabic).
      await page.getByRole('button', { name: 'MACD', exact: true }).click();
      const macd = page.locator('[data-testid="indicator-legend"][data-indicator="macd"]');
      await expect.poll(() => macd.textContent()).toContain('MACD 12, 26, 9');
      await expect.poll(() => macd.locator('[data-line]').count()).toBe(3);
      for (const text of await macd.locator('[data-line]').allTextContents()) expect(text).toMatch(/^\u2066-?[\d,.]+\u2069$/);
      expect(jsErrors(page)).toEqual([]);
      await context.close();
    });
  }
  for (const [device, size, lang, button] of [
    [DESKTOP, 'desktop', 'en', 'Horizontal line'],
    [PHONE, 'phone', 'ar', 'خط أفقي'],
  ] as const) {
    it(`draws a horizontal line at a clicked price, keeps it for that symbol after a reload, and removes it (${size}, ${lang})`, async () => {
      await tick('BTCUSDT', '95000.00', '95020.00');
      const { context, page, userId } = await loggedInPage(device, lang);
      await page.goto('/trade?symbol=BTCUSDT');
      const chart = page.getByTestId('kline-chart');
      await chart.waitFor();
      await expect.poll(() => chart.locator('table tr').count()).toBeGreaterThan(0);
      const tool = page.getByRole('button', { name: button, exact: true });
      await tool.click();
      expect(await tool.getAttribute('aria-pressed')).toBe('true');
      const box = (await chart.boundingBox())!;
      await page.mouse.click(box.x + box.width * 0.4, box.y + box.height * 0.4);
      const drawn = page.getByTestId('chart-drawn-line');
      await expect.poll(() => drawn.count()).toBe(1);
      // One line per press: the tool lets go after drawing.
      expect(await tool.getAttribute('aria-pressed')).toBe('false');
      const price = Number(await drawn.getAttribute('data-price'));
      const range = (await chart.evaluate((el) =>
        (el as HTMLElement & { priceRanges?: () => { visible: { from: number; to: number } } | null }).priceRanges?.(),
      ))!;
      expect(price).toBeGreaterThan(range.visible.from);
      expect(price).toBeLessThan(range.visible.to);
      expect(await drawn.textContent()).toContain(price.toLocaleString('en-US', { minimumFractionDigits: 2 }));
      const stored = () => page.evaluate((key) => JSON.parse(localStorage.getItem(key) ?? '{}'), `chart-prefs:${userId}`);
      expect((await stored()).lines).toEqual({ BTCUSDT: [price] });
      await page.screenshot({ path: `/tmp/chart-polish-${size}-${lang}-hline.png` });

      await page.reload();
      await expect.poll(() => drawn.count()).toBe(1);
      expect(Number(await drawn.getAttribute('data-price'))).toBe(price);
      // Another symbol has its own (none).
      await page.goto('/trade?symbol=ETHUSDT');
      await page.getByTestId('kline-chart').waitFor();
      await expect.poll(() => page.getByTestId('kline-chart').locator('table tr').count()).toBeGreaterThan(0);
      expect(await drawn.count()).toBe(0);
      await page.goto('/trade?symbol=BTCUSDT');
      await expect.poll(() => drawn.count()).toBe(1);
      await drawn.getByRole('button').click();
      await expect.poll(() => drawn.count()).toBe(0);
      expect((await stored()).lines).toBeUndefined();
      expect(jsErrors(page)).toEqual([]);
      await context.close();
    });
  }
  for (const [device, size, lang, button, startHint, endHint] of [
    [DESKTOP, 'desktop', 'en', 'Trend line', 'Pick where the trend line starts', 'Pick where the trend line ends'],
    [PHONE, 'phone', 'ar', 'خط اتجاه', 'اختر نقطة بداية خط الاتجاه', 'اختر نقطة نهاية خط الاتجاه'],
  ] as const) {
    it(`draws a trend line between two picked points, selects it, keeps it for that symbol after a reload, and removes it (${size}, ${lang})`, async () => {
      await tick('BTCUSDT', '95000.00', '95020.00');
      const { context, page, userId } = await loggedInPage(device, lang);
      await page.goto('/trade?symbol=BTCUSDT');
      const chart = page.getByTestId('kline-chart');
      await chart.waitFor();
      await expect.poll(() => chart.locator('table tr').count()).toBeGreaterThan(0);
      type Segment = { x1: number; y1: number; x2: number; y2: number; selected: boolean; draft: boolean };
      /** Where the chart last drew the trend lines on its canvas (pixels from the chart's top left). */
      const segments = () => chart.evaluate((el) => (el as HTMLElement & { trendSegments?: () => Segment[] }).trendSegments?.() ?? []);
      const press = async (x: number, y: number) => {
        if (device === PHONE) await page.touchscreen.tap(x, y);
        else await page.mouse.click(x, y);
      };

      const tool = page.getByRole('button', { name: button, exact: true });
      await tool.click();
      expect(await tool.getAttribute('aria-pressed')).toBe('true');
      const hint = page.getByTestId('trend-hint');
      await expect.poll(() => hint.textContent()).toBe(startHint);
      const box = (await chart.boundingBox())!;
      const start = { x: box.x + box.width * 0.3, y: box.y + box.height * 0.55 };
      const end = { x: box.x + box.width * 0.6, y: box.y + box.height * 0.3 };
      await press(start.x, start.y);
      await expect.poll(() => hint.textContent()).toBe(endHint);
      // The chart takes a second press within half a second as a double press (no click): a person
      // moving to the second point takes longer than that.
      await page.waitForTimeout(600);
      await press(end.x, end.y);
      const drawn = page.getByTestId('chart-trend-line');
      await expect.poll(() => drawn.count()).toBe(1);
      // One line per use of the tool: it lets go after the second point.
      expect(await tool.getAttribute('aria-pressed')).toBe('false');
      expect(await hint.count()).toBe(0);

      // Drawn on the canvas from the first point to the second: the ends sit where they were picked
      // (the time snaps to the nearest bar, the price to the symbol's precision).
      await expect.poll(async () => (await segments()).length).toBe(1);
      const [segment] = await segments();
      expect(Math.abs(segment!.x1 - (start.x - box.x))).toBeLessThan(12);
      expect(Math.abs(segment!.y1 - (start.y - box.y))).toBeLessThan(2);
      expect(Math.abs(segment!.x2 - (end.x - box.x))).toBeLessThan(12);
      expect(Math.abs(segment!.y2 - (end.y - box.y))).toBeLessThan(2);
      const stored = () => page.evaluate((key) => JSON.parse(localStorage.getItem(key) ?? '{}'), `chart-prefs:${userId}`);
      const [line] = (await stored()).trends.BTCUSDT as { from: { time: number; price: number }; to: { time: number; price: number } }[];
      expect(line!.to.time).toBeGreaterThan(line!.from.time);
      expect(line!.to.price).toBeGreaterThan(line!.from.price);
      expect(Object.keys((await stored()).trends)).toEqual(['BTCUSDT']);
      const label = (price: number) => price.toLocaleString('en-US', { minimumFractionDigits: 2 });
      expect(await drawn.textContent()).toContain(`${label(line!.from.price)} – ${label(line!.to.price)}`);

      // Selected by pressing the line itself on the chart: it shows its ends and its entry says so.
      await page.waitForTimeout(600);
      await press(box.x + (segment!.x1 + segment!.x2) / 2, box.y + (segment!.y1 + segment!.y2) / 2);
      await expect.poll(() => drawn.getAttribute('data-selected')).toBe('true');
      await expect.poll(async () => (await segments())[0]?.selected).toBe(true);
      expect(await drawn.getByRole('button').first().getAttribute('aria-pressed')).toBe('true');
      expect(await axeSerious(page)).toEqual([]);
      await page.screenshot({ path: `/tmp/chart-polish-${size}-${lang}-trend.png` });

      await page.reload();
      await expect.poll(() => drawn.count()).toBe(1);
      await expect.poll(async () => (await segments()).length).toBe(1);
      expect(JSON.parse((await drawn.getAttribute('data-from'))!)).toEqual(line!.from);
      expect(JSON.parse((await drawn.getAttribute('data-to'))!)).toEqual(line!.to);
      // Another symbol has its own (none).
      await page.goto('/trade?symbol=ETHUSDT');
      await page.getByTestId('kline-chart').waitFor();
      await expect.poll(() => page.getByTestId('kline-chart').locator('table tr').count()).toBeGreaterThan(0);
      expect(await drawn.count()).toBe(0);
      expect(await segments()).toEqual([]);
      await page.goto('/trade?symbol=BTCUSDT');
      await expect.poll(() => drawn.count()).toBe(1);
      await drawn.getByRole('button').last().click();
      await expect.poll(() => drawn.count()).toBe(0);
      await expect.poll(async () => (await segments()).length).toBe(0);
      expect((await stored()).trends).toBeUndefined();
      expect(jsErrors(page)).toEqual([]);
      await context.close();
    });
  }
});
