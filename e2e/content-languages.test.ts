import { eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OrderStatus } from '@tp/contract/constants';
import { news, orders, symbols } from '../apps/server/src/platform/db/schema.ts';
import { seedNews, seedNewsTexts, seedSettings } from '../apps/server/src/platform/db/seed-data.ts';
import { signedInPage } from './account-helpers.ts';
import { DESKTOP, jsErrors, newPage, PHONE, startE2E, type E2E } from './harness.ts';

const SHOTS = process.env.E2E_SCREENSHOTS === '1';
const shot = (page: Page, name: string) => (SHOTS ? page.screenshot({ path: `/tmp/h4-${name}.png`, fullPage: false }) : Promise.resolve());
const DEVICES = [
  ['phone', PHONE],
  ['desktop', DESKTOP],
] as const;

/** Issue 21, "Content in every language": news in the reader's language, no raw codes, one product name. */
describe('content in every language', () => {
  let e2e: E2E;
  beforeAll(async () => {
    e2e = await startE2E({ MARKET_ALWAYS_OPEN: '1', ADMIN_EMAIL: 'admin@test.local', ADMIN_PASSWORD: 'admin-password-1' });
  });
  afterAll(async () => e2e?.close());

  for (const lang of ['ar', 'hk'] as const) {
    for (const [device, size] of DEVICES) {
      it(`shows the seeded news translated in ${lang} on the ${device}`, async () => {
        const { context, page } = await newPage(e2e, size, { lang });
        const newest = seedNewsTexts[lang].at(-1)!;
        await page.goto('/news');
        await page.getByText(newest.title).first().waitFor();
        await page.getByText(newest.desc).first().waitFor();
        // No English title of a seeded item is left in the list.
        const text = (await page.locator('main').textContent()) ?? '';
        for (const n of seedNews) expect(text).not.toContain(n.title);
        await shot(page, `news-${lang}-${device}`);
        await page.getByText(newest.title).first().click();
        await page.waitForURL(/\/news\/detail\?id=\d+/);
        await page.getByRole('heading', { name: newest.title }).first().waitFor();
        // The body's own headings and list, in the reader's language.
        await page
          .getByRole('heading', { name: /USDC|入金|الإيداع/ })
          .first()
          .waitFor();
        expect(await page.locator('main').textContent()).not.toContain('Deposit options');
        await shot(page, `news-detail-${lang}-${device}`);
        expect(jsErrors(page)).toEqual([]);
        await context.close();
      });
    }
  }

  it('serves a language staff left empty in English', async () => {
    const [first] = await e2e.server.ctx.db
      .select()
      .from(news)
      .where(eq(news.logo, seedNews.at(-1)!.logo));
    const res = await e2e.server.app.inject({
      method: 'POST',
      url: '/api/admin/news/save',
      headers: { authorization: await staffToken() },
      payload: {
        id: first!.id,
        title: first!.title,
        desc: first!.desc,
        content: first!.content,
        translations: { hk: seedNewsTexts.hk.at(-1) },
      },
    });
    expect(res.json()).toMatchObject({ code: 1 });
    const { context, page } = await newPage(e2e, PHONE, { lang: 'ar' });
    await page.goto('/news');
    await page.getByText(first!.title).first().waitFor();
    await context.close();
  });

  async function staffToken() {
    const { staff } = await import('../apps/server/src/platform/db/schema.ts');
    const [row] = await e2e.server.ctx.db
      .insert(staff)
      .values({ email: `content${Date.now()}@staff.test`, name: 'Content', passwordHash: 'x', roles: ['content'] })
      .returning();
    return e2e.server.ctx.services.sessions.create({ staffId: row!.id });
  }

  const adminPage = async (size: typeof PHONE | typeof DESKTOP) => {
    const { context, page } = await newPage(e2e, size, { lang: 'en' });
    await page.goto('/admin');
    await page.getByLabel('Email').fill('admin@test.local');
    await page.getByLabel('Password').fill('admin-password-1');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    return { context, page };
  };

  it('lets staff write the announcement notice per language; an emptied language shows English', async () => {
    const { context, page } = await adminPage(DESKTOP);
    await page.goto('/admin/content');
    const notice = page.getByRole('group', { name: 'Announcement notice' });
    await notice.getByRole('tab', { name: /العربية/ }).click();
    const arabic = notice.getByLabel('Announcement notice · العربية');
    expect(await arabic.inputValue()).toBe(seedSettings.announcement_ar);
    await notice.getByText(seedSettings.announcement!).waitFor();
    await shot(page, 'admin-announcement-ar-desktop');
    await arabic.fill('');
    await page.getByRole('button', { name: 'Save' }).first().click();
    const served = async (lang: string) =>
      (await e2e.server.app.inject({ method: 'GET', url: '/api/announcement', headers: { lang } })).json().data.notice as string;
    await expect.poll(() => served('ar')).toBe(seedSettings.announcement);
    expect(await served('hk')).toBe(seedSettings.announcement_hk);
    const { context: reader, page: trader } = await newPage(e2e, PHONE, { lang: 'hk' });
    await trader.goto('/mine/announcement');
    await trader.getByText(seedSettings.announcement_hk!).waitFor();
    await shot(trader, 'announcement-hk-phone');
    await reader.close();
    expect(jsErrors(page)).toEqual([]);
    await context.close();
  });

  for (const [device, size] of DEVICES) {
    it(`lets staff edit a news item language by language beside the English reference (${device})`, async () => {
      const { context, page } = await adminPage(size);
      await page.goto('/admin/news');
      const english = seedNews[1]!;
      await page.getByRole('button', { name: `Edit ${english.title}` }).click();
      const tabs = page.getByRole('tablist', { name: 'Languages' });
      await tabs.getByRole('tab', { name: /English/ }).waitFor();
      expect(await tabs.getByRole('tab').count()).toBe(18);
      expect(await page.getByLabel('Title · English').inputValue()).toBe(english.title);
      await tabs.getByRole('tab', { name: /العربية/ }).click();
      expect(await page.getByLabel('Title · العربية').inputValue()).toBe(seedNewsTexts.ar[1]!.title);
      // The English text stays in view as the reference.
      await page.getByRole('complementary', { name: 'English (reference)' }).getByText(english.title).waitFor();
      await shot(page, `admin-news-ar-${device}`);
      await tabs.getByRole('tab', { name: /日本語/ }).click();
      await page.getByLabel('Title · 日本語').fill(`証拠金の基本 ${device}`);
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByRole('button', { name: `Edit ${english.title}` }).waitFor();
      const [row] = await e2e.server.ctx.db.select().from(news).where(eq(news.logo, english.logo!));
      const served = await e2e.server.app.inject({ method: 'GET', url: `/api/news/info?id=${row!.id}`, headers: { lang: 'jp' } });
      expect(served.json().data).toMatchObject({ title: `証拠金の基本 ${device}`, content: seedNewsTexts.jp[1]!.content });
      const arabic = await e2e.server.app.inject({ method: 'GET', url: `/api/news/info?id=${row!.id}`, headers: { lang: 'ar' } });
      expect(arabic.json().data.title).toBe(seedNewsTexts.ar[1]!.title);
      expect(jsErrors(page)).toEqual([]);
      await context.close();
    });
  }

  for (const [device, size] of DEVICES) {
    it(`shows cancelled orders in hk History with a translated reason and nothing charged (${device})`, async () => {
      const { context, page, user } = await signedInPage(e2e, { device: size, lang: 'hk', balance: '1000' });
      const [eurusd] = await e2e.server.ctx.db.select().from(symbols).where(eq(symbols.code, 'EURUSD'));
      const cancelled = (cancelReason: string, minutesAgo: number) => ({
        userId: user.id,
        symbolId: eurusd!.id,
        isDemo: false,
        orderType: 1,
        status: OrderStatus.CANCELLED,
        quantity: '0.10',
        leverage: 100,
        contractSize: '100000',
        originPrice: '1.05000',
        pendingKind: 'limit',
        margin: '108.50',
        fee: '0.30',
        cancelReason,
        openedAt: new Date(Date.now() - minutesAgo * 60_000 - 60_000),
        completedAt: new Date(Date.now() - minutesAgo * 60_000),
      });
      await e2e.server.ctx.db.insert(orders).values([cancelled('user', 5), cancelled('expired', 3), cancelled('insufficient_margin', 1)]);
      await page.goto('/order');
      await page.getByRole('tab', { name: '歷史' }).click();
      // A phone shows cards; a desktop shows History as a table, one row per order (it has no margin column).
      const desktop = device === 'desktop';
      const items = desktop ? page.getByRole('row', { name: /EUR\/USD/ }) : page.getByRole('article');
      await expect.poll(() => items.count()).toBe(3);
      const reasons = await page.getByTestId('order-close-reason').allTextContents();
      expect(reasons.sort()).toEqual(['已撤銷 · 保證金不足', '已撤銷 · 已過期', '已撤銷 · 由您發起'].sort());
      // A cancelled pending order never opened: no margin, fee, swap or profit shown as charged.
      for (const id of desktop
        ? ['order-fee', 'order-swap', 'order-profit']
        : ['order-margin', 'order-fee', 'order-swap', 'order-profit']) {
        expect(await page.getByTestId(id).allTextContents(), id).toEqual(['--', '--', '--']);
      }
      // No English inside the translated screen (symbol codes and numbers aside).
      const panel = (await page.getByRole('tabpanel').textContent())!.replace(/EUR\/USD/g, '');
      expect(panel.match(/[A-Za-z]{2,}/g)).toBeNull();
      // Nothing on the cards is cut off (the close time used to end in "12:…" on a phone).
      const cut = await page
        .locator('article dd, article dt')
        .evaluateAll((els) => els.filter((el) => el.scrollWidth > el.clientWidth + 1).map((el) => el.textContent));
      expect(cut).toEqual([]);
      await shot(page, `history-hk-${device}`);
      expect(jsErrors(page)).toEqual([]);
      await context.close();
    });
  }

  it('preselects the first bank channel on the deposit form (hk)', async () => {
    const { context, page } = await signedInPage(e2e, { device: PHONE, lang: 'hk', verified: true });
    await page.goto('/mine/charge');
    await page.getByRole('tab', { name: '銀行轉帳' }).click();
    const channels = page.getByRole('radiogroup', { name: '收款銀行帳戶' });
    await expect.poll(() => channels.getByRole('radio', { checked: true }).count()).toBe(1);
    await page.getByText('HCBLHKHX').waitFor();
    expect(await page.getByText('No payment channel').count()).toBe(0);
    await shot(page, 'deposit-bank-hk-phone');
    await context.close();
  });

  for (const [device, size] of DEVICES) {
    it(`shows the whole Arabic "24h change" label on the quote header (${device})`, async () => {
      const { context, page } = await newPage(e2e, size, { lang: 'ar' });
      await page.goto('/trade?symbol=EURUSD');
      const label = page.getByText('التغير خلال 24 ساعة', { exact: true }).first();
      await label.waitFor();
      const cut = await label.evaluate((el) => el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1);
      expect(cut).toBe(false);
      await shot(page, `quote-header-ar-${device}`);
      await context.close();
    });
  }

  it('names the product TradePlatform in the page title, the app and the manifest', async () => {
    const { context, page } = await newPage(e2e, DESKTOP, { lang: 'en' });
    await page.goto('/');
    expect(await page.title()).toContain('TradePlatform');
    const manifest = (await (await fetch(`${e2e.baseUrl}/manifest.webmanifest`)).json()) as { name: string };
    expect(manifest.name).toContain('TradePlatform');
    await context.close();
  });
});
