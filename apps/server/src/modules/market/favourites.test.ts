import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_FAVOURITES } from '@tp/contract/schemas/market';
import { favourites as favouritesTable } from '../../platform/db/schema.ts';
import { call, createTestApp, dbTargets, type TestApp } from '../../../test/test-app.ts';

/** Favourites (issue 21): each trader's starred symbols, kept on the server. */
describe.each(dbTargets)('favourites on %s', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(target, { DEMO_CREATE_RATE_LIMIT: '100000' });
  });
  afterAll(async () => t?.close());

  async function trader(): Promise<{ token: string; userId: number }> {
    const created = await call(t, 'GET', '/api/user/createAccountDemoForU');
    expect(created.code).toBe(1);
    return { token: await t.ctx.services.sessions.create({ userId: created.data.id }), userId: created.data.id };
  }
  const idOf = (code: string) => t.ctx.services.market.symbolByCode(code)!.id;
  const list = (token: string) => call(t, 'GET', '/v1/api/forex/favourites', {}, { token, lang: 'en' });
  const add = (token: string, forex_id: unknown) => call(t, 'POST', '/v1/api/forex/favourite/add', { forex_id }, { token, lang: 'en' });
  const remove = (token: string, forex_id: unknown) =>
    call(t, 'POST', '/v1/api/forex/favourite/remove', { forex_id }, { token, lang: 'en' });

  it('stars symbols in order, ignores a second star on the same symbol, and unstars', async () => {
    const { token } = await trader();
    expect(await list(token)).toMatchObject({ code: 1, data: [] });
    expect((await add(token, idOf('BTCUSDT'))).data).toEqual([idOf('BTCUSDT')]);
    expect((await add(token, idOf('EURUSD'))).data).toEqual([idOf('BTCUSDT'), idOf('EURUSD')]);
    const again = await add(token, idOf('BTCUSDT'));
    expect(again).toMatchObject({ code: 1, data: [idOf('BTCUSDT'), idOf('EURUSD')] });
    expect((await remove(token, idOf('BTCUSDT'))).data).toEqual([idOf('EURUSD')]);
    // Removing one that is not starred changes nothing.
    expect(await remove(token, idOf('BTCUSDT'))).toMatchObject({ code: 1, data: [idOf('EURUSD')] });
    expect((await list(token)).data).toEqual([idOf('EURUSD')]);
  });

  it("keeps each trader's list to its owner", async () => {
    const a = await trader();
    const b = await trader();
    await add(a.token, idOf('ETHUSDT'));
    expect((await list(b.token)).data).toEqual([]);
    await remove(b.token, idOf('ETHUSDT'));
    expect((await list(a.token)).data).toEqual([idOf('ETHUSDT')]);
  });

  it('asks for a session, and refuses an unknown symbol', async () => {
    expect((await list('')).code).not.toBe(1);
    expect((await call(t, 'POST', '/v1/api/forex/favourite/add', { forex_id: idOf('EURUSD') })).code).not.toBe(1);
    const { token } = await trader();
    const unknown = await add(token, 99999);
    expect(unknown.code).not.toBe(1);
    expect(unknown.msg).toBe('This symbol does not exist');
    expect((await add(token, 'abc')).code).not.toBe(1);
    expect((await list(token)).data).toEqual([]);
  });

  it(`refuses a new star past ${MAX_FAVOURITES}, while re-starring a kept one still answers the list`, async () => {
    const { token, userId } = await trader();
    await add(token, idOf('EURUSD'));
    // The seed has a few dozen symbols: fill the rest of the list directly.
    await t.ctx.db
      .insert(favouritesTable)
      .values(Array.from({ length: MAX_FAVOURITES - 1 }, (_, i) => ({ userId, symbolId: 100_000 + i })));
    const full = await add(token, idOf('BTCUSDT'));
    expect(full.code).not.toBe(1);
    expect(full.msg).toBe(`You can keep at most ${MAX_FAVOURITES} favourites`);
    const kept = await add(token, idOf('EURUSD'));
    expect(kept.code).toBe(1);
    expect(kept.data).toHaveLength(MAX_FAVOURITES);
    expect(kept.data).not.toContain(idOf('BTCUSDT'));
  });
});
