import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { dbTargets } from '../../test/test-app.ts';
import { insertUser } from '../modules/auth/user-repository.ts';
import { useLiveGateway, type WsMessage } from './ws-test-client.ts';
import { BusChannels } from '../platform/bus-channels.ts';
import { symbols } from '../platform/db/schema.ts';
import type { MarketServiceImpl } from '../modules/market/market-service.ts';

const FLUSH_MS = 150;

describe.each(dbTargets)('live socket /v1/ws on %s', (target) => {
  const live = useLiveGateway(target, { WS_FLUSH_MS: String(FLUSH_MS), WS_MAX_SUBSCRIPTIONS: '4' });
  const connect = live.connect;
  const newSession = async () => {
    const user = await insertUser(live.t.ctx.db, { email: `ws${Date.now()}${Math.random()}@example.com` });
    return { userId: user.id, token: await live.t.ctx.services.sessions.create({ userId: user.id }) };
  };
  const btc = () => live.t.ctx.services.market.symbolByCode('BTCUSDT')!;
  const tick = (bid: string, ask: string) => live.t.ctx.services.market.publishTick({ symbolId: btc().id, bid, ask, time: Date.now() });
  const isQuote = (code: string, close?: string) => (m: WsMessage | string) =>
    typeof m === 'object' && m.type === 'DAY_MARKET' && m.symbol === code && (close === undefined || m.quotation.close === close);

  it('answers the text ping with the text pong', async () => {
    const c = await connect();
    c.send('ping');
    expect(await c.next((m) => m === 'pong')).toBe('pong');
  });

  it('answers in English when the client names no language, and in the one it names', async () => {
    expect(await (await connect('')).request({ type: 'dance', params: '' }, 'error')).toMatchObject({ msg: 'Unknown message type: dance' });
    const hk = await (await connect('?lang=hk')).request({ type: 'dance', params: '' }, 'error');
    expect(hk.msg).not.toBe('Unknown message type: dance');
    expect(hk.msg).toContain('dance');
  });

  it('answers bad messages with an error and keeps the connection', async () => {
    const c = await connect();
    expect(await c.request('{not json', 'error')).toMatchObject({ type: 'error', code: 1001, msg: 'The message could not be read' });
    expect(await c.request({ params: 'x' }, 'error')).toMatchObject({ code: 1001 });
    expect(await c.request({ type: 'dance', params: '' }, 'error')).toMatchObject({ code: 1001, msg: 'Unknown message type: dance' });
    const from = c.messages.length;
    c.ws.send(Buffer.from([1, 2, 3]), { binary: true });
    expect(await c.next((m) => typeof m === 'object' && m.type === 'error', 3000, from)).toMatchObject({ code: 1001 });
    c.send('ping');
    await c.next((m) => m === 'pong', 3000, from);
    expect(c.closed).toBeNull();
  });

  it('logs in with a valid token and refuses a bad one', async () => {
    const c = await connect();
    expect(await c.request({ type: 'login', params: 'not-a-token' }, 'login_result')).toMatchObject({ code: 999 });
    const { token } = await newSession();
    expect(await c.request({ type: 'login', params: token }, 'login_result')).toMatchObject({ code: 1, msg: 'Logged in' });
    expect(await c.request({ type: 'logout', params: '' }, 'logout_result')).toMatchObject({ code: 1 });
  });

  it('subscribes to DAY_MARKET: a snapshot first, then every new quote, none after unsub', async () => {
    const c = await connect();
    expect(await c.request({ type: 'sub', params: 'DAY_MARKET' }, 'sub_result')).toMatchObject({ code: 1, topic: 'DAY_MARKET' });
    const snapshot = (await c.next(isQuote('EURUSD'))) as WsMessage;
    expect(snapshot.quotation).toMatchObject({
      forex_id: live.t.ctx.services.market.symbolByCode('EURUSD')!.id,
      close: expect.stringMatching(/^\d+\.\d{5}$/),
    });
    expect(snapshot.quotation).toHaveProperty('market_status');
    expect(tick('96000.00', '96010.00')).toBe(true);
    const push = (await c.next(isQuote('BTCUSDT', '96005.00'))) as WsMessage;
    expect(push.quotation).toMatchObject({
      id: btc().id,
      forex_id: btc().id,
      bid: '95990.00',
      ask: '96020.00',
      close: '96005.00',
      market_status: 1,
      market_status_reason: null,
    });
    expect(push.quotation).toEqual(
      expect.objectContaining({
        open: expect.any(String),
        high: expect.any(String),
        low: expect.any(String),
        change: expect.any(String),
        volume: expect.any(String),
        amount: expect.any(String),
      }),
    );
    expect(await c.request({ type: 'unsub', params: 'DAY_MARKET' }, 'unsub_result')).toMatchObject({ code: 1 });
    const from = c.messages.length;
    tick('96100.00', '96110.00');
    await new Promise((r) => setTimeout(r, FLUSH_MS * 2));
    expect(c.ofType('DAY_MARKET', from)).toEqual([]);
  });

  it('gives a new DAY_MARKET subscriber a symbol whose quote went stale as paused, before the status timer has announced it', async () => {
    const market = live.t.ctx.services.market as MarketServiceImpl;
    const eth = market.symbolByCode('ETHUSDT')!;
    const before = (await live.t.ctx.db.select({ age: symbols.maxQuoteAgeSec }).from(symbols).where(eq(symbols.id, eth.id)))[0]!.age;
    try {
      // ETHUSDT may be silent for one second; its last tick was pushed as open.
      await live.t.ctx.db.update(symbols).set({ maxQuoteAgeSec: 1 }).where(eq(symbols.id, eth.id));
      await market.reloadSymbols();
      expect(
        market.publishTick({ symbolId: eth.id, bid: market.quote(eth.id)!.bid, ask: market.quote(eth.id)!.ask, time: Date.now() }),
      ).toBe(true);
      market.checkMarketStatus();
      const first = await connect();
      await first.request({ type: 'sub', params: 'DAY_MARKET' }, 'sub_result');
      expect(((await first.next(isQuote('ETHUSDT'))) as WsMessage).quotation).toMatchObject({ market_status: 1 });
      const seen = first.messages.length;
      // The feed falls silent: the server stops trading it at once, and the status timer (not
      // running here) would announce it within a second.
      await expect.poll(() => market.closedReason(eth.id), { timeout: 3_000, interval: 100 }).toBe('stale');
      const late = await connect();
      await late.request({ type: 'sub', params: 'DAY_MARKET' }, 'sub_result');
      expect(((await late.next(isQuote('ETHUSDT'))) as WsMessage).quotation).toMatchObject({
        market_status: 2,
        market_status_reason: 'stale',
      });
      // The one already subscribed hears it too.
      await first.next((m) => isQuote('ETHUSDT')(m) && (m as WsMessage).quotation.market_status === 2, 3000, seen);
    } finally {
      await live.t.ctx.db.update(symbols).set({ maxQuoteAgeSec: before }).where(eq(symbols.id, eth.id));
      await market.reloadSymbols();
    }
  });

  it('pushes the forming bar of every period on KLINE.{code}', async () => {
    const c = await connect();
    expect(await c.request({ type: 'sub', params: 'KLINE.BTCUSDT' }, 'sub_result')).toMatchObject({ code: 1, topic: 'KLINE.BTCUSDT' });
    const from = c.messages.length;
    tick('97000.00', '97002.00');
    await c.next(
      (m) => typeof m === 'object' && m.type === 'KLINE' && m.kline.Close === '97001.00' && m.kline.Period === '1day',
      3000,
      from,
    );
    const bars = c.ofType('KLINE', from).filter((m) => m.kline.Close === '97001.00');
    expect(bars.map((m) => m.kline.Period).sort()).toEqual(['15min', '1day', '1min', '30min', '5min', '60min']);
    const oneMin = bars.find((m) => m.kline.Period === '1min')!;
    expect(oneMin).toMatchObject({
      symbol: 'BTCUSDT',
      forex_id: btc().id,
      kline: { Code: 'BTCUSDT', ForexId: btc().id, Time: Math.floor(Date.now() / 60_000) * 60_000 },
    });
    expect(Object.keys(oneMin.kline).sort()).toEqual([
      'Amount',
      'Change',
      'Close',
      'Code',
      'ForexId',
      'High',
      'Id',
      'Low',
      'Open',
      'Period',
      'Time',
      'Volume',
    ]);
  });

  it('pushes the top of book on MARKET_DEPTH.{code}: a snapshot, then each quote, with sizes', async () => {
    const c = await connect();
    expect(await c.request({ type: 'sub', params: 'MARKET_DEPTH.btcusdt' }, 'sub_result')).toMatchObject({
      code: 1,
      topic: 'MARKET_DEPTH.BTCUSDT',
    });
    await c.next((m) => typeof m === 'object' && m.type === 'MARKET_DEPTH', 3000);
    const from = c.messages.length;
    tick('97100.00', '97102.00');
    const pushed = await c.next(
      (m) => typeof m === 'object' && m.type === 'MARKET_DEPTH' && m.time > 0 && m.bids[0][0] !== c.ofType('MARKET_DEPTH')[0]!.bids[0][0],
      3000,
      from,
    );
    const quote = live.t.ctx.services.market.quote(btc().id)!;
    expect(pushed).toEqual({
      type: 'MARKET_DEPTH',
      symbol: 'BTCUSDT',
      forex_id: btc().id,
      time: quote.time,
      bids: [[quote.bid, btc().maxLots.toString()]],
      asks: [[quote.ask, btc().maxLots.toString()]],
    });
    expect((await c.request({ type: 'sub', params: 'MARKET_DEPTH.NOSUCH' }, 'sub_result')).code).not.toBe(1);
  });

  it('refuses unknown topics and more subscriptions than the limit', async () => {
    const c = await connect();
    expect(await c.request({ type: 'sub', params: 'NOPE' }, 'sub_result')).toMatchObject({ code: 1001, msg: 'Unknown topic: NOPE' });
    expect((await c.request({ type: 'sub', params: 'KLINE.NOSUCH' }, 'sub_result')).code).not.toBe(1);
    expect((await c.request({ type: 'sub', params: 'KLINE.btcusdt' }, 'sub_result')).code).toBe(1);
    for (const topic of ['KLINE.EURUSD', 'KLINE.XAUUSD', 'DAY_MARKET'])
      expect((await c.request({ type: 'sub', params: topic }, 'sub_result')).code).toBe(1);
    expect(await c.request({ type: 'sub', params: 'KLINE.ETHUSDT' }, 'sub_result')).toMatchObject({
      code: 1001,
      msg: expect.stringMatching(/at most 4/),
    });
    expect(c.closed).toBeNull();
  });

  it('needs a login for FOREX_TRADE and FOREX_CLOSED and forwards only the own user pushes, in order', async () => {
    const a = await connect();
    const b = await connect();
    expect((await a.request({ type: 'sub', params: 'FOREX_TRADE' }, 'sub_result')).code).toBe(1003);
    expect((await a.request({ type: 'sub', params: 'FOREX_CLOSED' }, 'sub_result')).code).toBe(1003);
    const ua = await newSession();
    const ub = await newSession();
    await a.request({ type: 'login', params: ua.token }, 'login_result');
    await b.request({ type: 'login', params: ub.token }, 'login_result');
    for (const c of [a, b]) {
      expect((await c.request({ type: 'sub', params: 'FOREX_TRADE' }, 'sub_result')).code).toBe(1);
      expect((await c.request({ type: 'sub', params: 'FOREX_CLOSED' }, 'sub_result')).code).toBe(1);
    }
    const bus = live.t.ctx.bus;
    bus.publish(BusChannels.userChannel(ua.userId), { type: 'FOREX_TRADE', To: ua.userId, HazardRate: '1000.00', TransOrder: [] });
    for (const id of [1, 2, 3]) bus.publish(BusChannels.userChannel(ua.userId), { type: 'FOREX_CLOSED', id: [id] });
    bus.publish(BusChannels.userChannel(ub.userId), { type: 'FOREX_CLOSED', id: [99] });
    await a.next((m) => typeof m === 'object' && m.type === 'FOREX_CLOSED' && m.id[0] === 3);
    await b.next((m) => typeof m === 'object' && m.type === 'FOREX_CLOSED');
    expect(a.ofType('FOREX_CLOSED').map((m) => m.id)).toEqual([[1], [2], [3]]);
    expect(a.ofType('FOREX_TRADE')).toEqual([expect.objectContaining({ To: ua.userId, HazardRate: '1000.00' })]);
    expect(b.ofType('FOREX_CLOSED').map((m) => m.id)).toEqual([[99]]);
    expect(b.ofType('FOREX_TRADE')).toEqual([]);

    await a.request({ type: 'logout', params: '' }, 'logout_result');
    const from = a.messages.length;
    bus.publish(BusChannels.userChannel(ua.userId), { type: 'FOREX_CLOSED', id: [4] });
    await new Promise((r) => setTimeout(r, 100));
    expect(a.ofType('FOREX_CLOSED', from)).toEqual([]);
  });

  it('forwards NOTICE and ALERT pushes to the logged-in user who subscribed to them, and to no one else', async () => {
    const c = await connect();
    expect((await c.request({ type: 'sub', params: 'ALERT' }, 'sub_result')).code).toBe(1003);
    const user = await newSession();
    const other = await newSession();
    await c.request({ type: 'login', params: user.token }, 'login_result');
    for (const topic of ['NOTICE', 'ALERT'])
      expect(await c.request({ type: 'sub', params: topic }, 'sub_result')).toMatchObject({ code: 1, topic });
    const bus = live.t.ctx.bus;
    bus.publish(BusChannels.userChannel(other.userId), { type: 'ALERT', id: 1 });
    bus.publish(BusChannels.userChannel(user.userId), { type: 'NOTICE', kind: 'take_profit', order_id: 5 });
    bus.publish(BusChannels.userChannel(user.userId), { type: 'ALERT', id: 2, fired_price: '95600.00' });
    expect(await c.next((m) => typeof m === 'object' && m.type === 'ALERT')).toMatchObject({ id: 2, fired_price: '95600.00' });
    expect(c.ofType('NOTICE')).toEqual([expect.objectContaining({ kind: 'take_profit', order_id: 5 })]);
    expect(c.ofType('ALERT').map((m) => m.id)).toEqual([2]);
  });

  it('announces NOTICE and ALERT to every logged-in connection of the user, with no subscription', async () => {
    const mine = await connect();
    const other = await connect();
    const guest = await connect();
    const ua = await newSession();
    const ub = await newSession();
    await mine.request({ type: 'login', params: ua.token }, 'login_result');
    await other.request({ type: 'login', params: ub.token }, 'login_result');
    const notice = { type: 'NOTICE', kind: 'take_profit', order_id: 5, symbol: 'BTC/USDT', price: '96000.00', profit: '10.000000' };
    live.t.ctx.bus.publish(BusChannels.userChannel(ua.userId), notice);
    live.t.ctx.bus.publish(BusChannels.userChannel(ua.userId), {
      type: 'ALERT',
      id: 3,
      symbol: 'EUR/USD',
      side: 'bid',
      price: '1.09000',
      fired_price: '1.09001',
    });
    expect(await mine.next((m) => typeof m === 'object' && m.type === 'NOTICE')).toMatchObject({ kind: 'take_profit', order_id: 5 });
    expect(await mine.next((m) => typeof m === 'object' && m.type === 'ALERT')).toMatchObject({ id: 3, fired_price: '1.09001' });
    await new Promise((r) => setTimeout(r, 100));
    expect([...other.ofType('NOTICE'), ...other.ofType('ALERT'), ...guest.ofType('NOTICE')]).toEqual([]);
  });

  it('delivers support chat to the logged-in user on CHAT, and every chat message to a staff desk on SUPPORT', async () => {
    const user = await newSession();
    const other = await newSession();
    const c = await connect();
    expect(await c.request({ type: 'sub', params: 'CHAT' }, 'sub_result')).toMatchObject({ code: 1003 });
    await c.request({ type: 'login', params: user.token }, 'login_result');
    expect(await c.request({ type: 'sub', params: 'CHAT' }, 'sub_result')).toMatchObject({ code: 1, topic: 'CHAT' });
    // A trader cannot listen to the support desk.
    expect(await c.request({ type: 'sub', params: 'SUPPORT' }, 'sub_result')).toMatchObject({ code: 1003 });

    const staff = await live.t.ctx.services.sessions.create({ staffId: 1 });
    const desk = await connect();
    expect(await desk.request({ type: 'login', params: staff }, 'login_result')).toMatchObject({ code: 1 });
    expect(await desk.request({ type: 'sub', params: 'SUPPORT' }, 'sub_result')).toMatchObject({ code: 1, topic: 'SUPPORT' });

    const from = c.messages.length;
    const message = { id: 7, sender: 'staff', body: 'Hello from support', image_url: null, created_at: new Date().toISOString() };
    live.t.ctx.bus.publish(BusChannels.userChannel(other.userId), { type: 'CHAT', message: { ...message, body: 'not yours' } });
    live.t.ctx.bus.publish(BusChannels.userChannel(user.userId), { type: 'CHAT', message });
    live.t.ctx.bus.publish('push:staff:support', { type: 'CHAT', user_id: user.userId, message });
    expect(await c.next((m) => typeof m === 'object' && m.type === 'CHAT', 3000, from)).toMatchObject({
      message: { body: 'Hello from support' },
    });
    expect(await desk.next((m) => typeof m === 'object' && m.type === 'CHAT')).toMatchObject({ user_id: user.userId });
    await new Promise((r) => setTimeout(r, FLUSH_MS));
    expect(c.ofType('CHAT', from).map((m) => m.message.body)).toEqual(['Hello from support']);
  });

  it('coalesces quotes per symbol for each client: the newest wins', async () => {
    const c = await connect();
    await c.request({ type: 'sub', params: 'DAY_MARKET' }, 'sub_result');
    await c.next(isQuote('BTCUSDT'));
    await new Promise((r) => setTimeout(r, FLUSH_MS));
    const from = c.messages.length;
    for (let i = 1; i <= 5; i++) tick(`9800${i}.00`, `9800${i}.00`);
    await c.next(isQuote('BTCUSDT'), 3000, from);
    await new Promise((r) => setTimeout(r, FLUSH_MS * 2));
    expect(
      c
        .ofType('DAY_MARKET', from)
        .filter((m) => m.symbol === 'BTCUSDT')
        .map((m) => m.quotation.close),
    ).toEqual(['98005.00']);
  });
});
