import { describe, expect, it } from 'vitest';
import type { MarketServiceImpl } from '../market-service.ts';
import { FixRouter, type FixMode } from './fix-router.ts';

interface Published {
  bid: string;
  ask: string;
  sourceTime?: number;
}

/** A router over a market of one symbol (BTCUSDT, quotes live for one second), on a clock the test moves. */
function setup(mode: FixMode, order = ['lp1', 'lp2']) {
  let now = 1_000_000;
  const up = new Set(order);
  const published: Published[] = [];
  const market = {
    symbolByCode: (code: string) => (code === 'BTCUSDT' ? { id: 1, maxQuoteAgeMs: 1000 } : undefined),
    publishTick: (t: Published & { symbolId: number; time: number }) => {
      published.push({ bid: t.bid, ask: t.ask, ...(t.sourceTime === undefined ? {} : { sourceTime: t.sourceTime }) });
      return true;
    },
  } as unknown as MarketServiceImpl;
  const router = new FixRouter(
    mode,
    order,
    market,
    (s) => up.has(s),
    ['BTCUSDT', 'ETHUSDT'],
    () => now,
  );
  return {
    router,
    published,
    up,
    last: () => published.at(-1),
    at: () => now,
    advance: (ms: number) => (now += ms),
    quote: (session: string, bid: string, ask: string, age = 0) => router.quote(session, 'BTCUSDT', bid, ask, now - age),
  };
}

describe('FIX router: one price from several providers', () => {
  it('failover: the primary feeds; the secondary takes over when the primary goes stale (without a new quote) and hands back when it quotes', () => {
    const r = setup('failover');
    r.quote('lp1', '100', '101');
    r.quote('lp2', '99', '102');
    expect(r.published).toEqual([{ bid: '100', ask: '101', sourceTime: r.at() }]);
    expect(r.router.routes()).toEqual([
      { code: 'BTCUSDT', bid: 'lp1', ask: 'lp1' },
      { code: 'ETHUSDT', bid: null, ask: null },
    ]);
    // lp2 quotes again just before lp1's quote turns one second old; then lp1's goes stale.
    r.advance(900);
    r.quote('lp2', '98', '103');
    expect(r.published).toHaveLength(1);
    r.advance(200);
    r.router.check();
    expect(r.last()).toEqual({ bid: '98', ask: '103', sourceTime: r.at() - 200 });
    expect(r.router.routes()[0]).toEqual({ code: 'BTCUSDT', bid: 'lp2', ask: 'lp2' });
    r.router.check();
    expect(r.published).toHaveLength(2);
    r.quote('lp1', '100.5', '101.5');
    expect(r.last()).toEqual({ bid: '100.5', ask: '101.5', sourceTime: r.at() });
    expect(r.router.routes()[0]!.bid).toBe('lp1');
  });

  it('failover: a session that logs off hands over at once; an old quote from a live session does not count', () => {
    const r = setup('failover');
    r.quote('lp1', '100', '101');
    r.quote('lp2', '99', '102');
    r.up.delete('lp1');
    r.router.sessionDown('lp1');
    expect(r.last()).toEqual({ bid: '99', ask: '102', sourceTime: r.at() });
    r.up.add('lp1');
    // lp1's snapshot after its logon, priced 5 s ago: lp2 keeps the symbol.
    r.quote('lp1', '100', '101', 5000);
    expect(r.last()).toEqual({ bid: '99', ask: '102', sourceTime: r.at() });
    expect(r.router.routes()[0]!.bid).toBe('lp2');
  });

  it('with no live provider, a quote passes as it comes (the pipeline judges its age)', () => {
    const r = setup('failover', ['lp1']);
    r.quote('lp1', '100', '101', 5000);
    expect(r.last()).toEqual({ bid: '100', ask: '101', sourceTime: r.at() - 5000 });
    expect(r.router.routes()[0]).toEqual({ code: 'BTCUSDT', bid: null, ask: null });
  });

  it('best: the best bid and the best ask across live providers, as old as the older side; stale and crossed quotes', () => {
    const r = setup('best');
    r.quote('lp1', '100', '102');
    r.advance(100);
    r.quote('lp2', '101', '103');
    expect(r.last()).toEqual({ bid: '101', ask: '102', sourceTime: r.at() - 100 });
    expect(r.router.routes()[0]).toEqual({ code: 'BTCUSDT', bid: 'lp2', ask: 'lp1' });
    // lp2 falls silent; lp1 quotes on: once lp2's quote is a second old, lp1's own quote is the best.
    r.advance(600);
    r.quote('lp1', '100', '102');
    expect(r.last()).toEqual({ bid: '101', ask: '102', sourceTime: r.at() - 600 });
    r.advance(401);
    r.router.check();
    expect(r.last()).toEqual({ bid: '100', ask: '102', sourceTime: r.at() - 401 });
    // Crossing quotes (lp2 bids above lp1's offer): the first live provider's own quote.
    r.quote('lp2', '103', '104');
    expect(r.last()).toEqual({ bid: '100', ask: '102', sourceTime: r.at() - 401 });
    expect(r.router.routes()[0]).toEqual({ code: 'BTCUSDT', bid: 'lp1', ask: 'lp1' });
  });
});
