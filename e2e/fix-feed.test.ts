import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FixSessionConfig } from '../apps/server/src/fix-config.ts';
import { startWalkingProvider, type WalkingProvider } from '../apps/server/src/modules/market/sources/fix-walk.ts';
import { call } from '../apps/server/test/test-app.ts';
import { DESKTOP, jsErrors, newPage, PHONE, startE2E, type E2E } from './harness.ts';

const ADMIN = { email: 'admin@test.local', password: 'admin-password-1' };
const WEB = path.resolve(import.meta.dirname, '../apps/web/src');
const json = (file: string) => JSON.parse(fs.readFileSync(path.join(WEB, file), 'utf8'));
/** What the test presses and reads, from the app's own translations. */
const TEXT = Object.fromEntries(
  (['en', 'ar'] as const).map((lang) => {
    const trade = json(`features/trade/locales/${lang}.json`);
    const orders = json(`features/orders/locales/${lang}.json`);
    const shell = json(`locales/${lang}.json`);
    return [
      lang,
      {
        buy: trade.buy as string,
        confirmTitle: trade.confirm_title as string,
        confirmOrder: trade.confirm_order as string,
        placed: shell.messages.order_confirmed as string,
        close: orders.close_position as string,
        closeTitle: orders.close_title as string,
        confirmClose: [shell.common.confirm as string, orders.confirm_close as string],
      },
    ];
  }),
) as Record<'en' | 'ar', Record<string, string> & { confirmClose: string[] }>;

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

/**
 * Issue 33: PRICE_SOURCE=fix end to end. The server takes its prices over FIX 4.4 from two local
 * FIX simulators (the provider of `npm run fix:simulator`, quoting the seed symbols by random walk);
 * a trader buys at the market and closes the position through the web app, on a phone and a desktop,
 * in English and Arabic; staff see which provider feeds each symbol and each session's state.
 */
describe('trading on prices from a FIX provider', () => {
  let e2e: E2E;
  let dir: string;
  const providers: WalkingProvider[] = [];

  beforeAll(async () => {
    const base = {
      host: '127.0.0.1',
      senderCompId: 'TP',
      targetCompId: 'LP',
      username: 'tp',
      password: 'e2e-secret',
      heartbeatSeconds: 5,
      resetOnLogon: true,
      tls: false,
      reconnectSeconds: 0.2,
      maxReconnectSeconds: 1,
      symbols: { BTCUSDT: 'BTC/USDT', ETHUSDT: 'ETH/USDT', EURUSD: 'EUR/USD' },
    };
    const sessions: FixSessionConfig[] = [
      { ...base, name: 'lp-main', port: await freePort() },
      { ...base, name: 'lp-backup', port: await freePort() },
    ];
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fix-e2e-'));
    const file = path.join(dir, 'fix.json');
    fs.writeFileSync(file, JSON.stringify({ mode: 'failover', sessions }));
    // The backup quotes the same walk (same seed): its quotes pass the deviation filter whenever it takes over.
    e2e = await startE2E({ PRICE_SOURCE: 'fix', FIX_CONFIG: file, MARKET_ALWAYS_OPEN: '1' });
    for (const s of sessions) providers.push(await startWalkingProvider(s, e2e.server.ctx.log, 42));
    const market = e2e.server.ctx.services.market;
    const btc = market.symbolByCode('BTCUSDT')!;
    const deadline = Date.now() + 20_000;
    while (!market.isOpen(btc.id)) {
      if (Date.now() > deadline) throw new Error('BTCUSDT got no live FIX quote');
      await new Promise((r) => setTimeout(r, 50));
    }
  });
  afterAll(async () => {
    for (const p of providers) p.stop();
    await e2e?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  async function demoPage(device: typeof PHONE | typeof DESKTOP, lang: 'en' | 'ar') {
    const demo = await call(e2e.server, 'GET', '/api/user/createAccountDemoForU');
    const login = await call(e2e.server, 'POST', '/api/user/loginForU', { demo_id: demo.data.demo_id });
    expect(login.code).toBe(1);
    const session = JSON.stringify({ state: { token: login.data.token, user: login.data.user }, version: 0 });
    const { context, page } = await newPage(e2e, device, { lang });
    await context.addInitScript((value) => localStorage.setItem('session', value), session);
    return { context, page, token: login.data.token as string };
  }
  const openPositions = async (token: string) =>
    (await call(e2e.server, 'GET', '/v1/api/forex/my_deal', { status: 1, limit: 100 }, { token })).data.data as Array<{
      Id: number;
      Price: string;
    }>;
  const closedPositions = async (token: string) =>
    (await call(e2e.server, 'GET', '/v1/api/forex/my_deal', { status: 3, limit: 100 }, { token })).data.data as Array<{ Id: number }>;

  it.each([
    { device: PHONE, size: 'phone', lang: 'en' as const },
    { device: PHONE, size: 'phone', lang: 'ar' as const },
    { device: DESKTOP, size: 'desktop', lang: 'en' as const },
    { device: DESKTOP, size: 'desktop', lang: 'ar' as const },
  ])('buys BTC/USDT at the market and closes it on FIX prices ($size, $lang)', async ({ device, size, lang }) => {
    const text = TEXT[lang];
    const { context, page, token } = await demoPage(device, lang);
    await page.goto('/trade?symbol=BTCUSDT');
    if (lang === 'ar') await expect.poll(() => page.evaluate(() => document.documentElement.dir)).toBe('rtl');
    // The price on the buy button moves with the provider's quotes.
    const buyPrice = page.getByTestId('buy-price');
    await expect.poll(() => buyPrice.textContent(), { timeout: 15_000 }).toMatch(/\d/);
    const first = await buyPrice.textContent();
    await expect.poll(() => buyPrice.textContent(), { timeout: 15_000 }).not.toBe(first);

    await page.getByRole('button', { name: text.buy, exact: true }).click();
    const sheet = page.getByRole('dialog', { name: text.confirmTitle });
    await sheet.waitFor();
    await sheet.getByRole('button', { name: text.confirmOrder }).click();
    await page.getByText(text.placed).first().waitFor();
    await expect.poll(async () => (await openPositions(token)).length, { timeout: 10_000 }).toBe(1);
    const [held] = await openPositions(token);
    // Filled at the FIX quote's ask (marked up), a price of the walk's range around BTC's base price.
    expect(Number(held!.Price)).toBeGreaterThan(1000);
    await page.screenshot({ path: `/tmp/i33-fix-trade-${size}-${lang}.png` });

    await page.getByRole('button', { name: text.close, exact: true }).first().click();
    const dialog = page.getByRole('dialog', { name: text.closeTitle });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: new RegExp(`^(${text.confirmClose.join('|')})$`) }).click();
    await expect.poll(async () => (await openPositions(token)).length, { timeout: 10_000 }).toBe(0);
    expect((await closedPositions(token)).map((o) => o.Id)).toContain(held!.Id);
    expect(jsErrors(page)).toEqual([]);
    await context.close();
  });

  it('shows staff which provider feeds each symbol and the state of each FIX session', async () => {
    const { context, page: admin } = await newPage(e2e, DESKTOP, { lang: 'en' });
    await admin.goto('/admin');
    await admin.getByLabel('Email').fill(ADMIN.email);
    await admin.getByLabel('Password').fill(ADMIN.password);
    await admin.getByRole('button', { name: 'Sign in' }).click();
    await admin.getByRole('heading', { name: 'Dashboard' }).waitFor();
    await admin.getByRole('navigation', { name: 'Back office menu' }).getByRole('link', { name: 'Trading' }).click();
    const feeds = admin.getByRole('table', { name: 'Price feeds' });
    const row = (table: typeof feeds, name: string) =>
      table.getByRole('row').filter({ has: admin.getByRole('cell', { name, exact: true }) });
    await expect.poll(() => row(feeds, 'BTCUSDT').getByRole('cell').nth(4).textContent(), { timeout: 10_000 }).toBe('lp-main');
    const sessions = admin.getByRole('table', { name: 'FIX sessions' });
    await sessions.waitFor();
    await admin.getByText('Routing: failover').waitFor();
    expect(await row(sessions, 'lp-main (primary)').getByRole('cell').nth(1).textContent()).toBe('Logged on');
    expect(await row(sessions, 'lp-backup').getByRole('cell').nth(1).textContent()).toBe('Logged on');

    // The primary goes away: the backup feeds the symbols, and the view says so.
    providers[0]!.stop();
    await expect.poll(() => row(feeds, 'BTCUSDT').getByRole('cell').nth(4).textContent(), { timeout: 15_000 }).toBe('lp-backup');
    await expect
      .poll(() => row(sessions, 'lp-main (primary)').getByRole('cell').nth(1).textContent(), { timeout: 10_000 })
      .toBe('Logged off');
    await sessions.scrollIntoViewIfNeeded();
    await admin.screenshot({ path: '/tmp/i33-admin-fix-feed-desktop-en.png' });
    expect(jsErrors(admin)).toEqual([]);
    await context.close();
  });
});
