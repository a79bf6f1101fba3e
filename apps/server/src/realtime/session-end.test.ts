import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allowNewCode, callFrom, latestCode, randomIp, registerByEmail, staffSession } from '../../test/auth-helpers.ts';
import { call, createTestApp, dbTargets, type TestApp } from '../../test/test-app.ts';
import { hashToken } from '../modules/auth/session-service.ts';
import { sessions, staff } from '../platform/db/schema.ts';
import { TestClient, type WsMessage } from './ws-test-client.ts';
import { BusChannels } from '../platform/bus-channels.ts';

/**
 * A socket logged in with a session stops getting that session's pushes the moment the session
 * ends, whatever ended it, and is told why with a `session_ended` push.
 */
describe.each(dbTargets)('a session ends on its sockets on %s', (target) => {
  let t: TestApp;
  let url: string;
  const clients: TestClient[] = [];
  beforeAll(async () => {
    t = await createTestApp(target, { WS_FLUSH_MS: '50' });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    url = `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/v1/ws?lang=en`;
  });
  afterAll(async () => {
    for (const c of clients) c.close();
    await t?.close();
  });

  /** A socket logged in with the token and subscribed to the user's topics. */
  const listening = async (token: string, topics = ['FOREX_TRADE', 'CHAT']) => {
    const c = await TestClient.connect(url);
    clients.push(c);
    expect(await c.request({ type: 'login', params: token }, 'login_result')).toMatchObject({ code: 1 });
    for (const topic of topics) expect(await c.request({ type: 'sub', params: topic }, 'sub_result')).toMatchObject({ code: 1 });
    return c;
  };
  const isEnded = (m: WsMessage | string) => typeof m === 'object' && m.type === 'session_ended';
  const push = (userId: number) => {
    t.ctx.bus.publish(BusChannels.userChannel(userId), { type: 'FOREX_TRADE', To: userId, HazardRate: '500.00', TransOrder: [] });
    t.ctx.bus.publish(BusChannels.userChannel(userId), { type: 'CHAT', message: { id: 1, sender: 'staff', body: 'hi' } });
  };
  /** What reaches the socket after the session ended: nothing of the user's. */
  const expectSilent = async (c: TestClient, userId: number) => {
    const from = c.messages.length;
    push(userId);
    await new Promise((r) => setTimeout(r, 150));
    expect([...c.ofType('FOREX_TRADE', from), ...c.ofType('CHAT', from)]).toEqual([]);
  };

  it('logout ends the login on every socket of that session, and only that session', async () => {
    const { token, user, email, password } = await registerByEmail(t);
    const other = (await callFrom(t, randomIp(), 'POST', '/api/user/loginForU', { account: email, password, login_type: 'email' })).data.token as string;
    const [a, b, c] = [await listening(token), await listening(token), await listening(other)];
    push(user.id);
    for (const s of [a, b, c]) await s.next((m) => typeof m === 'object' && m.type === 'CHAT');

    expect((await call(t, 'POST', '/api/user/logout', {}, { token })).code).toBe(1);
    for (const s of [a, b]) expect(await s.next(isEnded)).toMatchObject({ type: 'session_ended', reason: 'logout', msg: 'You have logged out.' });
    await expectSilent(a, user.id);
    await expectSilent(b, user.id);
    // The other session of the same user still gets its pushes.
    const from = c.messages.length;
    push(user.id);
    await c.next((m) => typeof m === 'object' && m.type === 'FOREX_TRADE', 3000, from);
    expect(c.ofType('session_ended')).toEqual([]);
    // The socket stays open and can log in again.
    expect(a.closed).toBeNull();
    expect(await a.request({ type: 'login', params: token }, 'login_result')).toMatchObject({ code: 999 });
  });

  it('a password reset ends every session on its sockets', async () => {
    const { token, user, email } = await registerByEmail(t);
    const c = await listening(token);
    const ip = randomIp();
    await allowNewCode(t, email);
    expect((await callFrom(t, ip, 'POST', '/api/notify/send_email', { to: email, type: 2 })).code).toBe(1);
    const reset = await callFrom(t, ip, 'POST', '/api/user/forget_password', {
      type: 'email',
      account: email,
      new_password: 'Another-Desk-77',
      secondary_password: 'Another-Desk-77',
      auth_code: await latestCode(t, email),
    });
    expect(reset.code).toBe(1);
    expect(await c.next(isEnded)).toMatchObject({ reason: 'password_changed' });
    await expectSilent(c, user.id);
  });

  it('staff disabling a user ends the user’s sockets', async () => {
    const { token, user } = await registerByEmail(t);
    const c = await listening(token);
    const admin = await staffSession(t, ['admin']);
    expect((await call(t, 'POST', '/api/admin/users/status', { user_id: user.id, status: 0 }, { token: admin })).code).toBe(1);
    expect(await c.next(isEnded)).toMatchObject({ reason: 'disabled', msg: 'This account has been disabled.' });
    await expectSilent(c, user.id);
  });

  it('staff disabling a staff member ends that member’s support desk socket', async () => {
    const admin = await staffSession(t, ['admin']);
    const agent = await staffSession(t, ['support']);
    const desk = await listening(agent, ['SUPPORT']);
    const me = (await call(t, 'GET', '/api/admin/me', {}, { token: agent })).data as { id: number };
    expect((await call(t, 'POST', '/api/admin/staff/status', { id: me.id, status: 0 }, { token: admin })).code).toBe(1);
    expect(await desk.next(isEnded)).toMatchObject({ reason: 'disabled' });
    const from = desk.messages.length;
    t.ctx.bus.publish('push:staff:support', { type: 'CHAT', user_id: 1, message: { id: 2, body: 'secret' } });
    await new Promise((r) => setTimeout(r, 150));
    expect(desk.ofType('CHAT', from)).toEqual([]);
    expect((await t.ctx.db.select().from(staff).where(eq(staff.id, me.id)))[0]!.status).toBe(0);
  });

  it('an expired session gets no pushes: the socket is told it expired', async () => {
    const { user } = await registerByEmail(t);
    const token = randomBytes(32).toString('base64url');
    await t.ctx.db.insert(sessions).values({ userId: user.id, tokenHash: hashToken(token), expiresAt: new Date(Date.now() + 1_500) });
    const c = await listening(token);
    await new Promise((r) => setTimeout(r, 1_600));
    push(user.id);
    expect(await c.next(isEnded)).toMatchObject({ reason: 'expired', msg: 'Your session has expired. Please log in again.' });
    await expectSilent(c, user.id);
  });
});
