import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../apps/server/test/test-app.ts';
import { liveQuotes, tick as kitTick } from '../apps/server/test/trading/test-kit.ts';
import { signedInPage } from './account-helpers.ts';
import { DESKTOP, jsErrors, PHONE, startE2E, type E2E } from './harness.ts';

const POLL = { timeout: 15_000 };

/** A notification's link (/order?type=…&id=…) shows that order: marked and scrolled to in its tab, a live one's sheet open. */
describe('links to one order', () => {
  let e2e: E2E;
  const tick = (code: string, bid: string, ask: string) => kitTick(e2e.server, code, bid, ask);

  beforeAll(async () => {
    e2e = await startE2E();
    for (const task of e2e.server.ctx.background.filter((t) => t.name.startsWith('price-source'))) await task.stop();
    await liveQuotes(e2e.server);
    await tick('BTCUSDT', '95000.00', '95020.00');
  });
  afterAll(async () => e2e?.close());

  it.each([
    { device: PHONE, lang: 'en', size: 'phone' },
    { device: DESKTOP, lang: 'ar', size: 'desktop' },
  ])('marks a closed order in the history and opens a live position’s sheet ($size, $lang)', async ({ device, lang, size }) => {
    const { context, page, user } = await signedInPage(e2e, { device, lang, balance: '100000', verified: true });
    const btc = e2e.server.ctx.services.market.symbolByCode('BTCUSDT')!.id;
    const submit = (extra: Record<string, unknown> = {}) =>
      call(
        e2e.server,
        'GET',
        '/v1/api/forex/submit',
        { type: 1, cont: '0.01', forex_id: btc, multiple: 2, ...extra },
        { token: user.token },
      );
    const ids: number[] = [];
    for (let i = 0; i < 12; i++) {
      const placed = await submit();
      expect(placed.code, placed.msg).toBe(1);
      ids.push(placed.data.Id);
    }
    // Close all but the last: the history holds eleven, newest first; the one to show is the ninth (far down a phone's list).
    for (const id of ids.slice(0, -1))
      expect((await call(e2e.server, 'GET', '/v1/api/forex/close', { id }, { token: user.token })).code).toBe(1);
    const shown = ids[2]!;
    const live = ids.at(-1)!;

    await page.goto(`/order?type=3&id=${shown}`);
    const row = page.locator(`[data-order-id="${shown}"]`);
    await expect.poll(() => row.getAttribute('aria-current'), POLL).toBe('true');
    const inView = await row.evaluate((el) => {
      const box = el.getBoundingClientRect();
      return box.top >= 0 && box.bottom <= window.innerHeight;
    });
    expect(inView).toBe(true);
    await page.screenshot({ path: `/tmp/order-link-history-${size}-${lang}.png` });

    await page.goto(`/order?type=1&id=${live}`);
    await page.getByRole('dialog').waitFor(POLL);
    expect(await page.getByRole('dialog').textContent()).toContain('BTC/USDT');
    expect(jsErrors(page)).toEqual([]);
    await context.close();
  });
});
