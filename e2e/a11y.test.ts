import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../apps/server/test/test-app.ts';
import { liveQuotes, tick as kitTick } from '../apps/server/test/trading/test-kit.ts';
import { depositNetworks, news, withdrawCurrencies } from '../apps/server/src/platform/db/schema.ts';
import { newUser, uploaded } from '../apps/server/src/modules/funding/test-helpers.ts';
import { ADMIN_ROUTES as ADMIN_SCREENS } from '../apps/web/src/features/admin/routes.ts';
import { DESKTOP, newPage, PHONE, startE2E, type E2E } from './harness.ts';

const AXE_SOURCE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core'), 'utf8');
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/**
 * Every screen axe-core checks. A new screen is covered by adding it here. `admin` screens are opened
 * signed in as staff; `prices` screens are measured again on the flash a tick leaves under a price.
 * `$NEWS` stands for the seeded news item's id.
 */
type Route = { path: string; signedIn: boolean; admin?: boolean; prices?: boolean };
const TRADER_ROUTES: Route[] = [
  { path: '/', signedIn: true, prices: true },
  { path: '/trade?symbol=BTCUSDT', signedIn: true, prices: true },
  { path: '/login', signedIn: false, prices: true },
  { path: '/order', signedIn: true, prices: true },
  { path: '/news', signedIn: true, prices: true },
  { path: '/rank', signedIn: true, prices: true },
  { path: '/rank/copies', signedIn: true },
  { path: '/mine', signedIn: true, prices: true },
  { path: '/mine/history', signedIn: true, prices: true },
  { path: '/mine/api-keys', signedIn: true, prices: true },
  { path: '/register', signedIn: false, prices: true },
  { path: '/product', signedIn: true, prices: true },
  { path: '/user', signedIn: true },
  { path: '/news/detail?id=$NEWS', signedIn: true },
  { path: '/feedback', signedIn: true },
  { path: '/forgot', signedIn: false },
  { path: '/language', signedIn: true },
  { path: '/mine/statements', signedIn: true },
  { path: '/mine/statements/print', signedIn: true },
  { path: '/mine/charge', signedIn: true },
  { path: '/mine/withdraw', signedIn: true },
  { path: '/mine/withdraw-way', signedIn: true },
  { path: '/mine/wallet', signedIn: true },
  { path: '/mine/bank-card-list', signedIn: true },
  { path: '/mine/coin-address-list', signedIn: true },
  { path: '/mine/auth', signedIn: true },
  { path: '/mine/invite', signedIn: true },
  { path: '/mine/partner', signedIn: true },
  { path: '/mine/password', signedIn: true },
  { path: '/mine/two-factor', signedIn: true },
  { path: '/mine/email', signedIn: true },
  { path: '/mine/announcement', signedIn: true },
  { path: '/mine/notifications', signedIn: true },
  { path: '/mine/system', signedIn: true },
  { path: '/mine/chat', signedIn: true },
  { path: '/no-such-page', signedIn: true },
];
const ADMIN_ROUTES: Route[] = ADMIN_SCREENS.map((screen) => ({ path: `/admin/${screen.path}`, signedIn: true, admin: true }));
const ROUTES = [...TRADER_ROUTES, ...ADMIN_ROUTES];
const DEVICES = [
  { name: 'phone', device: PHONE },
  { name: 'desktop', device: DESKTOP },
] as const;
const LANGS = ['en', 'ar'] as const;

interface Finding {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[]; failureSummary?: string }[];
}

/** axe-core on the page as it is now; `include` narrows it to some elements and `rules` to some rules. */
async function axe(page: Page, opts: { selector?: string; rules?: string[] } = {}): Promise<Finding[]> {
  // The app's Content-Security-Policy blocks an inline script tag; evaluating the source is not blocked.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  return page.evaluate(
    async ({ tags, selector, rules }) => {
      const w = window as unknown as { axe: { run: (ctx: unknown, options: unknown) => Promise<{ violations: Finding[] }> } };
      // WCAG 2.5.3 (label in name) is an experimental rule in axe-core: it is asked for by name.
      const options = rules
        ? { runOnly: { type: 'rule', values: rules } }
        : { runOnly: { type: 'tag', values: tags }, rules: { 'label-content-name-mismatch': { enabled: true } } };
      const result = await w.axe.run(selector ? { include: [[selector]] } : document, options);
      return result.violations.map((v) => ({
        id: v.id,
        impact: v.impact,
        help: v.help,
        nodes: v.nodes.map((n) => ({ target: n.target, failureSummary: n.failureSummary })),
      }));
    },
    { tags: TAGS, selector: opts.selector, rules: opts.rules },
  );
}

const serious = (found: Finding[]) => found.filter((v) => v.impact === 'serious' || v.impact === 'critical');
const describeFindings = (found: Finding[]) =>
  found
    .flatMap((v) =>
      v.nodes.map((n) => `${v.impact} ${v.id} ${JSON.stringify(n.target)}: ${(n.failureSummary ?? v.help).replace(/\s+/g, ' ')}`),
    )
    .join('\n');

/**
 * Issue 36 (WCAG 2.2 AA): axe-core finds nothing serious or critical on any listed screen, at phone
 * and desktop size, in English and Arabic, signed in with an open position and a pending order on
 * the page. Prices come only from ticks the test publishes, so colours are measured settled, and
 * again on the green and red flash a tick leaves under a price.
 */
describe('accessibility (axe-core, WCAG 2.2 AA)', () => {
  let e2e: E2E;
  let token: string;
  let user: unknown;
  // The back office is used on a phone too.
  const ADMIN_ON_PHONE = true;
  const tick = (code: string, bid: string, ask: string) => kitTick(e2e.server, code, bid, ask);

  let newsId = 0;
  /** One browser context per size × language, reused across the routes (signed in as the trader, and as staff once a back-office route is reached). */
  const contexts = new Map<string, { context: BrowserContext; page: Page; staff: boolean }>();

  beforeAll(async () => {
    e2e = await startE2E();
    for (const task of e2e.server.ctx.background.filter((t) => t.name.startsWith('price-source'))) await task.stop();
    await liveQuotes(e2e.server);
    await tick('BTCUSDT', '95000.00', '95020.00');
    const btcId = e2e.server.ctx.services.market.symbolByCode('BTCUSDT')!.id;
    const db = e2e.server.ctx.db;
    // A real, verified trader with money on the account.
    const made = await newUser(e2e.server, { verified: true, balance: '50000' });
    token = made.token;
    const en = { lang: 'en' };
    user = (await call(e2e.server, 'GET', '/api/user/info', {}, { token, ...en })).data;
    const submit = (params: Record<string, unknown>) =>
      call(e2e.server, 'GET', '/v1/api/forex/submit', { forex_id: btcId, multiple: 2, ...params }, { token });
    // Open positions, a pending order and a closed trade in the history.
    expect((await submit({ type: 1, cont: '0.10', status: 1, target_profit_price: '99000', stop_loss_price: '90000' })).code).toBe(1);
    expect((await submit({ type: 2, cont: '0.05', status: 1 })).code).toBe(1);
    expect((await submit({ type: 1, cont: '0.02', status: 0, target_price: '94800' })).code).toBe(1);
    const closing = await submit({ type: 1, cont: '0.03', status: 1 });
    expect(closing.code).toBe(1);
    await tick('BTCUSDT', '95050.00', '95070.00');
    expect((await call(e2e.server, 'GET', '/v1/api/forex/close', { id: closing.data.Id ?? closing.data.id }, { token })).code).toBe(1);
    expect(
      (await call(e2e.server, 'GET', '/v1/api/forex/alert/add', { forex_id: btcId, price: '99500', side: 'bid' }, { token })).code,
    ).toBe(1);
    // News to read.
    const [article] = await db
      .insert(news)
      .values({ title: 'Markets open higher on rate hopes', content: '<p>Stocks rose in early trading.</p>' })
      .returning();
    await db.insert(news).values({ title: 'Bitcoin holds above 95,000', content: '<p>Crypto steady.</p>' });
    newsId = article!.id;
    // A deposit (approved, so a notification) and a withdrawal under review.
    const staffLogin = await call(e2e.server, 'POST', '/api/admin/login', { email: 'admin@test.local', password: 'admin-password-1' });
    expect(staffLogin.code).toBe(1);
    const admin = { token: staffLogin.data.token as string, ...en };
    const usdtTrc20 = (await db.select().from(depositNetworks)).find((n) => n.currencyCode === 'USDT' && n.protocolCode === 'TRC20')!.id;
    const usdtWithdraw = (await db.select().from(withdrawCurrencies)).find((c) => c.code === 'USDT' && c.protocol === 'TRC20')!.id;
    for (const number of ['250', '120']) {
      const dep = await call(
        e2e.server,
        'POST',
        '/api/quickCharge/submit',
        { number, proofImg: await uploaded(e2e.server, made.id), charge_id: usdtTrc20 },
        { token, ...en },
      );
      expect(dep.code).toBe(1);
      if (number === '250')
        expect((await call(e2e.server, 'POST', '/api/admin/deposits/approve', { id: dep.data.id, amount: number }, admin)).code).toBe(1);
    }
    const bound = await call(
      e2e.server,
      'POST',
      '/api/wallet/bind_draw_method',
      { type: 1, draw_id: usdtWithdraw, dc_address: 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE' },
      { token },
    );
    expect(bound.code).toBe(1);
    const drawn = await call(
      e2e.server,
      'POST',
      '/api/account/draw',
      { draw_currency_id: usdtWithdraw, number: '100', draw_method_id: bound.data.id },
      { token, ...en },
    );
    expect(drawn.code).toBe(1);
    // A support conversation with text and an image both ways (the reply is also a notification).
    expect((await call(e2e.server, 'POST', '/api/support/send', { body: 'Hello, my deposit has not arrived' }, { token })).code).toBe(1);
    expect((await call(e2e.server, 'POST', '/api/support/send', { image_url: await uploaded(e2e.server, made.id) }, { token })).code).toBe(
      1,
    );
    expect(
      (await call(e2e.server, 'POST', '/api/admin/support/send', { user_id: made.id, body: 'We are checking your deposit now.' }, admin))
        .code,
    ).toBe(1);
  });
  afterAll(async () => {
    for (const { context } of contexts.values()) await context.close();
    await e2e?.close();
  });

  /** The page of this size × language, signed in as the trader (and as staff when asked). */
  async function pageFor(key: string, device: typeof PHONE | typeof DESKTOP, lang: string, staff: boolean): Promise<Page> {
    let entry = contexts.get(key);
    if (!entry) {
      const { context, page } = await newPage(e2e, device, { lang });
      const session = JSON.stringify({ state: { token, user }, version: 0 });
      if (!key.endsWith('-guest'))
        await context.addInitScript((value) => {
          if (!sessionStorage.getItem('a11y-session-set')) {
            localStorage.setItem('session', value);
            sessionStorage.setItem('a11y-session-set', '1');
          }
        }, session);
      entry = { context, page, staff: false };
      contexts.set(key, entry);
    }
    if (staff && !entry.staff) {
      const { page } = entry;
      await page.goto('/admin');
      await page.locator('input[type=email], input[name=email]').first().fill('admin@test.local');
      await page.locator('input[type=password]').first().fill('admin-password-1');
      await page.locator('button[type=submit]').first().click();
      await page.locator('h1').first().waitFor();
      await page.waitForLoadState('networkidle');
      entry.staff = true;
    }
    return entry.page;
  }

  // Grouped by size × language, so each context is made once and reused across the routes.
  const cases = DEVICES.flatMap((d) =>
    LANGS.flatMap((lang) => ROUTES.map((route) => ({ ...route, size: d.name, device: d.device, lang }))),
  ).filter((c) => !c.admin || c.size === 'desktop' || ADMIN_ON_PHONE);

  it.each(cases)(
    '$path at $size size in $lang has no serious or critical finding, one h1 and headings in order',
    async ({ path, signedIn, admin, prices, size, device, lang }) => {
      const page = await pageFor(`${size}-${lang}${signedIn ? '' : '-guest'}`, device, lang, !!admin);
      {
        await page.goto(path.replace('$NEWS', String(newsId)));
        await page.waitForLoadState('networkidle');
        // Lists and prices load over the network: give the data a moment to be drawn.
        await page.waitForTimeout(800);
        const settled = serious(await axe(page));
        // Headings a screen reader navigates by: one top-level heading, no level skipped (best-practice rules, asked for by name).
        const headings = await axe(page, { rules: ['page-has-heading-one', 'heading-order'] });

        // A tick up and one down: freeze each flash colour where it is drawn, then measure it.
        const flashes: Finding[] = [];
        for (const [bid, ask] of !prices
          ? []
          : ([
              ['95100.00', '95120.00'],
              ['94900.00', '94920.00'],
            ] as const)) {
          await tick('BTCUSDT', bid, ask);
          const frozen = await page
            .waitForFunction(() => document.querySelectorAll('.flash-up, .flash-down').length > 0, undefined, { timeout: 1500 })
            .then(() =>
              page.evaluate(() => {
                const cells = [...document.querySelectorAll<HTMLElement>('.flash-up, .flash-down')];
                for (const cell of cells) {
                  cell.style.backgroundColor = getComputedStyle(cell).backgroundColor;
                  cell.setAttribute('data-a11y-flash', '');
                }
                return cells.length;
              }),
            )
            .catch(() => 0);
          if (frozen) {
            flashes.push(...serious(await axe(page, { selector: '[data-a11y-flash]', rules: ['color-contrast'] })));
            await page.evaluate(() => {
              for (const cell of document.querySelectorAll<HTMLElement>('[data-a11y-flash]')) {
                cell.style.backgroundColor = '';
                cell.removeAttribute('data-a11y-flash');
              }
            });
          }
        }
        const all = [...settled, ...flashes, ...headings];
        expect(all, describeFindings(all)).toEqual([]);
      }
    },
  );
});
