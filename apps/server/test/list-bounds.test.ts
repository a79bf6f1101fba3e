import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orders, sessions } from '../src/platform/db/schema.ts';
import { api, demoTrader, submit, symbolId, tick, tradingApp } from './trading/test-kit.ts';
import { hashToken } from '../src/modules/auth/session-service.ts';
import { newUser, staffToken } from '../src/modules/funding/test-helpers.ts';
import { call, dbTargets, type TestApp } from './test-app.ts';

/**
 * Lists that a hostile account could make grow have a page size the server bounds: `deal` answers at
 * most 400 live orders of a symbol (the two default per-account caps) with their total, and pages on
 * request; the back office's session list of a user is bounded too. Existing clients, which send no
 * paging to `deal`, get the same answer as before while the account is within the default caps.
 */
describe.each(dbTargets)('every list bounded on %s', (target) => {
  let t: TestApp;
  let btc: number;
  beforeAll(async () => {
    t = await tradingApp(target);
    btc = symbolId(t, 'BTCUSDT');
  });
  afterAll(async () => t?.close());

  it('deal without paging answers every live order of an account within the caps, as before, and their total', async () => {
    const trader = await demoTrader(t);
    await tick(t, 'BTCUSDT', '94990', '95010');
    const ids: number[] = [];
    for (let i = 0; i < 3; i++)
      ids.unshift(
        (await submit(t, trader, { type: 1, cont: '0.01', forex_id: btc, multiple: 10, status: 0, target_price: String(80000 + i) })).data
          .Id,
      );
    const deal = await api(t, trader, '/v1/api/forex/deal', { forex_id: btc });
    expect(deal.code).toBe(1);
    expect(deal.data.orders.map((o: { Id: number }) => o.Id)).toEqual(ids);
    expect(deal.data.orders_total).toBe(3);
    // Paged on request, newest first.
    const first = await api(t, trader, '/v1/api/forex/deal', { forex_id: btc, limit: 2 });
    const second = await api(t, trader, '/v1/api/forex/deal', { forex_id: btc, limit: 2, page: 2 });
    expect(first.data.orders.map((o: { Id: number }) => o.Id)).toEqual(ids.slice(0, 2));
    expect(second.data.orders.map((o: { Id: number }) => o.Id)).toEqual(ids.slice(2));
    expect(second.data.orders_total).toBe(3);
    // The page size has a server-side maximum.
    expect((await api(t, trader, '/v1/api/forex/deal', { forex_id: btc, limit: 401 })).code).toBe(1001);
    expect((await api(t, trader, '/v1/api/forex/deal', { forex_id: btc, limit: 400 })).code).toBe(1);
  });

  it('an account holding far more live orders than the caps (raised caps, old rows) gets at most 400 per answer', async () => {
    const trader = await demoTrader(t);
    await tick(t, 'BTCUSDT', '94990', '95010');
    const placed = await submit(t, trader, { type: 1, cont: '0.01', forex_id: btc, multiple: 10, status: 0, target_price: '70000' });
    expect(placed.code).toBe(1);
    const [row] = await t.ctx.db.select().from(orders).where(eq(orders.id, placed.data.Id));
    const { id: _id, ...copy } = row!;
    await t.ctx.db.insert(orders).values(Array.from({ length: 449 }, () => copy));
    const started = performance.now();
    const deal = await api(t, trader, '/v1/api/forex/deal', { forex_id: btc });
    const ms = performance.now() - started;
    expect(deal.code).toBe(1);
    expect(deal.data.orders).toHaveLength(400);
    expect(deal.data.orders_total).toBe(450);
    expect(deal.data.orders[0].Id).toBeGreaterThan(deal.data.orders[399].Id);
    const last = await api(t, trader, '/v1/api/forex/deal', { forex_id: btc, page: 2 });
    expect(last.data.orders).toHaveLength(50);
    console.log(`deal with 450 live orders: ${deal.data.orders.length} in the answer, ${Math.round(ms)} ms`);
  });

  it('the back office lists at most 100 sessions of a user, newest first', async () => {
    const admin = await staffToken(t, ['admin']);
    const u = await newUser(t);
    const now = Date.now();
    await t.ctx.db.insert(sessions).values(
      Array.from({ length: 130 }, (_, i) => ({
        userId: u.id,
        tokenHash: hashToken(`s-${u.id}-${i}`),
        expiresAt: new Date(now + 3_600_000),
        ip: `10.0.0.${i % 250}`,
      })),
    );
    const res = await call(t, 'GET', '/api/admin/users/sessions', { user_id: u.id }, { token: admin });
    expect(res.code).toBe(1);
    expect(res.data).toHaveLength(100);
    expect(res.data[0].id).toBeGreaterThan(res.data[99].id);
  });
});
