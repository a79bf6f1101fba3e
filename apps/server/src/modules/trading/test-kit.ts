/** Helpers shared by the trading tests (not a test file itself). */
import { expect } from 'vitest';
import { call, createTestApp, type DbTarget, type TestApp } from '../../../test/test-app.ts';
import { auditLedger } from '../ledger/ledger-service.ts';
import { BusChannels } from '../market/types.ts';

/** A test app with every market open and the engine running (no price feed: tests move prices). */
export async function tradingApp(target: DbTarget, env: Record<string, string> = {}): Promise<TestApp> {
  const t = await createTestApp(target, { MARKET_ALWAYS_OPEN: '1', DEMO_CREATE_RATE_LIMIT: '100000', ...env });
  await t.ctx.services.trading.engine.start();
  return t;
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

/** Publishes a tick and waits until everything it triggered has committed. */
export async function tick(t: TestApp, code: string, bid: string, ask: string): Promise<void> {
  const accepted = t.ctx.services.market.publishTick({ symbolId: symbolId(t, code), bid, ask, time: Date.now() });
  expect(accepted).toBe(true);
  await t.ctx.services.trading.engine.idle();
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
