import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbTargets, type TestApp } from '../../test/test-app.ts';
import { api, demoTrader, submit, symbolId, tick, type Trader, tradingApp } from '../../test/trading/test-kit.ts';
import { TestClient, type WsMessage } from './ws-test-client.ts';

/**
 * A trader's NOTICE and FOREX_CLOSED pushes carry a seq and are kept for a few minutes: a client that
 * lost its connection logs in again, names the last seq it saw, and gets what it missed, once, in order.
 */
describe.each(dbTargets)('replay of missed pushes on %s', (target) => {
  let t: TestApp;
  let url = '';
  const clients: TestClient[] = [];
  beforeAll(async () => {
    t = await tradingApp(target, { WS_REPLAY_MAX_ENTRIES: '3' });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    url = `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/v1/ws?lang=en`;
  });
  afterAll(async () => {
    for (const c of clients) c.close();
    await t?.close();
  });

  const listening = async (trader: Trader) => {
    const c = await TestClient.connect(url);
    clients.push(c);
    expect(await c.request({ type: 'login', params: trader.token }, 'login_result')).toMatchObject({ code: 1 });
    expect(await c.request({ type: 'sub', params: 'FOREX_CLOSED' }, 'sub_result')).toMatchObject({ code: 1 });
    return c;
  };
  const isEvent = (m: WsMessage | string): m is WsMessage => typeof m === 'object' && (m.type === 'FOREX_CLOSED' || m.type === 'NOTICE');
  const closedOf = (id: number) => (m: WsMessage | string) => typeof m === 'object' && m.type === 'FOREX_CLOSED' && m.id.includes(id);
  /** Opens a EURUSD position and closes it: one FOREX_CLOSED. */
  const openAndClose = async (trader: Trader) => {
    const opened = await submit(t, trader, { type: 1, cont: '1', forex_id: symbolId(t, 'EURUSD'), multiple: 100 });
    expect(opened.code).toBe(1);
    expect((await api(t, trader, '/v1/api/forex/close', { id: opened.data.Id })).code).toBe(1);
    return opened.data.Id as number;
  };
  /** Asks for what followed `seq`; the events and the result that came after the request. */
  const replay = async (c: TestClient, seq: number | string) => {
    const from = c.messages.length;
    const result = await c.request({ type: 'replay', params: String(seq) }, 'replay_result');
    const at = c.messages.indexOf(result, from);
    return { events: c.messages.slice(from, at).filter(isEvent), result };
  };

  it('sends the FOREX_CLOSED and NOTICE pushed while the client was away, once and in order, to the reconnected client', async () => {
    const trader = await demoTrader(t);
    const first = await listening(trader);
    const seen = (await first.next(closedOf(await openAndClose(trader)))) as WsMessage;
    expect(seen.seq).toEqual(expect.any(Number));
    first.close();

    // Away: a position closes, and a pending order fills (NOTICE).
    const closedId = await openAndClose(trader);
    const btc = symbolId(t, 'BTCUSDT');
    await tick(t, 'BTCUSDT', '94990', '95010');
    const pending = await submit(t, trader, { type: 1, cont: '0.1', forex_id: btc, status: 0, target_price: '94000', multiple: 10 });
    expect(pending.code).toBe(1);
    await tick(t, 'BTCUSDT', '93490', '93510');
    await tick(t, 'BTCUSDT', '94990', '95010');

    const back = await listening(trader);
    const { events, result } = await replay(back, seen.seq);
    expect(events).toEqual([
      { type: 'FOREX_CLOSED', id: [closedId], seq: seen.seq + 1 },
      expect.objectContaining({ type: 'NOTICE', kind: 'pending_filled', order_id: pending.data.Id, seq: seen.seq + 2 }),
    ]);
    expect(result).toMatchObject({ code: 1, data: { complete: true, count: 2 } });

    // Nothing comes twice, and a client that has seen everything gets nothing more.
    expect(await replay(back, seen.seq + 2)).toMatchObject({ events: [], result: { code: 1, data: { complete: true, count: 0 } } });
    await new Promise((r) => setTimeout(r, 100));
    expect(back.messages.filter(isEvent)).toHaveLength(2);
  });

  it('says the replay is incomplete when pushes after the seq are no longer kept, or the seq is not one it gave', async () => {
    const trader = await demoTrader(t);
    const c = await listening(trader);
    const seen = (await c.next(closedOf(await openAndClose(trader)))) as WsMessage;
    const ids: number[] = [];
    for (let i = 0; i < 4; i++) ids.push(await openAndClose(trader));
    await c.next(closedOf(ids[3]!));

    // At most 3 are kept (WS_REPLAY_MAX_ENTRIES): the first one after the seq is gone.
    const { events, result } = await replay(c, seen.seq);
    expect(events.map((m) => [m.id, m.seq])).toEqual([
      [[ids[1]], seen.seq + 2],
      [[ids[2]], seen.seq + 3],
      [[ids[3]], seen.seq + 4],
    ]);
    expect(result).toMatchObject({ code: 1, msg: 'Sent 3 missed notifications; older ones are no longer kept', data: { complete: false } });
    expect(await replay(c, seen.seq + 1000)).toMatchObject({ events: [], result: { code: 1, data: { complete: false, count: 0 } } });
    expect((await replay(c, 'abc')).result).toMatchObject({ code: 1001, data: { complete: false, count: 0 } });
  });

  it("never replays another user's pushes, and needs a trader's login", async () => {
    const owner = await demoTrader(t);
    const other = await demoTrader(t);
    const ownerSocket = await listening(owner);
    const seen = (await ownerSocket.next(closedOf(await openAndClose(owner)))) as WsMessage;
    await openAndClose(owner);

    const stranger = await listening(other);
    for (const seq of [0, seen.seq - 1, seen.seq]) {
      const { events, result } = await replay(stranger, seq);
      expect(events).toEqual([]);
      expect(result).toMatchObject({ code: 1, data: { count: 0 } });
    }
    expect(stranger.messages.filter(isEvent)).toEqual([]);

    const guest = await TestClient.connect(url);
    clients.push(guest);
    expect((await replay(guest, seen.seq)).result).toMatchObject({ code: 1003, data: { complete: false, count: 0 } });
    expect(guest.messages.filter(isEvent)).toEqual([]);
  });
});
