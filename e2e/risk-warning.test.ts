import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../apps/server/test/test-app.ts';
import { staffSession } from '../apps/server/test/auth-helpers.ts';
import { liveQuotes, tick } from '../apps/server/test/trading/test-kit.ts';
import { signedInPage } from './account-helpers.ts';
import { pageFitsWidth, seriousAxeFindings } from './axe.ts';
import { DESKTOP, jsErrors, PHONE, startE2E, type E2E } from './harness.ts';

const POLL = { timeout: 15_000 };
const TEXT = {
  en: { start: '100.00% of retail investor accounts lose money when trading CFDs with this provider.', asOf: 'Figure as of' },
  ar: { start: 'من حسابات المستثمرين الأفراد تخسر أموالاً عند تداول عقود الفروقات مع هذا المزوّد', asOf: 'الرقم كما في' },
} as const;

/** The ESMA retail risk warning, with its computed percentage and date, on the home and trade screens of an ESMA group's members. */
describe('the risk warning of an ESMA retail group', () => {
  let e2e: E2E;
  let esma = 0;
  let risk = '';
  beforeAll(async () => {
    e2e = await startE2E();
    for (const task of e2e.server.ctx.background.filter((t) => t.name.startsWith('price-source'))) await task.stop();
    await liveQuotes(e2e.server);
    await tick(e2e.server, 'BTCUSDT', '95000.00', '95020.00');
    risk = await staffSession(e2e.server, ['risk']);
    const saved = await call(
      e2e.server,
      'POST',
      '/api/admin/groups/save',
      { name: 'EU retail', kind: 'real', profile: 'esma_retail' },
      { token: risk, json: true },
    );
    expect(saved.code, saved.msg).toBe(1);
    const list = await call(e2e.server, 'GET', '/api/admin/groups/list', {}, { token: risk });
    esma = (list.data as { id: number; name: string }[]).find((g) => g.name === 'EU retail')!.id;
  });
  afterAll(async () => e2e?.close());

  it.each([
    { device: PHONE, lang: 'en' as const, size: 'phone' },
    { device: DESKTOP, lang: 'ar' as const, size: 'desktop' },
    { device: PHONE, lang: 'ar' as const, size: 'phone' },
    { device: DESKTOP, lang: 'en' as const, size: 'desktop' },
  ])('shows the share of accounts that lost money on home and trade ($size, $lang)', async ({ device, lang, size }) => {
    const { context, page, user } = await signedInPage(e2e, { device, lang, balance: '100000', verified: true });
    expect((await call(e2e.server, 'POST', '/api/admin/users/set_group', { user_id: user.id, group_id: esma }, { token: risk })).code).toBe(
      1,
    );
    // A history: this trader loses the spread and the fee on one round trip, as every trader of this suite does.
    const btc = e2e.server.ctx.services.market.symbolByCode('BTCUSDT')!.id;
    const opened = await call(
      e2e.server,
      'GET',
      '/v1/api/forex/submit',
      { type: 1, cont: '0.01', forex_id: btc, multiple: 2 },
      { token: user.token },
    );
    expect(opened.code, opened.msg).toBe(1);
    expect((await call(e2e.server, 'GET', '/v1/api/forex/close', { id: opened.data.Id }, { token: user.token })).code).toBe(1);
    const computed = await call(e2e.server, 'POST', '/api/admin/risk_warning/compute', {}, { token: risk });
    expect(computed.data).toMatchObject({ percent: '100.00', lost: computed.data.accounts });

    await page.goto('/');
    const banner = page.getByTestId('risk-warning');
    await banner.waitFor(POLL);
    const text = (await banner.textContent()) ?? '';
    expect(text.replace(/[\u2066-\u2069]/g, '')).toContain(TEXT[lang].start);
    expect(text).toContain(TEXT[lang].asOf);
    expect(await seriousAxeFindings(page)).toEqual([]);
    expect(await pageFitsWidth(page)).toBe(true);
    if (process.env.E2E_SCREENSHOTS === '1') await page.screenshot({ path: `/tmp/risk-home-${size}-${lang}.png` });

    await page.goto('/trade');
    await banner.waitFor(POLL);
    expect(await seriousAxeFindings(page)).toEqual([]);
    expect(await pageFitsWidth(page)).toBe(true);
    if (process.env.E2E_SCREENSHOTS === '1') await page.screenshot({ path: `/tmp/risk-trade-${size}-${lang}.png` });
    expect(jsErrors(page)).toEqual([]);
    await context.close();
  });

  it('is not shown to a member of the standard group', async () => {
    const { context, page } = await signedInPage(e2e, { device: PHONE, lang: 'en', balance: '1000', verified: true });
    await page.goto('/');
    await page.getByRole('heading', { level: 1 }).first().waitFor(POLL);
    await expect.poll(() => page.getByTestId('risk-warning').count(), { timeout: 3_000 }).toBe(0);
    await context.close();
  });
});
