/** Helpers shared by the trading tests (not a test file itself). */
import { expect } from 'vitest';
import { call, createTestApp, type DbTarget, type TestApp } from '../test-app.ts';
import { auditLedger } from '../../src/modules/ledger/ledger-service.ts';
import { CONFIRM_TICKS } from '../../src/modules/market/quote-pipeline.ts';
import { symbols } from '../../src/platform/db/schema.ts';
import { dec } from '@tp/contract/decimal';
import { BusChannels } from '../../src/platform/bus-channels.ts';

/**
 * A test app with every market open, one live tick per symbol at its seeded price, quotes that stay
 * fresh for an hour (staleness has its own tests) and the engine running (no price feed: tests move prices).
 */
export async function tradingApp(target: DbTarget, env: Record<string, string> = {}): Promise<TestApp> {
  const t = await createTestApp(target, { MARKET_ALWAYS_OPEN: '1', DEMO_CREATE_RATE_LIMIT: '100000', ...env });
  await liveQuotes(t);
  await t.ctx.services.trading.engine.start();
  return t;
}

/** Quotes that stay fresh for an hour, and one live tick per symbol in session at its current price (tests without a price feed). */
export async function liveQuotes(t: TestApp): Promise<void> {
  await t.ctx.db.update(symbols).set({ maxQuoteAgeSec: 3600 });
  const market = t.ctx.services.market;
  await market.reloadSymbols();
  for (const s of market.symbols().filter((x) => market.inSession(x.id))) {
    const mid = market.quote(s.id)!.mid;
    expect(market.publishTick({ symbolId: s.id, bid: mid, ask: mid, time: Date.now() })).toBe(true);
  }
}

export interface Trader {
  token: string;
  userId: number;
  demoId: string;
}

/**
 * A demo account created through the API, with a session (the demo login through loginForU is
 * tested in demo.test.ts; it is rate-limited per IP, and tests create many accounts).
 */
export async function demoTrader(t: TestApp): Promise<Trader> {
  const created = await call(t, 'GET', '/api/user/createAccountDemoForU');
  expect(created.code).toBe(1);
  const token = await t.ctx.services.sessions.create({ userId: created.data.id });
  return { token, userId: created.data.id, demoId: created.data.demo_id };
}

export const symbolId = (t: TestApp, code: string): number => t.ctx.services.market.symbolByCode(code)!.id;

/**
 * Moves a symbol's quote to the bid and ask traders should see, and waits until everything it triggered
 * has committed (unless told not to wait). Like a feed, it hands in the prices before the symbol's spread (bid + spread/2,
 * ask - spread/2) and repeats a jump beyond the deviation threshold until the filter confirms it.
 */
export async function tick(t: TestApp, code: string, bid: string, ask: string, waitForEngine = true): Promise<void> {
  const market = t.ctx.services.market;
  const s = market.symbolByCode(code)!;
  const half = s.spread.div(2);
  const source = { symbolId: s.id, bid: dec(bid).plus(half).toString(), ask: dec(ask).minus(half).toString() };
  let accepted = false;
  for (let i = 0; i <= CONFIRM_TICKS && !accepted; i++) accepted = market.publishTick({ ...source, time: Date.now() });
  expect(accepted).toBe(true);
  expect(market.quote(s.id)).toMatchObject({ bid: dec(bid).toFixed(s.pricePrecision), ask: dec(ask).toFixed(s.pricePrecision) });
  if (waitForEngine) await t.ctx.services.trading.engine.idle();
}

export const api = (t: TestApp, trader: Trader | null, url: string, params: Record<string, unknown> = {}, lang = 'en') =>
  call(t, 'GET', url, params, { token: trader?.token, lang });

export const submit = (t: TestApp, trader: Trader, params: Record<string, unknown>) => api(t, trader, '/v1/api/forex/submit', params);

export async function cashOf(t: TestApp, userId: number): Promise<{ balance: string; locked: string }> {
  const b = await t.ctx.services.ledger.balances(t.ctx.db, userId);
  return { balance: b.balance.toString(), locked: b.lockBalance.toString() };
}

export async function expectAuditClean(t: TestApp): Promise<void> {
  const report = await auditLedger(t.ctx.db);
  expect(report.problems).toEqual([]);
}

/** Every push sent to a user while the returned array lives. */
export function pushesOf(t: TestApp, userId: number): { messages: any[]; stop: () => void } {
  const messages: any[] = [];
  const stop = t.ctx.bus.subscribe(BusChannels.userChannel(userId), (m) => messages.push(m));
  return { messages, stop };
}
