import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../apps/server/test/test-app.ts';
import { callFrom, randomIp } from '../apps/server/test/auth-helpers.ts';
import { liveQuotes, symbolId, tick } from '../apps/server/test/trading/test-kit.ts';
import { hashPassword } from '../apps/server/src/modules/auth/password.ts';
import { newUser } from '../apps/server/src/modules/funding/test-helpers.ts';
import { hedgeOrders, hedgePositions, staff } from '../apps/server/src/platform/db/schema.ts';
import { DESKTOP, jsErrors, newPage, startE2E, type E2E } from './harness.ts';
import { pageFitsWidth, seriousAxeFindings } from './axe.ts';

const TEXT = {
  en: { menu: 'Back office menu', desk: "Dealer's desk", bySymbol: 'By symbol', demo: 'Demo accounts', empty: 'No open client positions' },
  ar: {
    menu: 'قائمة لوحة الإدارة',
    desk: 'مكتب المتداول',
    bySymbol: 'حسب الرمز',
    demo: 'الحسابات التجريبية',
    empty: 'لا توجد مراكز مفتوحة للعملاء',
  },
} as const;

describe("back office: the dealer's desk", () => {
  let e2e: E2E;
  let staffCount = 0;
  let trader = '';
  beforeAll(async () => {
    // Forex positions are opened: the market is open whatever the day the suite runs (it closes Friday evening).
    e2e = await startE2E({ MARKET_ALWAYS_OPEN: '1' });
    // Prices move only when the test moves them.
    for (const task of e2e.server.ctx.background.filter((t) => t.name.startsWith('price-source'))) await task.stop();
    await liveQuotes(e2e.server);
    await tick(e2e.server, 'BTCUSDT', '95000.00', '95020.00');
    trader = (await newUser(e2e.server, { verified: true, balance: '500000' })).token;
  });
  afterAll(async () => e2e?.close());

  const open = async (code: string, type: number, cont: string) => {
    const res = await call(
      e2e.server,
      'GET',
      '/v1/api/forex/submit',
      { forex_id: symbolId(e2e.server, code), type, cont, multiple: 10 },
      { token: trader },
    );
    expect(res.code).toBe(1);
  };

  const staffTab = async (roles: string[], lang: 'en' | 'ar') => {
    const email = `desk-${roles.join('-')}-${++staffCount}@test.local`;
    await e2e.server.ctx.db
      .insert(staff)
      .values({ email, name: `Desk ${roles.join('+')}`, passwordHash: await hashPassword('staff-password-1'), roles });
    const res = await callFrom(e2e.server, randomIp(), 'POST', '/api/admin/login', { email, password: 'staff-password-1' });
    expect(res.code).toBe(1);
    const session = JSON.stringify({ state: { token: res.data.token, staff: res.data.staff }, version: 0 });
    const opened = await newPage(e2e, DESKTOP, { lang });
    await opened.context.addInitScript((value) => sessionStorage.setItem('staff_session', value), session);
    return opened;
  };

  it('shows the house book per symbol with totals, follows new positions live, and has an empty state (desktop, en and ar)', async () => {
    await open('BTCUSDT', 1, '0.10');
    await open('EURUSD', 2, '1');
    let added = 0;
    for (const lang of ['en', 'ar'] as const) {
      const text = TEXT[lang];
      const { context, page } = await staffTab(['risk'], lang);
      await page.goto('/admin/dashboard');
      await page.getByRole('navigation', { name: text.menu }).getByRole('link', { name: text.desk }).click();
      await page.waitForURL('**/admin/desk');
      await page.getByRole('heading', { level: 1, name: text.desk }).waitFor();
      const table = page.getByRole('table', { name: text.bySymbol });
      await table.getByRole('cell', { name: 'BTC/USDT' }).waitFor();
      await table.getByRole('cell', { name: 'EUR/USD', exact: true }).waitFor();
      expect(await page.evaluate(() => document.documentElement.dir)).toBe(lang === 'ar' ? 'rtl' : 'ltr');
      expect(await seriousAxeFindings(page)).toEqual([]);
      expect(await pageFitsWidth(page)).toBe(true);

      // A position on a symbol not in the table yet appears without a reload or a new request (the DESK push).
      let fetched = 0;
      page.on('request', (r) => void (r.url().includes('/api/admin/desk/exposure') && fetched++));
      const code = ['USDJPY', 'EURGBP'][added++]!;
      await open(code, 1, '0.5');
      await table.getByRole('cell', { name: code === 'USDJPY' ? 'USD/JPY' : 'EUR/GBP' }).waitFor({ timeout: 5_000 });
      const rows = await table.getByRole('row').count();
      expect(rows).toBe(1 + 2 + added);
      expect(fetched).toBe(0);
      if (process.env.E2E_SCREENSHOTS === '1') await page.screenshot({ path: `/tmp/desk-${lang}.png`, fullPage: true });

      // No demo positions: the demo tab says so.
      await page.getByRole('tab', { name: text.demo }).click();
      await page.getByText(text.empty).waitFor();
      expect(await seriousAxeFindings(page)).toEqual([]);
      expect(jsErrors(page)).toEqual([]);
      await context.close();
    }
  });

  const CLIENTS = {
    en: {
      clients: 'Clients',
      largest: 'Largest positions',
      limits: 'Limits',
      book: 'Book',
      symbol: 'Symbol',
      max: 'Max net lots',
      set: 'Set limit',
      alert: 'Net exposure passes its limit: EUR/USD',
      remove: 'Remove the limit of EUR/USD',
      group: 'Group',
      groupAlert: 'Net exposure passes its limit: EUR/USD (Standard)',
      removeGroup: 'Remove the limit of EUR/USD (Standard)',
      byGroup: 'By group',
    },
    ar: {
      clients: 'العملاء',
      largest: 'أكبر المراكز',
      limits: 'الحدود',
      book: 'الدفتر',
      symbol: 'الرمز',
      max: 'الحد الأقصى لصافي اللوتات',
      set: 'تعيين الحد',
      alert: 'صافي التعرض يتجاوز حده: EUR/USD',
      remove: 'إزالة حد EUR/USD',
      group: 'المجموعة',
      groupAlert: 'صافي التعرض يتجاوز حده: EUR/USD (Standard)',
      removeGroup: 'إزالة حد EUR/USD (Standard)',
      byGroup: 'حسب المجموعة',
    },
  } as const;

  it('names the clients who move the book, and flags a symbol past the limit staff set (desktop, en and ar)', async () => {
    for (const lang of ['en', 'ar'] as const) {
      const text = CLIENTS[lang];
      const { context, page } = await staffTab(['risk'], lang);
      await page.goto('/admin/desk');
      await page.getByRole('tab', { name: text.clients }).click();
      const largest = page.getByRole('table', { name: text.largest });
      await largest.getByRole('cell', { name: 'BTC/USDT' }).waitFor();
      expect(await seriousAxeFindings(page)).toEqual([]);
      expect(await pageFitsWidth(page)).toBe(true);
      if (process.env.E2E_SCREENSHOTS === '1') await page.screenshot({ path: `/tmp/desk-clients-${lang}.png`, fullPage: true });

      // A limit below the clients' net lots in EUR/USD (one lot short): the desk says so on every view.
      await page.getByRole('tab', { name: text.limits }).click();
      await page.getByLabel(text.symbol).selectOption({ label: 'EUR/USD' });
      await page.getByLabel(text.max).fill('0.5');
      await page.getByRole('button', { name: text.set }).click();
      await page.getByRole('table', { name: text.limits }).getByRole('cell', { name: 'EUR/USD', exact: true }).waitFor();
      await page.getByRole('tab', { name: text.book }).click();
      await page.getByRole('alert').filter({ hasText: text.alert }).waitFor();
      expect(await seriousAxeFindings(page)).toEqual([]);
      if (process.env.E2E_SCREENSHOTS === '1') await page.screenshot({ path: `/tmp/desk-limit-${lang}.png`, fullPage: true });

      // Removed, the alert goes with the next figures.
      await page.getByRole('tab', { name: text.limits }).click();
      await page.getByRole('button', { name: text.remove }).click();
      await page
        .getByRole('table', { name: text.limits })
        .getByRole('cell', { name: 'EUR/USD', exact: true })
        .waitFor({ state: 'detached' });
      await page.getByRole('tab', { name: text.book }).click();
      await page.getByRole('alert').filter({ hasText: text.alert }).waitFor({ state: 'detached', timeout: 10_000 });

      // A limit on one group's clients (the real accounts' default group): the alert and the group's own table name it.
      await page.getByRole('tab', { name: text.limits }).click();
      await page.getByLabel(text.symbol).selectOption({ label: 'EUR/USD' });
      await page.getByLabel(text.group).selectOption({ label: 'Standard' });
      await page.getByLabel(text.max).fill('0.5');
      await page.getByRole('button', { name: text.set }).click();
      await page.getByRole('table', { name: text.limits }).getByRole('cell', { name: 'Standard', exact: true }).waitFor();
      await page.getByRole('tab', { name: text.book }).click();
      await page.getByRole('alert').filter({ hasText: text.groupAlert }).waitFor();
      await page.getByRole('heading', { level: 2, name: text.byGroup }).waitFor();
      await page.getByRole('table', { name: 'Standard' }).getByRole('cell', { name: 'EUR/USD', exact: true }).waitFor();
      expect(await seriousAxeFindings(page)).toEqual([]);
      expect(await pageFitsWidth(page)).toBe(true);
      if (process.env.E2E_SCREENSHOTS === '1') await page.screenshot({ path: `/tmp/desk-group-${lang}.png`, fullPage: true });
      await page.getByRole('tab', { name: text.limits }).click();
      await page.getByRole('button', { name: text.removeGroup }).click();
      await page
        .getByRole('table', { name: text.limits })
        .getByRole('cell', { name: 'Standard', exact: true })
        .waitFor({ state: 'detached' });
      expect(jsErrors(page)).toEqual([]);
      await context.close();
    }
  });

  const HEDGES = {
    en: {
      tab: 'Hedges',
      bySymbol: 'By symbol',
      positions: 'Positions at providers',
      orders: 'Hedge orders',
      alert: 'Hedge mismatches in the last 24 hours: 1',
      offline: 'No FIX session is logged on',
      rejected: 'Rejected by the provider',
      filled: 'Filled',
    },
    ar: {
      tab: 'التحوط',
      bySymbol: 'حسب الرمز',
      positions: 'المراكز لدى المزوّدين',
      orders: 'أوامر التحوط',
      alert: 'حالات عدم تطابق التحوط خلال آخر 24 ساعة: 1',
      offline: 'لا توجد جلسة FIX متصلة',
      rejected: 'رفضه المزوّد',
      filled: 'منفذ',
    },
  } as const;

  it('shows the hedge book per provider and symbol, the hedge orders and a mismatch alert (desktop, en and ar)', async () => {
    // The hedge book as a FIX provider would have left it: one filled hedge, one rejected (a mismatch).
    const btc = symbolId(e2e.server, 'BTCUSDT');
    await e2e.server.ctx.db.insert(hedgePositions).values({ session: 'lp1', symbolId: btc, netUnits: '0.2' });
    await e2e.server.ctx.db.insert(hedgeOrders).values([
      {
        clOrdId: 'TP-e2e-1',
        session: 'lp1',
        symbolId: btc,
        side: 'buy',
        quantity: '0.2',
        status: 'filled',
        filledQty: '0.2',
        avgPrice: '95010',
        reason: 'hybrid',
      },
      {
        clOrdId: 'TP-e2e-2',
        session: 'lp1',
        symbolId: btc,
        side: 'sell',
        quantity: '0.1',
        status: 'rejected',
        reason: 'a_open',
        mismatch: 'rejected',
        text: 'no liquidity',
      },
    ]);
    for (const lang of ['en', 'ar'] as const) {
      const text = HEDGES[lang];
      const { context, page } = await staffTab(['risk'], lang);
      await page.goto('/admin/desk');
      // The mismatch is alerted on every view of the desk.
      await page.getByRole('alert').filter({ hasText: text.alert }).waitFor();
      await page.getByRole('tab', { name: text.tab }).click();
      await page.getByText(text.offline).waitFor();
      await page.getByRole('table', { name: text.bySymbol }).getByRole('cell', { name: '+0.20' }).first().waitFor();
      await page.getByRole('table', { name: text.positions }).getByRole('cell', { name: 'lp1' }).waitFor();
      const orders = page.getByRole('table', { name: text.orders });
      await orders.getByRole('cell', { name: text.rejected }).waitFor();
      await orders.getByRole('cell', { name: text.filled, exact: true }).waitFor();
      expect(await seriousAxeFindings(page)).toEqual([]);
      expect(await pageFitsWidth(page)).toBe(true);
      if (process.env.E2E_SCREENSHOTS === '1') await page.screenshot({ path: `/tmp/desk-hedges-${lang}.png`, fullPage: true });
      expect(jsErrors(page)).toEqual([]);
      await context.close();
    }
  });

  it('is not in the menu of support staff', async () => {
    const { context, page } = await staffTab(['support'], 'en');
    await page.goto('/admin/dashboard');
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    expect(await page.getByRole('navigation', { name: TEXT.en.menu }).getByRole('link', { name: TEXT.en.desk }).count()).toBe(0);
    await context.close();
  });
});
