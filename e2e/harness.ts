import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { createTestApp, type TestApp } from '../apps/server/test/test-app.ts';
import { liveQuotes, tick } from '../apps/server/test/trading/test-kit.ts';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const WEB_DIST = path.resolve(import.meta.dirname, '../apps/web/dist');

export const PHONE = {
  viewport: { width: 390, height: 844 },
  userAgent:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  isMobile: true,
  hasTouch: true,
  deviceScaleFactor: 2,
};
export const DESKTOP = {
  viewport: { width: 1440, height: 900 },
  userAgent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36',
};

export interface E2E {
  server: TestApp;
  baseUrl: string;
  browser: Browser;
  close(): Promise<void>;
}

/** The real server (in-memory PGlite, built web app, simulated feed) on a free port, and Debian Chromium. */
/**
 * An E2E run whose prices move only when the test moves them: the simulated feed is stopped and every
 * symbol has a live quote; BTCUSDT is at 95,000.00 / 95,020.00 as traders see it.
 */
export async function startE2EOnTestPrices(env: Record<string, string> = {}): Promise<E2E> {
  const e2e = await startE2E(env);
  for (const task of e2e.server.ctx.background.filter((t) => t.name.startsWith('price-source'))) await task.stop();
  await liveQuotes(e2e.server);
  await tick(e2e.server, 'BTCUSDT', '95000.00', '95020.00');
  return e2e;
}

export async function startE2E(env: Record<string, string> = {}): Promise<E2E> {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM}: apt-get install -y chromium`);
  if (!fs.existsSync(path.join(WEB_DIST, 'index.html'))) throw new Error('apps/web/dist is missing: run `npm run build` first');
  const server = await createTestApp('pglite', { HISTORY_BARS: '120', ...env }, { webDist: WEB_DIST });
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  await server.startBackground();
  const address = server.app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  });
  return {
    server,
    baseUrl: `http://127.0.0.1:${port}`,
    browser,
    async close() {
      await browser.close();
      await server.close();
    },
  };
}

/** A page in a fresh browser context; `lang` is the stored language choice at the first visit. */
export async function newPage(
  e2e: E2E,
  device: typeof PHONE | typeof DESKTOP,
  opts: { lang?: string; locale?: string } = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await e2e.browser.newContext({ ...device, baseURL: e2e.baseUrl, locale: opts.locale ?? 'en-US' });
  if (opts.lang) {
    await context.addInitScript((lang) => {
      if (!sessionStorage.getItem('e2e-lang-set')) {
        localStorage.setItem('lang', lang);
        sessionStorage.setItem('e2e-lang-set', '1');
      }
    }, opts.lang);
  }
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(err.message));
  (page as Page & { jsErrors: string[] }).jsErrors = errors;
  return { context, page };
}

export const jsErrors = (page: Page): string[] => (page as Page & { jsErrors?: string[] }).jsErrors ?? [];
