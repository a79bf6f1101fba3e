import fs from 'node:fs';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as endpoints from '@tp/contract/endpoints/trading';
import { call } from '../apps/server/test/test-app.ts';
import { liveQuotes, tick as kitTick } from '../apps/server/test/trading/test-kit.ts';
import { DESKTOP, jsErrors, newPage, PHONE, startE2E, type E2E } from './harness.ts';

/** Lists load over the network on a shared machine: a poll waits up to this long. */
const POLL = { timeout: 15_000 };

type Tree = Record<string, string>;
const WEB = path.resolve(import.meta.dirname, '../apps/web/src');
const readJson = (file: string) => JSON.parse(fs.readFileSync(path.join(WEB, file), 'utf8')) as Record<string, unknown>;
/** The words the screens show, from the app's own translation files. */
const words = (lang: string) => ({
  statements: readJson(`features/statements/locales/${lang}.json`) as Tree,
  orders: readJson(`features/orders/locales/${lang}.json`) as Tree,
  pages: (readJson(`locales/${lang}.json`) as { pages: Tree }).pages,
});

/**
 * Account statements (issue 21) in the built app: a position opened and closed from its card, then the
 * Statements screen reached from the account page shows it and the log, downloads it as CSV in the
 * trader's language and opens the printable page, at a phone's and a desktop's size in en, hk and ar.
 */
describe('account statements', () => {
  let e2e: E2E;
  let btcId: number;
  const shots = process.env.E2E_SHOTS_DIR ?? '/tmp/h2-statements';

  const tick = (code: string, bid: string, ask: string) => kitTick(e2e.server, code, bid, ask);
  const api = (token: string, url: string, params: Record<string, unknown> = {}) => call(e2e.server, 'GET', url, params, { token });

  async function loggedInPage(device: typeof PHONE | typeof DESKTOP, lang: string): Promise<{ context: BrowserContext; page: Page; token: string }> {
    const demo = await call(e2e.server, 'GET', '/api/user/createAccountDemoForU');
    const login = await call(e2e.server, 'POST', '/api/user/loginForU', { demo_id: demo.data.demo_id });
    expect(login.code).toBe(1);
    const session = JSON.stringify({ state: { token: login.data.token, user: login.data.user }, version: 0 });
    const { context, page } = await newPage(e2e, device, { lang });
    await context.addInitScript((value) => localStorage.setItem('session', value), session);
    // The print dialog is the browser's: counted here instead of opened.
    await context.addInitScript(() => {
      const w = window as Window & { printCalls?: number };
      w.printCalls = 0;
      w.print = () => {
        w.printCalls = (w.printCalls ?? 0) + 1;
      };
    });
    return { context, page, token: login.data.token };
  }

  beforeAll(async () => {
    fs.mkdirSync(shots, { recursive: true });
    e2e = await startE2E();
    for (const task of e2e.server.ctx.background.filter((t) => t.name.startsWith('price-source'))) await task.stop();
    await liveQuotes(e2e.server);
    btcId = e2e.server.ctx.services.market.symbolByCode('BTCUSDT')!.id;
  });
  afterAll(async () => e2e?.close());

  const cases = [
    { device: PHONE, name: 'phone', lang: 'en' },
    { device: DESKTOP, name: 'desktop', lang: 'en' },
    { device: PHONE, name: 'phone', lang: 'hk' },
    { device: DESKTOP, name: 'desktop', lang: 'hk' },
    { device: PHONE, name: 'phone', lang: 'ar' },
    { device: DESKTOP, name: 'desktop', lang: 'ar' },
  ] as const;

  it.each(cases)('closes a position and finds it in the statement, its CSV and its printable page ($name, $lang)', async ({ device, name, lang }) => {
    const w = words(lang);
    await tick('BTCUSDT', '95000.00', '95020.00');
    const { context, page, token } = await loggedInPage(device, lang);
    const opened = await api(token, endpoints.submit.path, { type: 1, cont: '0.10', forex_id: btcId, status: 1, multiple: 2 });
    expect(opened.code).toBe(1);
    const id = opened.data.Id as number;
    await tick('BTCUSDT', '95500.00', '95520.00');

    // Close it from its card (phone) or its table row (desktop, since the terminal's order tables), as a trader does.
    await page.goto('/order?type=1');
    const label = w.orders.order_label!.replace('{{symbol}}', 'BTC/USDT').replace('{{id}}', String(id));
    const card = page.getByRole(name === 'phone' ? 'article' : 'row', { name: label });
    await card.getByRole('button', { name: w.orders.close_position, exact: true }).click();
    const dialog = page.getByRole('dialog', { name: w.orders.close_title });
    await dialog.getByRole('button', { name: w.orders.confirm_close }).click();
    await dialog.waitFor({ state: 'detached' });
    const history = (await api(token, endpoints.myDeal.path, { status: 3 })).data.data as { Id: number; FactProfits: string; TradeFee: string }[];
    const closed = history.find((o) => o.Id === id)!;
    expect(closed).toBeTruthy();
    const profit = closed.FactProfits; // "48.000000"
    expect(Number(profit)).toBeGreaterThan(0);

    // The account page leads to Statements (phone and desktop alike).
    await page.goto('/user');
    await page.getByRole('link', { name: w.pages.statements, exact: true }).click();
    await page.waitForURL(/\/mine\/statements/);
    await page.getByRole('heading', { name: w.pages.statements, level: 1 }).waitFor();
    expect(await page.evaluate(() => document.documentElement.dir)).toBe(lang === 'ar' ? 'rtl' : 'ltr');
    expect(await page.getByRole('button', { name: w.statements.preset_this_month }).getAttribute('aria-pressed')).toBe('true');

    // The closed position and the log rows: cards on a phone, tables on a desktop.
    const positions = page.getByTestId(name === 'phone' ? 'statement-position-cards' : 'statement-positions-table');
    await expect.poll(() => positions.getByText('BTC/USDT').count(), POLL).toBe(1);
    const log = page.getByTestId(name === 'phone' ? 'statement-log-cards' : 'statement-log-table');
    // Initial demo balance, the opening fee and the realised profit (margin moves are not balance changes).
    const logRows = name === 'phone' ? log.getByRole('listitem') : log.locator('tbody tr');
    await expect.poll(() => logRows.count(), POLL).toBe(3);
    await expect.poll(() => log.getByText(`BTC/USDT #${id}`).count(), POLL).toBe(2);
    const totals = page.getByTestId('statement-totals');
    await totals.getByText(w.statements.total_profit!).waitFor();
    await page.screenshot({ path: `${shots}/statements-${name}-${lang}.png`, fullPage: true });

    // CSV: UTF-8 with its mark, headers in the language, the row with its exact profit.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: w.statements.download_csv }).click()]);
    expect(download.suggestedFilename()).toMatch(/^statement_\d{4}-\d{2}-01_\d{4}-\d{2}-\d{2}\.csv$/);
    const bytes = fs.readFileSync((await download.path())!);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const csv = bytes.toString('utf8').slice(1);
    const lines = csv.split('\r\n');
    const header = lines.find((l) => l.startsWith(`${w.statements.col_order},`))!;
    expect(header.split(',')).toEqual(expect.arrayContaining([w.statements.col_symbol, w.statements.col_profit, w.statements.col_lots]));
    const row = lines.find((l) => l.startsWith(`${id},`))!.split(',');
    expect(row).toEqual(expect.arrayContaining(['BTC/USDT', w.statements.buy, '0.1', profit, w.statements.closed_type_1]));
    expect(lines.some((l) => l.startsWith(`${w.statements.total_profit},${profit}`))).toBe(true);

    // The printable page: no app frame, the statement, and the print dialog asked for once.
    await page.getByRole('link', { name: w.statements.print }).click();
    await page.waitForURL(/\/mine\/statements\/print\?/);
    await page.getByRole('heading', { name: w.statements.statement_title, level: 1 }).waitFor();
    await expect.poll(() => page.evaluate(() => (window as Window & { printCalls?: number }).printCalls), POLL).toBe(1);
    expect(await page.getByRole('navigation').count()).toBe(0);
    await page.getByTestId('statement-positions-table').getByText('BTC/USDT').waitFor();
    await page.screenshot({ path: `${shots}/print-${name}-${lang}.png`, fullPage: true });
    // What paper gets, at an A4 page's width inside its margins (186 mm): no toolbar, every column on the page.
    await page.setViewportSize({ width: 703, height: 1000 });
    await page.emulateMedia({ media: 'print' });
    expect(await page.getByTestId('print-toolbar').isVisible()).toBe(false);
    for (const table of ['statement-log-table', 'statement-positions-table']) {
      const width = await page.getByTestId(table).evaluate((el) => el.getBoundingClientRect().width);
      expect(width, table).toBeLessThanOrEqual(703);
    }
    await page.screenshot({ path: `${shots}/print-media-${name}-${lang}.png`, fullPage: true });
    await page.emulateMedia({ media: 'screen' });

    expect(jsErrors(page)).toEqual([]);
    await context.close();
  });

  it.each([
    { device: PHONE, name: 'phone', lang: 'ar' },
    { device: DESKTOP, name: 'desktop', lang: 'en' },
  ] as const)('links to the statements from the account details page ($name, $lang)', async ({ device, name, lang }) => {
    const w = words(lang);
    const { context, page } = await loggedInPage(device, lang);
    await page.goto('/mine/history');
    await page.getByRole('heading', { name: w.pages.history, exact: true }).waitFor();
    const link = page.getByRole('link', { name: w.pages.statements, exact: true });
    await link.waitFor();
    await page.screenshot({ path: `${shots}/history-link-${name}-${lang}.png` });
    // Keyboard: the link is reachable and opens the statements screen.
    await link.focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/mine\/statements(\?|$)/);
    await page.getByRole('heading', { name: w.pages.statements, exact: true }).waitFor();
    await page.getByRole('button', { name: w.statements.download_csv }).waitFor(POLL);
    expect(jsErrors(page)).toEqual([]);
    await context.close();
  });

  it('refuses a reversed range on the screen, shows an empty period as empty and a failed load with a retry (desktop, en)', async () => {
    const { context, page } = await loggedInPage(DESKTOP, 'en');
    const w = words('en');
    await page.goto('/mine/statements?from=2026-11-10&to=2026-11-01');
    await page.getByRole('alert').getByText(w.statements.range_invalid!).waitFor();
    expect(await page.getByRole('button', { name: w.statements.download_csv }).isDisabled()).toBe(true);
    await page.goto('/mine/statements?from=2020-01-01&to=2020-01-31');
    await page.getByText(w.statements.positions_empty!).waitFor();
    await page.getByText(w.statements.log_empty!).waitFor();
    await page.screenshot({ path: `${shots}/statements-empty-desktop-en.png`, fullPage: true });

    // A failed load says so and offers a retry that recovers.
    const failing = `**${endpoints.statement.path}**`;
    await page.route(failing, (route) => route.abort('connectionfailed'));
    await page.goto('/mine/statements?from=2020-02-01&to=2020-02-29');
    const failed = page.getByRole('alert');
    await failed.getByRole('button', { name: 'Retry' }).waitFor(POLL);
    await page.screenshot({ path: `${shots}/statements-error-desktop-en.png` });
    await page.unroute(failing);
    await failed.getByRole('button', { name: 'Retry' }).click();
    await page.getByText(w.statements.positions_empty!).waitFor();
    expect(jsErrors(page)).toEqual([]);
    await context.close();
  });
});
