import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../apps/server/test/test-app.ts';
import { liveQuotes, tick as kitTick } from '../apps/server/test/trading/test-kit.ts';
import { DESKTOP, newPage, PHONE, startE2E, type E2E } from './harness.ts';

const AXE_SOURCE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core'), 'utf8');
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/**
 * Every screen axe-core checks. A new screen is covered by adding it here. `ready` is a text or
 * test id the screen shows once its data is on the page.
 * TODO (issue 36): the back office (/admin/*), the other /mine pages and the chat are not in the list
 * yet, and /news is checked without news items seeded.
 */
const ROUTES: { path: string; signedIn: boolean; ready?: string }[] = [
  { path: '/', signedIn: true },
  { path: '/trade?symbol=BTCUSDT', signedIn: true },
  { path: '/login', signedIn: false },
  { path: '/order', signedIn: true },
  { path: '/news', signedIn: true },
  { path: '/rank', signedIn: true },
  { path: '/mine', signedIn: true },
  { path: '/mine/history', signedIn: true },
  { path: '/mine/api-keys', signedIn: true },
  { path: '/register', signedIn: false },
  { path: '/product', signedIn: true },
];
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
  const tick = (code: string, bid: string, ask: string) => kitTick(e2e.server, code, bid, ask);

  beforeAll(async () => {
    e2e = await startE2E();
    for (const task of e2e.server.ctx.background.filter((t) => t.name.startsWith('price-source'))) await task.stop();
    await liveQuotes(e2e.server);
    await tick('BTCUSDT', '95000.00', '95020.00');
    const btcId = e2e.server.ctx.services.market.symbolByCode('BTCUSDT')!.id;
    const demo = await call(e2e.server, 'GET', '/api/user/createAccountDemoForU');
    const login = await call(e2e.server, 'POST', '/api/user/loginForU', { demo_id: demo.data.demo_id });
    expect(login.code).toBe(1);
    token = login.data.token;
    user = login.data.user;
    const submit = (params: Record<string, unknown>) =>
      call(e2e.server, 'GET', '/v1/api/forex/submit', { forex_id: btcId, multiple: 2, ...params }, { token });
    expect((await submit({ type: 1, cont: '0.10', status: 1, target_profit_price: '99000', stop_loss_price: '90000' })).code).toBe(1);
    expect((await submit({ type: 1, cont: '0.02', status: 0, target_price: '94800' })).code).toBe(1);
  });
  afterAll(async () => e2e?.close());

  const cases = ROUTES.flatMap((route) =>
    DEVICES.flatMap((d) => LANGS.map((lang) => ({ ...route, size: d.name, device: d.device, lang }))),
  );

  it.each(cases)(
    '$path at $size size in $lang has no serious or critical finding, one h1 and headings in order',
    async ({ path, signedIn, device, lang }) => {
      const { context, page } = await newPage(e2e, device, { lang });
      if (signedIn) {
        const session = JSON.stringify({ state: { token, user }, version: 0 });
        await context.addInitScript((value) => localStorage.setItem('session', value), session);
      }
      try {
        await page.goto(path);
        await page.waitForLoadState('networkidle');
        // Lists and prices load over the network: give the data a moment to be drawn.
        await page.waitForTimeout(800);
        const settled = serious(await axe(page));
        // Headings a screen reader navigates by: one top-level heading, no level skipped (best-practice rules, asked for by name).
        const headings = await axe(page, { rules: ['page-has-heading-one', 'heading-order'] });

        // A tick up and one down: freeze each flash colour where it is drawn, then measure it.
        const flashes: Finding[] = [];
        for (const [bid, ask] of [
          ['95100.00', '95120.00'],
          ['94900.00', '94920.00'],
        ] as const) {
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
      } finally {
        await context.close();
      }
    },
  );
});
