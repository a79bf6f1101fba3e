import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dec } from '@tp/contract/decimal';
import { call, dbTargets, type TestApp } from '../../../test/test-app.ts';
import { expectAuditClean, symbolId, tick, tradingApp } from '../../../test/trading/test-kit.ts';
import { cashOf, fund, newUser, staffToken, type TestUser } from '../funding/test-helpers.ts';
import { and, eq } from 'drizzle-orm';
import { settings } from '../../platform/db/platform-schema.ts';
import { actingAs, concernsCopies, Copier, copyLots } from './copier.ts';
import { copyLinks, copySubscriptions } from './schema.ts';
import { SUB_FEE_PERIOD_MS } from './sub-fees.ts';

const BTC = 'BTCUSDT';

describe('copy allocation', () => {
  const sym = { step: dec('0.01'), minLots: dec('0.01') };
  it.each([
    { mode: 'ratio', value: '0.5', maxLot: null, lots: '1', equity: '0', want: '0.5' },
    { mode: 'ratio', value: '0.5', maxLot: '0.3', lots: '1', equity: '0', want: '0.3' },
    { mode: 'ratio', value: '0.333', maxLot: null, lots: '0.1', equity: '0', want: '0.03' },
    { mode: 'ratio', value: '0.05', maxLot: null, lots: '0.1', equity: '0', want: null },
    { mode: 'amount', value: '50000', maxLot: null, lots: '1', equity: '99977', want: '0.5' },
    { mode: 'amount', value: '1000', maxLot: null, lots: '2', equity: '100000', want: '0.02' },
    { mode: 'amount', value: '100', maxLot: null, lots: '2', equity: '100000', want: null },
    { mode: 'amount', value: '200000', maxLot: '1.5', lots: '1', equity: '100000', want: '1.5' },
    { mode: 'amount', value: '1000', maxLot: null, lots: '1', equity: '0', want: null },
  ])('$mode $value of $lots lots (provider equity $equity, max $maxLot) copies $want', ({ mode, value, maxLot, lots, equity, want }) => {
    const got = copyLots({ mode, value, maxLot }, dec(lots), dec(equity), sym);
    expect(got === null ? null : got.toString()).toBe(want);
  });
});

describe('which order changes start a copier run', () => {
  const watched = new Set([7, 9]);
  it.each([
    { changes: [7], watched, runs: true },
    { changes: [3, 9], watched, runs: true },
    { changes: [3, 4], watched, runs: false },
    { changes: [], watched, runs: false },
    // Another server's change (users unknown), or before the first run has read the subscriptions.
    { changes: null, watched, runs: true },
    { changes: [3], watched: null, runs: true },
    { changes: [3], watched: new Set<number>(), runs: false },
  ])('$changes with $watched: $runs', ({ changes, watched: w, runs }) => {
    expect(concernsCopies(changes, w)).toBe(runs);
  });
});

describe.each(dbTargets)('copy trading on %s', (target) => {
  let t: TestApp;
  let btc: number;
  beforeAll(async () => {
    t = await tradingApp(target);
    btc = symbolId(t, BTC);
  });
  afterAll(async () => t?.close());

  const post = (u: TestUser, path: string, body: Record<string, unknown>) => call(t, 'POST', path, body, { token: u.token });
  const get = (u: TestUser | null, path: string, params: Record<string, unknown> = {}) => call(t, 'GET', path, params, { token: u?.token });
  /** A whole copier pass that starts after this call (the one under way, if any, is followed by another). */
  const run = () => t.ctx.services.social.copy.copier.kick();
  /** One pass, side by side with any other. */
  const runNow = () => t.ctx.services.social.copy.copier.runOnce();
  const submit = (u: TestUser, params: Record<string, unknown>) =>
    call(t, 'GET', '/v1/api/forex/submit', { forex_id: btc, status: 1, multiple: 10, ...params }, { token: u.token });
  const deals = async (u: TestUser, status: number) => (await get(u, '/v1/api/forex/my_deal', { status, page: 1 })).data;
  const mine = async (u: TestUser) => (await get(u, '/api/follow/mine')).data;
  /** A provider opted in through the service (the call itself is tested once: calls are rate-limited per address). */
  const provider = async (fee = '0') => {
    const p = await newUser(t, { balance: '100000' });
    await t.ctx.services.social.copy.enable(actingAs(p.id), { fee_pct: fee });
    return p;
  };
  const follow = async (u: TestUser, p: TestUser, terms: Record<string, unknown>) => {
    const res = await post(u, '/api/follow/subscribe', { provider_id: p.id, ...terms });
    expect(res.code, res.msg).toBe(1);
    return res.data;
  };

  it('mirrors an open, a stop change, a partial close and a close in proportion; skips and records what does not pass', async () => {
    await tick(t, BTC, '94990', '95010');
    const p = await provider();
    expect((await post(p, '/api/follow/provider/enable', { fee_pct: '0' })).data).toMatchObject({ enabled: true, fee_pct: '0.00' });
    const byRatio = await newUser(t, { balance: '100000' });
    const byAmount = await newUser(t, { balance: '100000' });
    const poor = await newUser(t, { balance: '100' });
    await follow(byRatio, p, { ratio: '0.5', max_lot: '0.4' });
    await follow(byAmount, p, { amount: '50000' });
    await follow(poor, p, { ratio: '1' });

    const opened = await submit(p, { type: 1, cont: '1', target_profit_price: '99000', stop_loss_price: '90000' });
    expect(opened.code).toBe(1);
    await run();
    // Twice at once, and again: nothing is opened twice.
    // A second server's copier (another instance on the same database) at the same time.
    const otherServer = new Copier(t.ctx);
    await Promise.all([runNow(), otherServer.runOnce(), runNow(), run()]);
    await run();
    // A crash between the copy's order and its link: the link is lost, the order is not copied again.
    const [lostLink] = await t.ctx.db
      .select()
      .from(copyLinks)
      .where(eq(copyLinks.followerOrderId, (await deals(byRatio, 1)).data[0].Id));
    await t.ctx.db.delete(copyLinks).where(eq(copyLinks.id, lostLink!.id));
    await run();
    const [relinked] = await t.ctx.db
      .select()
      .from(copyLinks)
      .where(and(eq(copyLinks.subscriptionId, lostLink!.subscriptionId), eq(copyLinks.providerOrderId, lostLink!.providerOrderId)));
    expect(relinked).toMatchObject({ followerOrderId: lostLink!.followerOrderId, state: 'open' });

    const ratioOpen = await deals(byRatio, 1);
    expect(ratioOpen.total).toBe(1);
    expect(ratioOpen.data[0]).toMatchObject({
      Quantity: '0.4',
      OrderType: 1,
      Multiple: 10,
      TargetProfitPrice: '99000.00',
      TargetLossPrice: '90000.00',
    });
    const amountOpen = await deals(byAmount, 1);
    expect(amountOpen.total).toBe(1);
    // 1 lot x 50,000 / the provider's equity (99,977 after the open's fee and spread), rounded down to 0.01.
    expect(amountOpen.data[0]).toMatchObject({ Quantity: '0.5' });
    expect((await deals(poor, 1)).total).toBe(0);
    const poorView = (await mine(poor)).following[0];
    expect(poorView.copies).toEqual([
      expect.objectContaining({
        provider_order_id: opened.data.Id,
        state: 'skipped',
        reason: 'trading.insufficient_margin',
        follower_order_id: null,
      }),
    ]);

    // The provider sees the count and the assets, never who.
    const summary = (await mine(p)).provider;
    expect(summary).toEqual({
      provider_id: p.id,
      enabled: true,
      fee_pct: '0.00',
      followers: 3,
      follower_assets: expect.any(String),
      fees_earned: '0.000000',
      sub_fee: '0.00',
      sub_fees_earned: '0.000000',
      suspended: false,
    });
    expect(JSON.stringify(await mine(p))).not.toContain(String(byRatio.id));

    expect(
      (await get(p, '/v1/api/forex/set_stop_price', { id: opened.data.Id, target_profit_price: '100000', stop_loss_price: '91000' })).code,
    ).toBe(1);
    await run();
    expect((await deals(byRatio, 1)).data[0]).toMatchObject({ TargetProfitPrice: '100000.00', TargetLossPrice: '91000.00' });
    expect((await deals(byAmount, 1)).data[0]).toMatchObject({ TargetProfitPrice: '100000.00', TargetLossPrice: '91000.00' });

    expect((await get(p, '/v1/api/forex/close', { id: opened.data.Id, cont: '0.5' })).code).toBe(1);
    await run();
    await run();
    expect((await deals(byRatio, 1)).data[0]).toMatchObject({ Quantity: '0.2' });
    expect((await deals(byAmount, 1)).data[0]).toMatchObject({ Quantity: '0.25' });
    // Closed by the copy (closed_type 7), not by the follower (1).
    expect((await deals(byRatio, 3)).data[0]).toMatchObject({ Quantity: '0.2', Status: 3, ClosedType: 7 });

    expect((await get(p, '/v1/api/forex/close', { id: opened.data.Id })).code).toBe(1);
    await run();
    expect((await deals(byRatio, 1)).total).toBe(0);
    expect((await deals(byAmount, 1)).total).toBe(0);
    expect((await deals(byAmount, 3)).total).toBe(2);
    expect((await deals(byAmount, 3)).data.map((o: { ClosedType: number }) => o.ClosedType)).toEqual([7, 7]);
    const view = (await mine(byAmount)).following[0];
    expect(view.copies).toEqual([expect.objectContaining({ state: 'closed', lots: '0.5' })]);
    await expectAuditClean(t);
  });

  it('copies only positions opened after the subscription; refuses self, unknown and both or neither allocation', async () => {
    await tick(t, BTC, '94990', '95010');
    const p = await provider();
    const before = await submit(p, { type: 2, cont: '0.1' });
    expect(before.code).toBe(1);
    const f = await newUser(t, { balance: '50000' });
    expect((await post(p, '/api/follow/subscribe', { provider_id: p.id, ratio: '1' })).code).not.toBe(1);
    expect((await post(f, '/api/follow/subscribe', { provider_id: f.id + 1000, ratio: '1' })).code).not.toBe(1);
    expect((await post(f, '/api/follow/subscribe', { provider_id: p.id, ratio: '1', amount: '10' })).code).not.toBe(1);
    expect((await post(f, '/api/follow/subscribe', { provider_id: p.id })).code).not.toBe(1);
    await follow(f, p, { ratio: '1' });
    await run();
    expect((await deals(f, 1)).total).toBe(0);
    const after = await submit(p, { type: 2, cont: '0.1' });
    await run();
    expect((await deals(f, 1)).data).toEqual([expect.objectContaining({ Quantity: '0.1', OrderType: 2 })]);
    await get(p, '/v1/api/forex/close', { id: before.data.Id });
    await get(p, '/v1/api/forex/close', { id: after.data.Id });
    await run();
    expect((await deals(f, 1)).total).toBe(0);
  });

  it('staff’s minimum track record for providers; a cap on traders followed', async () => {
    await t.ctx.db.insert(settings).values({ key: 'copy_provider_min_trades', value: '2' });
    const fresh = await newUser(t, { balance: '1000' });
    const refused = await post(fresh, '/api/follow/provider/enable', {});
    expect(refused).toMatchObject({ code: 0, msg: 'At least 2 closed trades are needed to be copied' });
    await t.ctx.db.delete(settings).where(eq(settings.key, 'copy_provider_min_trades'));
    expect((await post(fresh, '/api/follow/provider/enable', {})).code).toBe(1);

    const f = await newUser(t, { balance: '1000' });
    const providers = [];
    for (let i = 0; i < 21; i++) providers.push(await provider());
    for (const p of providers.slice(0, 20)) await t.ctx.services.social.copy.subscribe(actingAs(f.id), { provider_id: p.id, ratio: '1' });
    const over = await post(f, '/api/follow/subscribe', { provider_id: providers[20]!.id, ratio: '1' });
    expect(over.msg).toBe('You copy the most traders allowed (20)');
    await t.ctx.services.social.copy.unsubscribe(actingAs(f.id), { provider_id: providers[0]!.id });
    await t.ctx.services.social.copy.subscribe(actingAs(f.id), { provider_id: providers[20]!.id, ratio: '1' });
    for (const p of providers.slice(1)) await t.ctx.services.social.copy.unsubscribe(actingAs(f.id), { provider_id: p.id });
  });

  it('copy stop-loss: the copy equity falls by the percent, copying stops and the copies are closed', async () => {
    await tick(t, BTC, '94990', '95010');
    const p = await provider();
    const f = await newUser(t, { balance: '20000' });
    await follow(f, p, { ratio: '1', copy_stop_loss: '10' });
    const opened = await submit(p, { type: 1, cont: '1' });
    await run();
    expect((await deals(f, 1)).total).toBe(1);
    await tick(t, BTC, '93990', '94010');
    await run();
    expect((await mine(f)).following[0]).toMatchObject({ status: 'active' });
    // -2,020 and the 3 fee: equity 17,977 <= 18,000.
    await tick(t, BTC, '92990', '93010');
    await run();
    expect((await mine(f)).following[0]).toMatchObject({ status: 'stopped', stop_reason: 'copy_stop_loss' });
    expect((await deals(f, 1)).total).toBe(0);
    expect((await deals(f, 3)).data).toEqual([expect.objectContaining({ Status: 3, ClosedType: 8 })]);
    // A close the follower did not make: they are told.
    const told = (await get(f, '/v1/api/forex/notices', { page: 1 })).data.data;
    expect(told).toEqual([
      expect.objectContaining({ kind: 'copy_close', symbol: expect.any(String), profit: expect.stringMatching(/^-/) }),
    ]);
    // Stopped: the provider's next trade is not copied.
    await submit(p, { type: 1, cont: '0.1' });
    await run();
    expect((await deals(f, 1)).total).toBe(0);
    expect((await deals(p, 1)).data.map((o: { Id: number }) => o.Id)).toContain(opened.data.Id);
    await expectAuditClean(t);
  });

  it('unfollow closes the copies or keeps them as the follower’s own; pause stops new copies only', async () => {
    await tick(t, BTC, '94990', '95010');
    const p = await provider();
    const closer = await newUser(t, { balance: '50000' });
    const keeper = await newUser(t, { balance: '50000' });
    const pauser = await newUser(t, { balance: '50000' });
    for (const f of [closer, keeper, pauser]) await follow(f, p, { ratio: '1' });
    const first = await submit(p, { type: 1, cont: '0.1' });
    await run();
    for (const f of [closer, keeper, pauser]) expect((await deals(f, 1)).total).toBe(1);

    expect((await post(closer, '/api/follow/unsubscribe', { provider_id: p.id, close_positions: 1 })).data).toMatchObject({
      status: 'stopped',
    });
    expect((await post(keeper, '/api/follow/unsubscribe', { provider_id: p.id, close_positions: 0 })).data).toMatchObject({
      status: 'stopped',
    });
    expect((await post(pauser, '/api/follow/pause', { provider_id: p.id, paused: 1 })).data).toMatchObject({ status: 'paused' });
    expect((await deals(closer, 1)).total).toBe(0);
    expect((await deals(closer, 3)).data).toEqual([expect.objectContaining({ Status: 3, ClosedType: 9 })]);
    expect((await deals(keeper, 1)).total).toBe(1);

    await submit(p, { type: 1, cont: '0.2' });
    await run();
    expect((await deals(pauser, 1)).total).toBe(1);
    await get(p, '/v1/api/forex/close', { id: first.data.Id });
    await run();
    // The kept copy is the follower's own now; the paused one still follows the close.
    expect((await deals(keeper, 1)).total).toBe(1);
    expect((await deals(pauser, 1)).total).toBe(0);
    expect((await mine(keeper)).following[0].copies).toEqual([expect.objectContaining({ state: 'detached' })]);
    await expectAuditClean(t);
  });

  it('the performance fee over several periods: only new profit above the high-water mark, once per period', async () => {
    await tick(t, BTC, '94990', '95010');
    const p = await provider('20');
    const f = await newUser(t, { balance: '50000' });
    await follow(f, p, { ratio: '1' });
    const admin = await staffToken(t, ['admin']);
    const settle = (period: string) => call(t, 'POST', '/api/admin/follow/settle_fees', { period }, { token: admin });
    const trade = async (closeBid: string) => {
      await tick(t, BTC, '94990', '95010');
      const o = await submit(p, { type: 1, cont: '0.1' });
      await run();
      await tick(t, BTC, closeBid, dec(closeBid).plus(20).toString());
      await get(p, '/v1/api/forex/close', { id: o.data.Id });
      await run();
    };
    const cash = async (u: TestUser) => (await t.ctx.services.ledger.balances(t.ctx.db, u.id)).balance;

    // Period 1: +100 a coin on 0.1 lot, less the 0.3 fee: 9.7 realised, fee 20% = 1.94.
    await trade('95110');
    let fBefore = await cash(f);
    let pBefore = await cash(p);
    expect((await settle('p1')).data).toMatchObject({ charged: 1, total: '1.940000' });
    expect((await settle('p1')).data).toMatchObject({ charged: 0 });
    expect((await cash(f)).toString()).toBe(fBefore.minus('1.94').toString());
    expect((await cash(p)).toString()).toBe(pBefore.plus('1.94').toString());
    // Period 2: a loss (-5 -0.3): below the mark, no fee.
    await trade('94960');
    expect((await settle('p2')).data).toMatchObject({ charged: 0 });
    // Period 3: +200 a coin (20 - 0.3): realised 24.1, above the mark 9.7 by 14.4: fee 2.88.
    fBefore = await cash(f);
    await trade('95210');
    const afterTrade = await cash(f);
    pBefore = await cash(p);
    expect((await settle('p3')).data).toMatchObject({ charged: 1, total: '2.880000' });
    expect((await cash(f)).toString()).toBe(afterTrade.minus('2.88').toString());
    expect((await cash(p)).toString()).toBe(pBefore.plus('2.88').toString());
    expect(fBefore.lt(afterTrade)).toBe(true);
    expect((await mine(f)).following[0]).toMatchObject({ high_water_mark: '24.100000', fees_paid: '4.820000', realised: '24.100000' });
    expect((await mine(p)).provider).toMatchObject({ fees_earned: '4.820000' });
    await expectAuditClean(t);
  });

  it('the subscription fee: confirmed, charged at subscription and once per 30 days under races and retries; unpaid pauses with a notice', async () => {
    await tick(t, BTC, '94990', '95010');
    const p = await provider();
    await t.ctx.services.social.copy.enable(actingAs(p.id), { sub_fee: '25' });
    expect((await get(null, '/api/follow/profile', { id: p.id })).data).toMatchObject({ sub_fee: '25.00' });
    const f = await newUser(t, { balance: '1000' });
    // Never charged unseen: the fee must be confirmed, and as it is now.
    const unconfirmed = await post(f, '/api/follow/subscribe', { provider_id: p.id, ratio: '1' });
    expect(unconfirmed).toMatchObject({
      code: 0,
      msg: 'This trader charges a subscription fee of 25.00 USD per 30 days: confirm it to copy',
    });
    expect((await post(f, '/api/follow/subscribe', { provider_id: p.id, ratio: '1', accept_sub_fee: '20' })).code).toBe(0);
    expect(await cashOf(t, f.id)).toBe('1000');

    const pBefore = dec(await cashOf(t, p.id));
    // Twice at once (a double tap) and once more (a retry): the first period is paid once.
    const [a, b] = await Promise.all([
      post(f, '/api/follow/subscribe', { provider_id: p.id, ratio: '1', accept_sub_fee: '25' }),
      post(f, '/api/follow/subscribe', { provider_id: p.id, ratio: '1', accept_sub_fee: '25.00' }),
    ]);
    expect([a.code, b.code]).toEqual([1, 1]);
    const sub = await follow(f, p, { ratio: '1', accept_sub_fee: '25' });
    expect(sub).toMatchObject({ status: 'active', sub_fee: '25.00', sub_fees_paid: '25.000000' });
    const paidUntil = Date.parse(sub.paid_until);
    expect(Math.abs(paidUntil - Date.now() - SUB_FEE_PERIOD_MS)).toBeLessThan(60_000);
    expect(await cashOf(t, f.id)).toBe('975');
    expect((await cashOf(t, p.id)).toString()).toBe(pBefore.plus(25).toString());

    // 30 days pass (the period paid ends a second ago).
    const periodEnds = async (u: TestUser) => {
      const end = new Date(Date.now() - 1000);
      await t.ctx.db.update(copySubscriptions).set({ paidUntil: end }).where(eq(copySubscriptions.followerId, u.id));
      return end.getTime();
    };
    // The next period: the renewal on two servers, a direct charge and another renewal at once charge it once.
    const ended = await periodEnds(f);
    const [row] = await t.ctx.db.select().from(copySubscriptions).where(eq(copySubscriptions.followerId, f.id));
    const fees = t.ctx.services.social.copy.subFees;
    await Promise.all([fees.renewDue(), fees.renewDue(), fees.chargeIfDue(row!.id), fees.renewDue()]);
    await fees.renewDue();
    expect(await cashOf(t, f.id)).toBe('950');
    const renewed = (await mine(f)).following[0];
    expect(renewed).toMatchObject({ status: 'active', sub_fees_paid: '50.000000' });
    // Back to back: the second period starts where the first ended.
    expect(Date.parse(renewed.paid_until)).toBe(ended + SUB_FEE_PERIOD_MS);
    expect((await mine(p)).provider).toMatchObject({ sub_fee: '25.00', sub_fees_earned: '50.000000', followers: 1 });

    // A follower who cannot pay the next period is paused (nothing new copied) and told, once.
    const poor = await newUser(t, { balance: '30' });
    await follow(poor, p, { ratio: '0.01', accept_sub_fee: '25' });
    expect(await cashOf(t, poor.id)).toBe('5');
    await periodEnds(poor);
    expect(await fees.renewDue()).toMatchObject({ unpaid: 1 });
    expect(await fees.renewDue()).toMatchObject({ unpaid: 0 });
    expect((await mine(poor)).following[0]).toMatchObject({ status: 'paused', stop_reason: 'fee_unpaid', sub_fees_paid: '25.000000' });
    const notices = (await get(poor, '/v1/api/forex/notices', { page: 1 })).data;
    expect(notices.data.filter((n: { kind: string }) => n.kind === 'copy_fee_unpaid')).toEqual([
      expect.objectContaining({ kind: 'copy_fee_unpaid', amount: '25.00', currency: 'USD' }),
    ]);
    const o = await submit(p, { type: 1, cont: '1' });
    await run();
    expect((await deals(poor, 1)).total).toBe(0);
    // Resuming pays the period first: refused while the money is not there, then paid once.
    expect(await post(poor, '/api/follow/pause', { provider_id: p.id, paused: 0 })).toMatchObject({
      code: 0,
      msg: 'Your balance or free margin does not cover the subscription fee',
    });
    await fund(t, poor.id, '100');
    expect((await post(poor, '/api/follow/pause', { provider_id: p.id, paused: 0 })).data).toMatchObject({
      status: 'active',
      stop_reason: null,
      sub_fees_paid: '50.000000',
    });
    expect(await cashOf(t, poor.id)).toBe('80');
    await get(p, '/v1/api/forex/close', { id: o.data.Id });
    await run();
    await expectAuditClean(t);
  });

  it('the back office: providers with followers, assets and fees; risk suspends and resumes copying and sets the minimum track record', async () => {
    await tick(t, BTC, '94990', '95010');
    const support = await staffToken(t, ['support']);
    const risk = await staffToken(t, ['risk']);
    const staffCall = (token: string, method: 'GET' | 'POST', path: string, body: Record<string, unknown> = {}) =>
      call(t, method, path, body, { token });
    // A fresh install needs no track record.
    expect((await staffCall(support, 'GET', '/api/admin/follow/providers')).data.min_trades).toBe(0);

    const p = await provider('10');
    await t.ctx.services.social.copy.enable(actingAs(p.id), { sub_fee: '5' });
    const f = await newUser(t, { balance: '10000' });
    await follow(f, p, { amount: '4000', accept_sub_fee: '5' });
    const list = await staffCall(support, 'GET', '/api/admin/follow/providers', { page: 1, limit: 50 });
    expect(list.code).toBe(1);
    expect(list.data.data.find((r: { provider_id: number }) => r.provider_id === p.id)).toMatchObject({
      uid: expect.any(String),
      enabled: true,
      suspended: false,
      followers: 1,
      assets_copied: '4000.000000',
      fee_pct: '10.00',
      sub_fee: '5.00',
      fees_earned: '0.000000',
      sub_fees_earned: '5.000000',
    });

    // Only risk (or admin) suspends; support may only look; a trader not at all.
    expect((await staffCall(support, 'POST', '/api/admin/follow/providers/suspend', { provider_id: p.id, suspended: 1 })).code).toBe(1003);
    expect((await call(t, 'GET', '/api/admin/follow/providers', {}, { token: f.token })).code).not.toBe(1);
    const suspended = await staffCall(risk, 'POST', '/api/admin/follow/providers/suspend', { provider_id: p.id, suspended: 1 });
    expect(suspended.data).toMatchObject({ provider_id: p.id, suspended: true });
    expect((await mine(f)).following[0]).toMatchObject({ status: 'paused', stop_reason: 'provider_suspended' });
    expect((await mine(p)).provider).toMatchObject({ suspended: true });
    // Nothing new is copied, nobody new subscribes, the follower cannot resume it, the profile is not copyable.
    const o = await submit(p, { type: 1, cont: '1' });
    await run();
    expect((await deals(f, 1)).total).toBe(0);
    const other = await newUser(t, { balance: '10000' });
    expect((await post(other, '/api/follow/subscribe', { provider_id: p.id, ratio: '1', accept_sub_fee: '5' })).code).not.toBe(1);
    expect((await post(f, '/api/follow/pause', { provider_id: p.id, paused: 0 })).msg).toBe(
      'Copying this trader is suspended by the broker',
    );
    expect((await get(f, '/api/follow/profile', { id: p.id })).data.stats.copyable).toBe(false);
    await get(p, '/v1/api/forex/close', { id: o.data.Id });

    expect((await staffCall(risk, 'POST', '/api/admin/follow/providers/suspend', { provider_id: p.id, suspended: 0 })).data).toMatchObject({
      suspended: false,
      followers: 1,
    });
    expect((await mine(f)).following[0]).toMatchObject({ status: 'active', stop_reason: null });
    await submit(p, { type: 1, cont: '1' });
    await run();
    expect((await deals(f, 1)).total).toBe(1);

    // The minimum track record: risk sets it, the opt-in follows it; back to none.
    expect((await staffCall(support, 'POST', '/api/admin/follow/settings', { min_trades: 3 })).code).toBe(1003);
    expect((await staffCall(risk, 'POST', '/api/admin/follow/settings', { min_trades: 1001 })).code).not.toBe(1);
    expect((await staffCall(risk, 'POST', '/api/admin/follow/settings', { min_trades: 3 })).data).toEqual({ min_trades: 3 });
    const fresh = await newUser(t, { balance: '1000' });
    expect((await post(fresh, '/api/follow/provider/enable', {})).msg).toBe('At least 3 closed trades are needed to be copied');
    expect((await staffCall(risk, 'POST', '/api/admin/follow/settings', { min_trades: 0 })).data).toEqual({ min_trades: 0 });
    expect((await post(fresh, '/api/follow/provider/enable', {})).code).toBe(1);
    await post(f, '/api/follow/unsubscribe', { provider_id: p.id, close_positions: 1 });
    await expectAuditClean(t);
  });

  it('a provider closing while the followers’ stop-losses fire: every copy closes once', async () => {
    await tick(t, BTC, '94990', '95010');
    const p = await provider();
    const followers = await Promise.all([1, 2, 3, 4].map(() => newUser(t, { balance: '50000' })));
    for (const f of followers) await follow(f, p, { ratio: '1' });
    const opened = await submit(p, { type: 1, cont: '0.1', stop_loss_price: '94000' });
    await run();
    for (const f of followers) expect((await deals(f, 1)).data[0]).toMatchObject({ TargetLossPrice: '94000.00' });
    await Promise.all([tick(t, BTC, '93990', '94010', false), get(p, '/v1/api/forex/close', { id: opened.data.Id }), runNow(), runNow()]);
    await t.ctx.services.trading.engine.idle();
    await run();
    for (const f of followers) {
      expect((await deals(f, 1)).total).toBe(0);
      expect((await deals(f, 3)).total).toBe(1);
      expect((await mine(f)).following[0].copies).toEqual([expect.objectContaining({ state: 'closed' })]);
    }
    await expectAuditClean(t);
  });

  it('the documentary list and the profile show real statistics and the equity curve', async () => {
    const p = await provider('10');
    await tick(t, BTC, '94990', '95010');
    for (const bid of ['95110', '94890', '95310']) {
      await tick(t, BTC, '94990', '95010');
      const o = await submit(p, { type: 1, cont: '0.1' });
      await tick(t, BTC, bid, dec(bid).plus(20).toString());
      await get(p, '/v1/api/forex/close', { id: o.data.Id });
    }
    const f = await newUser(t, { balance: '50000' });
    await follow(f, p, { ratio: '1' });
    const profile = await get(f, '/api/follow/profile', { id: p.id });
    expect(profile.code).toBe(1);
    // Opened at the ask 95,010: profits +10, -12, +30 (0.1 lot): cumulative 10, -2, 28; the fall 12 of a total margin 3 x 950.1.
    expect(profile.data.equity_curve.map((x: { value: string }) => x.value)).toEqual(['10.000000', '-2.000000', '28.000000']);
    expect(profile.data).toMatchObject({ fee_pct: '10.00', following: true });
    expect(profile.data.stats).toMatchObject({
      id: p.id,
      total_trade_num: 3,
      three_week_win: '66.67',
      followers: 1,
      copyable: true,
      max_drawdown: percentOfText('12', dec('950.1').mul(3).toString()),
    });
    expect(profile.data.stats.avg_hold_seconds).toBeGreaterThanOrEqual(0);
    expect((await get(null, '/api/follow/profile', { id: 999_999 })).code).not.toBe(1);
  });
});

function percentOfText(part: string, whole: string): string {
  return dec(part).div(whole).mul(100).toFixed(2);
}
