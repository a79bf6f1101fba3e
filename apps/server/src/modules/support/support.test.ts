import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, dbTargets, type TestApp } from '../../../test/test-app.ts';
import { chatMessages, staff, staffAuditLog, uploads } from '../../platform/db/schema.ts';
import { insertUser } from '../auth/user-repository.ts';
import { BusChannels } from '../../platform/bus-channels.ts';

describe.each(dbTargets)('support chat and feedback on %s', (target) => {
  let t: TestApp;
  let desk: string;
  beforeAll(async () => {
    t = await createTestApp(target);
    desk = await staffToken(['support']);
  });
  afterAll(async () => t?.close());

  const staffToken = async (roles: string[]) => {
    const [row] = await t.ctx.db
      .insert(staff)
      .values({ email: `s${Math.random()}@staff.test`, name: 'Desk', passwordHash: 'x', roles })
      .returning();
    return t.ctx.services.sessions.create({ staffId: row!.id });
  };
  const newUser = async () => {
    const u = await insertUser(t.ctx.db, { email: `u${Math.random()}@example.com` });
    return { id: u.id, email: u.email!, token: await t.ctx.services.sessions.create({ userId: u.id }) };
  };
  const listen = (channel: string) => {
    const got: any[] = [];
    const off = t.ctx.bus.subscribe(channel, (m) => got.push(m));
    return { got, off };
  };

  it('carries a conversation between a user and the desk, with pushes to both sides and unread counts', async () => {
    const user = await newUser();
    const toUser = listen(BusChannels.userChannel(user.id));
    const toDesk = listen(BusChannels.staffSupport);

    const sent = await call(t, 'POST', '/api/support/send', { body: '  Hello, my deposit is late  ' }, { token: user.token });
    expect(sent.code).toBe(1);
    expect(sent.data).toEqual({
      id: expect.any(Number),
      sender: 'user',
      body: 'Hello, my deposit is late',
      image_url: null,
      created_at: expect.stringMatching(/Z$/),
    });
    expect(toUser.got).toEqual([{ type: 'CHAT', message: sent.data }]);
    expect(toDesk.got).toEqual([{ type: 'CHAT', user_id: user.id, message: sent.data }]);

    const convs = await call(t, 'GET', '/api/admin/support/conversations', {}, { token: desk });
    const mine = convs.data.data.find((c: { user_id: number }) => c.user_id === user.id);
    expect(mine).toMatchObject({ email: user.email, unread: 1, is_demo: 0, last_message: sent.data });
    expect(convs.data.data[0].user_id).toBe(user.id);

    const deskView = await call(t, 'GET', '/api/admin/support/history', { user_id: user.id }, { token: desk });
    expect(deskView.data).toEqual({ data: [sent.data], total: 1, has_more: false });
    const afterRead = await call(t, 'GET', '/api/admin/support/conversations', {}, { token: desk });
    expect(afterRead.data.data.find((c: { user_id: number }) => c.user_id === user.id).unread).toBe(0);

    const reply = await call(t, 'POST', '/api/admin/support/send', { user_id: user.id, body: 'We are checking it now.' }, { token: desk });
    expect(reply.data).toMatchObject({ sender: 'staff', body: 'We are checking it now.' });
    expect(toUser.got.at(-1)).toEqual({ type: 'CHAT', message: reply.data });
    expect(toDesk.got.at(-1)).toEqual({ type: 'CHAT', user_id: user.id, message: reply.data });

    expect((await call(t, 'GET', '/api/support/unread', {}, { token: user.token })).data).toEqual({ count: 1 });
    const history = await call(t, 'GET', '/api/support/history', {}, { token: user.token });
    expect(history.data).toEqual({ data: [sent.data, reply.data], total: 2, has_more: false });
    expect((await call(t, 'GET', '/api/support/unread', {}, { token: user.token })).data).toEqual({ count: 0 });

    const other = await newUser();
    expect((await call(t, 'GET', '/api/support/history', {}, { token: other.token })).data).toEqual({
      data: [],
      total: 0,
      has_more: false,
    });
    toUser.off();
    toDesk.off();
  });

  it('pages history backwards with before_id, oldest first within a page', async () => {
    const user = await newUser();
    const ids: number[] = [];
    for (let i = 1; i <= 5; i++) ids.push((await call(t, 'POST', '/api/support/send', { body: `m${i}` }, { token: user.token })).data.id);
    const last = await call(t, 'GET', '/api/support/history', { limit: 2 }, { token: user.token });
    expect(last.data.data.map((m: { body: string }) => m.body)).toEqual(['m4', 'm5']);
    expect(last.data).toMatchObject({ total: 5, has_more: true });
    const before = await call(t, 'GET', '/api/support/history', { limit: 2, before_id: ids[3] }, { token: user.token });
    expect(before.data.data.map((m: { body: string }) => m.body)).toEqual(['m2', 'm3']);
    const first = await call(t, 'GET', '/api/support/history', { limit: 2, before_id: ids[1] }, { token: user.token });
    expect(first.data).toMatchObject({ data: [{ body: 'm1' }], has_more: false });
  });

  it('attaches only images the sender uploaded, and refuses empty or oversized messages', async () => {
    const user = await newUser();
    const stranger = await newUser();
    await t.ctx.db.insert(uploads).values([
      { userId: user.id, key: `mine-${user.id}.jpg`, mime: 'image/jpeg', size: 100 },
      { userId: stranger.id, key: `theirs-${stranger.id}.png`, mime: 'image/png', size: 100 },
    ]);
    const withImage = await call(
      t,
      'POST',
      '/api/support/send',
      { image_url: `/uploads/mine-${user.id}.jpg?exp=1&sig=abc` },
      { token: user.token },
    );
    // Stored without the query it came with; given back signed afresh (an <img> has no authorization header).
    expect(withImage.data).toMatchObject({ body: '' });
    expect(withImage.data.image_url).toMatch(new RegExp(`^/uploads/mine-${user.id}\\.jpg\\?exp=\\d+&sig=[\\w-]+$`));
    expect(withImage.data.image_url).not.toContain('sig=abc');
    for (const image_url of [
      `/uploads/theirs-${stranger.id}.png`,
      'https://evil.example/x.png',
      '/uploads/../etc/passwd',
      'javascript:alert(1)',
      '/uploads/none.jpg',
    ]) {
      const res = await call(t, 'POST', '/api/support/send', { body: 'look', image_url }, { token: user.token, lang: 'en' });
      expect(res, image_url).toMatchObject({ code: 1001, msg: 'The image could not be attached. Please upload it again.' });
    }
    expect(await call(t, 'POST', '/api/support/send', { body: '   ' }, { token: user.token, lang: 'en' })).toMatchObject({
      code: 1001,
      msg: 'Type a message or attach an image',
    });
    expect(await call(t, 'POST', '/api/support/send', { body: 'x'.repeat(2001) }, { token: user.token, lang: 'en' })).toMatchObject({
      code: 1001,
      msg: 'A message can be at most 2000 characters',
    });
    expect((await call(t, 'POST', '/api/support/send', { body: 'x'.repeat(2000) }, { token: user.token })).code).toBe(1);
    expect((await call(t, 'POST', '/api/support/send', { body: 'hi' })).code).toBe(999);
    expect((await call(t, 'GET', '/api/support/history')).code).toBe(999);
    expect((await call(t, 'GET', '/api/support/unread')).code).toBe(999);

    const staffImage = await call(
      t,
      'POST',
      '/api/admin/support/send',
      { user_id: user.id, image_url: `/uploads/theirs-${stranger.id}.png` },
      { token: desk },
    );
    expect(staffImage.data.image_url).toMatch(new RegExp(`^/uploads/theirs-${stranger.id}\\.png\\?exp=\\d+&sig=`));
    expect((await call(t, 'POST', '/api/admin/support/send', { user_id: 999_999, body: 'hi' }, { token: desk })).code).toBe(1004);
    const stored = await t.ctx.db.select().from(chatMessages).where(eq(chatMessages.userId, user.id));
    expect(stored).toHaveLength(3);
  });

  it('stores feedback from visitors and users for the desk, resolved once and audited', async () => {
    const user = await newUser();
    const anon = await call(t, 'POST', '/api/feedback/submit', { content: '  The chart is great  ', contact: 'tg:@visitor' });
    expect(anon).toMatchObject({ code: 1, data: { id: expect.any(Number) } });
    const mine = await call(t, 'POST', '/api/feedback/submit', { content: 'Please add more pairs' }, { token: user.token });
    expect(mine.code).toBe(1);
    expect(await call(t, 'POST', '/api/feedback/submit', { content: ' ' }, { lang: 'en' })).toMatchObject({
      code: 1001,
      msg: 'Please describe your feedback',
    });
    expect(await call(t, 'POST', '/api/feedback/submit', {}, { lang: 'en' })).toMatchObject({
      code: 1001,
      msg: 'Please describe your feedback',
    });
    expect(await call(t, 'POST', '/api/feedback/submit', { content: 'x'.repeat(2001) }, { lang: 'en' })).toMatchObject({
      code: 1001,
      msg: 'Feedback can be at most 2000 characters',
    });
    expect(await call(t, 'POST', '/api/feedback/submit', { content: 'x', contact: 'c'.repeat(201) }, { lang: 'hk' })).toMatchObject({
      code: 1001,
      msg: '聯絡方式最多 200 個字元',
    });

    const list = await call(t, 'GET', '/api/admin/feedback/list', {}, { token: desk });
    expect(list.data.total).toBe(2);
    expect(list.data.data).toEqual([
      {
        id: mine.data.id,
        user_id: user.id,
        uid: expect.any(String),
        email: user.email,
        contact: '',
        content: 'Please add more pairs',
        status: 0,
        created_at: expect.any(String),
      },
      {
        id: anon.data.id,
        user_id: null,
        uid: '',
        email: '',
        contact: 'tg:@visitor',
        content: 'The chart is great',
        status: 0,
        created_at: expect.any(String),
      },
    ]);
    expect((await call(t, 'POST', '/api/admin/feedback/resolve', { id: anon.data.id }, { token: desk })).data).toEqual({
      id: anon.data.id,
      status: 1,
    });
    expect(await call(t, 'POST', '/api/admin/feedback/resolve', { id: anon.data.id }, { token: desk, lang: 'en' })).toMatchObject({
      code: 0,
      msg: 'This feedback has already been resolved',
    });
    expect((await call(t, 'POST', '/api/admin/feedback/resolve', { id: 999_999 }, { token: desk })).code).toBe(1004);
    expect(
      (await call(t, 'GET', '/api/admin/feedback/list', { status: 0 }, { token: desk })).data.data.map((f: { id: number }) => f.id),
    ).toEqual([mine.data.id]);
    expect(
      (await call(t, 'GET', '/api/admin/feedback/list', { status: 1 }, { token: desk })).data.data.map((f: { id: number }) => f.id),
    ).toEqual([anon.data.id]);
    const audit = await t.ctx.db.select().from(staffAuditLog).where(eq(staffAuditLog.action, 'feedback.resolve'));
    expect(audit.map((a) => a.targetId)).toEqual([String(anon.data.id)]);
  });

  it('refuses every desk call to traders and to staff without the support role', async () => {
    const user = await newUser();
    const content = await staffToken(['content', 'finance']);
    const calls: ['GET' | 'POST', string, Record<string, unknown>][] = [
      ['GET', '/api/admin/support/conversations', {}],
      ['GET', '/api/admin/support/history', { user_id: user.id }],
      ['POST', '/api/admin/support/send', { user_id: user.id, body: 'x' }],
      ['GET', '/api/admin/feedback/list', {}],
      ['POST', '/api/admin/feedback/resolve', { id: 1 }],
    ];
    for (const [method, url, params] of calls) {
      expect((await call(t, method, url, params)).code, url).toBe(999);
      expect((await call(t, method, url, params, { token: user.token })).code, url).toBe(999);
      expect((await call(t, method, url, params, { token: content })).code, url).toBe(1003);
    }
    expect(await t.ctx.db.select().from(chatMessages).where(eq(chatMessages.userId, user.id))).toEqual([]);
  });
});
