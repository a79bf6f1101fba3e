import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPANY_COOKIE_MAX_AGE_S } from '@tp/contract/constants';
import { call, createTestApp, dbTargets, type TestApp } from '../../../test/test-app.ts';
import { company, news, settings, staff, staffAuditLog } from '../../platform/db/schema.ts';
import { seedCompany, seedNews, seedNewsTexts, seedSettings } from '../../platform/db/seed-data.ts';
import { insertUser } from '../auth/user-repository.ts';
import { BusChannels } from '../../platform/bus-channels.ts';

describe.each(dbTargets)('content on %s', (target) => {
  let t: TestApp;
  let editor: string;
  beforeAll(async () => {
    t = await createTestApp(target);
    editor = await staffToken(['content']);
  });
  afterAll(async () => t?.close());

  const staffToken = async (roles: string[]) => {
    const [row] = await t.ctx.db
      .insert(staff)
      .values({ email: `s${Math.random()}@staff.test`, name: 'Staff', passwordHash: 'x', roles })
      .returning();
    return t.ctx.services.sessions.create({ staffId: row!.id });
  };
  const traderToken = async () => {
    const u = await insertUser(t.ctx.db, { email: `c${Math.random()}@example.com` });
    return t.ctx.services.sessions.create({ userId: u.id });
  };
  const auditOf = (action: string) => t.ctx.db.select().from(staffAuditLog).where(eq(staffAuditLog.action, action));

  it('lists published news of a category, newest first, with paging', async () => {
    await t.ctx.db.insert(news).values([
      { title: 'Hidden draft', content: '<p>d</p>', published: false },
      { title: 'Other category', content: '<p>o</p>', categoryId: 2 },
      { title: 'Fresh story', desc: 'Summary', logo: '/news/1.svg', content: '<p>f</p>' },
    ]);
    const first = await call(t, 'GET', '/api/news/list', { page: 1, limit: 2 });
    expect(first.code).toBe(1);
    const seeded = (await t.ctx.db.select().from(news).where(eq(news.published, true))).filter((n) => n.categoryId === 1).length;
    expect(first.data.total).toBe(seeded);
    expect(first.data.data).toHaveLength(2);
    expect(first.data.data[0]).toEqual({
      id: expect.any(Number),
      title: 'Fresh story',
      desc: 'Summary',
      logo: '/news/1.svg',
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    const all = await call(t, 'GET', '/api/news/list', { limit: 50 });
    const titles = all.data.data.map((n: { title: string }) => n.title);
    expect(titles).not.toContain('Hidden draft');
    expect(titles).not.toContain('Other category');
    const times = all.data.data.map((n: { created_at: string }) => n.created_at);
    expect([...times].sort().reverse()).toEqual(times);
    const second = await call(t, 'GET', '/api/news/list', { page: 2, limit: 2 });
    expect(second.data.data[0].id).toBe(all.data.data[2].id);
    const other = await call(t, 'GET', '/api/news/list', { category_id: 2 });
    expect(other.data.data.map((n: { title: string }) => n.title)).toEqual(['Other category']);
  });

  it('serves news content sanitized even when the stored HTML is dirty', async () => {
    const dirty =
      '<p onclick="alert(1)">Hi<script>alert(2)</script> <a href="javascript:alert(3)">x</a> <img src=x onerror=alert(4)><a href="https://ok.example">ok</a></p>';
    const [row] = await t.ctx.db.insert(news).values({ title: 'Dirty', content: dirty }).returning();
    const res = await call(t, 'GET', '/api/news/info', { id: row!.id });
    expect(res.code).toBe(1);
    expect(res.data).toMatchObject({ id: row!.id, title: 'Dirty', desc: '', logo: '' });
    expect(res.data.content).toBe('<p>Hi x <a href="https://ok.example" rel="noopener noreferrer nofollow">ok</a></p>');
    const [draft] = await t.ctx.db.insert(news).values({ title: 'Draft', content: 'x', published: false }).returning();
    expect((await call(t, 'GET', '/api/news/info', { id: draft!.id }, { lang: 'en' })).msg).toMatch(/does not exist/);
    expect((await call(t, 'GET', '/api/news/info', { id: 999_999 })).code).toBe(1004);
    expect((await call(t, 'GET', '/api/news/info', { id: 'abc' })).code).toBe(1001);
  });

  it('lets content staff create, edit and delete news, sanitized on write and audited', async () => {
    const saved = await call(
      t,
      'POST',
      '/api/admin/news/save',
      {
        title: '  Market update ',
        desc: 'Gold',
        logo: '/news/2.svg',
        content: '<h2 style="x">Gold</h2><iframe src="//evil"></iframe><p>up <b onmouseover=alert(1)>2%</b></p>',
        published: '0',
      },
      { token: editor },
    );
    expect(saved.code).toBe(1);
    expect(saved.data).toMatchObject({
      title: 'Market update',
      published: false,
      category_id: 1,
      content: '<h2>Gold</h2><p>up <b>2%</b></p>',
    });
    const [stored] = await t.ctx.db.select().from(news).where(eq(news.id, saved.data.id));
    expect(stored!.content).toBe('<h2>Gold</h2><p>up <b>2%</b></p>');
    expect((await call(t, 'GET', '/api/news/info', { id: saved.data.id })).code).toBe(1004);

    const listed = await call(t, 'GET', '/api/admin/news/list', { limit: 50 }, { token: editor });
    expect(listed.data.data.find((n: { id: number }) => n.id === saved.data.id)).toMatchObject({ published: false });

    const edited = await call(
      t,
      'POST',
      '/api/admin/news/save',
      { id: saved.data.id, title: 'Market update 2', content: '<p>v2</p>', published: 1 },
      { token: editor, json: true },
    );
    expect(edited.data).toMatchObject({ id: saved.data.id, title: 'Market update 2', published: true });
    expect((await call(t, 'GET', '/api/news/info', { id: saved.data.id })).data.content).toBe('<p>v2</p>');

    const bad = await call(
      t,
      'POST',
      '/api/admin/news/save',
      { title: 'x', content: '<p>x</p>', logo: 'javascript:alert(1)' },
      { token: editor, lang: 'en' },
    );
    expect(bad).toMatchObject({ code: 1001, msg: expect.stringMatching(/http/) });
    const empty = await call(
      t,
      'POST',
      '/api/admin/news/save',
      { title: 'x', content: '<script>only</script>' },
      { token: editor, lang: 'en' },
    );
    expect(empty).toMatchObject({ code: 1001, msg: 'Please enter the content' });
    expect((await call(t, 'POST', '/api/admin/news/save', { content: '<p>x</p>' }, { token: editor, lang: 'en' })).msg).toBe(
      'Please enter a title',
    );
    expect((await call(t, 'POST', '/api/admin/news/save', { id: 999_999, title: 'x', content: 'x' }, { token: editor })).code).toBe(1004);

    expect((await call(t, 'POST', '/api/admin/news/delete', { id: saved.data.id }, { token: editor })).code).toBe(1);
    expect((await call(t, 'POST', '/api/admin/news/delete', { id: saved.data.id }, { token: editor })).code).toBe(1004);
    expect((await call(t, 'GET', '/api/news/info', { id: saved.data.id })).code).toBe(1004);

    const created = (await auditOf('news.create')).find((a) => a.targetId === String(saved.data.id));
    expect(created).toBeDefined();
    expect((await auditOf('news.update')).find((a) => a.targetId === String(saved.data.id))?.before).toMatchObject({
      title: 'Market update',
    });
    expect((await auditOf('news.delete')).find((a) => a.targetId === String(saved.data.id))?.before).toMatchObject({
      title: 'Market update 2',
    });
  });

  it("serves news in the reader's language, falling back to English only where staff left a language empty", async () => {
    const saved = await call(
      t,
      'POST',
      '/api/admin/news/save',
      {
        title: 'Oil rallies',
        desc: 'Brent up',
        content: '<p>Oil is up.</p>',
        translations: {
          ar: { title: 'النفط يرتفع', desc: 'برنت يصعد', content: '<p onclick="x()">النفط يرتفع.</p><script>alert(1)</script>' },
          jp: { title: '原油が上昇', desc: '', content: '' },
          hk: { title: '', desc: '', content: '<script>only</script>' },
        },
      },
      { token: editor, json: true },
    );
    expect(saved.code).toBe(1);
    // Stored sanitized; a language whose fields are all empty (after sanitizing) is not stored.
    expect(saved.data.translations).toEqual({
      ar: { title: 'النفط يرتفع', desc: 'برنت يصعد', content: '<p>النفط يرتفع.</p>' },
      jp: { title: '原油が上昇', desc: '', content: '' },
    });
    const id = saved.data.id as number;
    const listed = (lang: string) =>
      call(t, 'GET', '/api/news/list', { limit: 50 }, { lang }).then((r) => r.data.data.find((n: { id: number }) => n.id === id));
    const info = (lang: string) => call(t, 'GET', '/api/news/info', { id }, { lang }).then((r) => r.data);

    // A user in ar gets the Arabic text; the list and detail keep their shapes.
    expect(await listed('ar')).toEqual({ id, title: 'النفط يرتفع', desc: 'برنت يصعد', logo: '', created_at: expect.any(String) });
    expect(await info('ar')).toEqual({
      id,
      title: 'النفط يرتفع',
      desc: 'برنت يصعد',
      logo: '',
      content: '<p>النفط يرتفع.</p>',
      created_at: expect.any(String),
    });
    // Field by field: the Japanese title, the English summary and body staff left empty.
    expect(await info('jp')).toMatchObject({ title: '原油が上昇', desc: 'Brent up', content: '<p>Oil is up.</p>' });
    // No text in hk (nor for a language staff never touched): English.
    expect(await info('hk')).toMatchObject({ title: 'Oil rallies', desc: 'Brent up', content: '<p>Oil is up.</p>' });
    expect(await listed('de')).toMatchObject({ title: 'Oil rallies', desc: 'Brent up' });
    expect(await info('en')).toMatchObject({ title: 'Oil rallies' });

    // Staff see the English reference and every stored language; saving replaces the translations.
    const staffView = await call(t, 'GET', '/api/admin/news/info', { id }, { token: editor });
    expect(staffView.data).toMatchObject({
      title: 'Oil rallies',
      translations: { ar: { title: 'النفط يرتفع' }, jp: { title: '原油が上昇' } },
    });
    expect(
      (await call(t, 'GET', '/api/admin/news/list', { limit: 50 }, { token: editor, lang: 'ar' })).data.data.find(
        (n: { id: number }) => n.id === id,
      ),
    ).toMatchObject({
      title: 'Oil rallies',
    });
    const cleared = await call(
      t,
      'POST',
      '/api/admin/news/save',
      { id, title: 'Oil rallies', content: '<p>Oil is up.</p>', translations: { ar: { title: '', desc: '', content: '' } } },
      { token: editor, json: true },
    );
    expect(cleared.data.translations).toEqual({});
    expect(await info('ar')).toMatchObject({ title: 'Oil rallies', content: '<p>Oil is up.</p>' });
    expect((await auditOf('news.update')).find((a) => a.targetId === String(id))?.before).toMatchObject({
      translations: [expect.objectContaining({ lang: 'ar' }), expect.objectContaining({ lang: 'jp' })],
    });
    const tooLong = await call(
      t,
      'POST',
      '/api/admin/news/save',
      { title: 'x', content: '<p>x</p>', translations: { ar: { title: 'x'.repeat(201) } } },
      { token: editor, json: true },
    );
    expect(tooLong.code).toBe(1001);
    const unknownLang = await call(
      t,
      'POST',
      '/api/admin/news/save',
      { title: 'x', content: '<p>x</p>', translations: { en: { title: 'x' } } },
      { token: editor, json: true },
    );
    expect(unknownLang.code).toBe(1001);
  });

  it('seeds every news item and the notice in all 18 languages', async () => {
    const [first] = seedNews;
    const [row] = await t.ctx.db.select().from(news).where(eq(news.title, first!.title));
    for (const [lang, texts] of Object.entries(seedNewsTexts)) {
      expect(texts).toHaveLength(seedNews.length);
      for (const text of texts) {
        expect(text.title && text.desc && text.content, lang).toBeTruthy();
        expect(
          seedNews.map((n) => n.title),
          lang,
        ).not.toContain(text.title);
      }
      const served = await call(t, 'GET', '/api/news/info', { id: row!.id }, { lang });
      expect(served.data, lang).toMatchObject({ title: texts[0]!.title, desc: texts[0]!.desc, content: texts[0]!.content });
      const notice = (await call(t, 'GET', '/api/announcement', {}, { lang })).data.notice;
      expect(notice, lang).toBe(seedSettings[`announcement_${lang}`]);
      expect(notice, lang).not.toBe(seedSettings.announcement);
    }
    expect(Object.keys(seedNewsTexts).sort()).toEqual([
      'ar',
      'cs',
      'de',
      'fr',
      'hi',
      'hk',
      'id',
      'it',
      'jp',
      'kr',
      'my',
      'pt',
      'ru',
      'spa',
      'th',
      'tr',
      'vn',
    ]);
  });

  it("serves the staff notice in the reader's language, in English where staff left that language empty", async () => {
    const save = (values: Record<string, string>) => call(t, 'POST', '/api/admin/settings/save', values, { token: editor, json: true });
    expect((await save({ announcement: 'Closed on Friday.', announcement_ar: 'مغلق يوم الجمعة.', announcement_hk: '' })).code).toBe(1);
    expect((await call(t, 'GET', '/api/announcement', {}, { lang: 'ar' })).data.notice).toBe('مغلق يوم الجمعة.');
    expect((await call(t, 'GET', '/api/announcement', {}, { lang: 'hk' })).data.notice).toBe('Closed on Friday.');
    expect((await call(t, 'GET', '/api/announcement', {}, { lang: 'en' })).data.notice).toBe('Closed on Friday.');
    expect((await call(t, 'GET', '/api/admin/settings', {}, { token: editor })).data).toMatchObject({
      announcement_ar: 'مغلق يوم الجمعة.',
      announcement_hk: '',
    });
    expect((await save({ announcement_en: 'x' })).code).toBe(1001);
    await save({ ...Object.fromEntries(Object.entries(seedSettings).filter(([k]) => k.startsWith('announcement'))) });
  });

  it('gives the main company by default and remembers a chosen one in a 3-year cookie', async () => {
    const main = await call(t, 'GET', '/api/company/getCompany');
    expect(main.data).toEqual({
      id: expect.any(Number),
      name: seedCompany.name,
      logo: seedCompany.logo,
      url: seedCompany.url,
      subject: seedCompany.subject,
      registered_address: seedCompany.registeredAddress,
      location: seedCompany.location,
      email: seedCompany.email,
    });
    const [other] = await t.ctx.db
      .insert(company)
      .values({ name: 'Southwind Capital (Europe) Ltd.', email: 'help@southwind.example' })
      .returning();
    const res = await t.app.inject({ method: 'GET', url: `/api/company/getCompany?id=${other!.id}&t=1` });
    expect(res.json().data).toMatchObject({ id: other!.id, name: 'Southwind Capital (Europe) Ltd.' });
    expect(res.headers['set-cookie']).toBe(`company_id=${other!.id}; Max-Age=${COMPANY_COOKIE_MAX_AGE_S}; Path=/; SameSite=Lax`);
    expect(COMPANY_COOKIE_MAX_AGE_S).toBe(3 * 365 * 86_400);

    const cookie = { cookie: `lang=en; company_id=${other!.id}` };
    const remembered = await t.app.inject({ method: 'GET', url: '/api/company/getCompany', headers: cookie });
    expect(remembered.json().data.id).toBe(other!.id);
    expect(remembered.headers['set-cookie']).toBeUndefined();
    const email = await t.app.inject({ method: 'GET', url: '/api/company/getSupportEmail', headers: cookie });
    expect(email.json().data).toEqual({ email: 'help@southwind.example' });
    expect((await call(t, 'GET', '/api/company/getSupportEmail')).data).toEqual({ email: seedCompany.email });

    const unknown = await t.app.inject({ method: 'GET', url: '/api/company/getCompany?id=999999' });
    expect(unknown.json().data.id).toBe(main.data.id);
    expect(unknown.headers['set-cookie']).toBeUndefined();
  });

  it('searches companies by name, case-insensitively, without wildcard injection', async () => {
    await t.ctx.db.insert(company).values([{ name: 'Eastplatform Markets' }, { name: '100% Trading_Co' }]);
    const res = await call(t, 'GET', '/api/company/search', { name: 'PLATFORM' });
    expect(res.data.data.map((c: { name: string }) => c.name).sort()).toEqual(['Eastplatform Markets', seedCompany.name].sort());
    expect(res.data.total).toBe(2);
    expect((await call(t, 'GET', '/api/company/search', { name: '%' })).data.data.map((c: { name: string }) => c.name)).toEqual([
      '100% Trading_Co',
    ]);
    expect((await call(t, 'GET', '/api/company/search', { name: 'g_c' })).data.total).toBe(1);
    expect((await call(t, 'GET', '/api/company/search', { name: 'o_w' })).data.total).toBe(0);
    expect(res.data.data[0]).not.toHaveProperty('status');
  });

  it('reports the main-mode status and loss_url, changed by staff and audited', async () => {
    expect((await call(t, 'GET', '/api/company/getCompanyStatus')).data).toEqual({ status: 0, loss_url: '' });
    const main = (await call(t, 'GET', '/api/company/getCompany')).data;
    const refused = await call(t, 'POST', '/api/admin/company/save', { ...main, status: 1, is_main: 1 }, { token: editor, lang: 'en' });
    expect(refused.code).toBe(1001);
    const saved = await call(
      t,
      'POST',
      '/api/admin/company/save',
      { ...main, status: 2, loss_url: 'https://elsewhere.example/', is_main: 1 },
      { token: editor },
    );
    expect(saved.code).toBe(1);
    expect((await call(t, 'GET', '/api/company/getCompanyStatus')).data).toEqual({ status: 2, loss_url: 'https://elsewhere.example/' });
    const audit = (await auditOf('company.update')).find((a) => a.targetId === String(main.id));
    expect(audit?.before).toMatchObject({ status: 0 });
    expect(audit?.after).toMatchObject({ status: 2 });
    expect((await call(t, 'POST', '/api/admin/company/save', { ...main, is_main: 0 }, { token: editor })).code).toBe(1001);

    const created = await call(
      t,
      'POST',
      '/api/admin/company/save',
      { name: 'New Main Ltd.', email: 'x@new.example', is_main: 1 },
      { token: editor },
    );
    expect(created.data).toMatchObject({ name: 'New Main Ltd.', is_main: true, status: 0 });
    expect((await call(t, 'GET', '/api/company/getCompany')).data.name).toBe('New Main Ltd.');
    expect((await call(t, 'POST', '/api/admin/company/save', { name: 'x', email: 'not-an-email' }, { token: editor })).code).toBe(1001);
    expect((await call(t, 'POST', '/api/admin/company/save', { name: 'x', url: 'javascript:alert(1)' }, { token: editor })).code).toBe(
      1001,
    );
    await call(t, 'POST', '/api/admin/company/save', { ...main, status: 0, loss_url: '', is_main: 1 }, { token: editor });
    expect((await call(t, 'GET', '/api/company/getCompany')).data.id).toBe(main.id);
    const mains = await t.ctx.db.select().from(company).where(eq(company.isMain, true));
    expect(mains.map((c) => c.id)).toEqual([main.id]);
  });

  it('answers the announcement translated, naming the four excluded countries, with the company', async () => {
    for (const url of ['/api/default/announcement', '/api/announcement']) {
      const en = await call(t, 'GET', url, {}, { lang: 'en' });
      expect(en.data.announcement).toBe('We do not provide services to residents of North Korea, China, Vanuatu or Cuba.');
      expect(en.data.excluded_countries).toEqual(['North Korea', 'China', 'Vanuatu', 'Cuba']);
      expect(en.data.company).toMatchObject({ name: expect.any(String), email: expect.any(String) });
      expect(en.data.notice).toMatch(/North Korea/);
      const hk = await call(t, 'GET', url, {}, { lang: 'hk' });
      expect(hk.data.announcement).toBe('我們不向北韓、中國、瓦努阿圖或古巴的居民提供服務。');
      expect(hk.data.excluded_countries).toEqual(['北韓', '中國', '瓦努阿圖', '古巴']);
    }
  });

  it('stores only https, mailto and relative links; http only once staff allow it (issue 17, finding 4)', async () => {
    const save = (values: Record<string, unknown>, url = '/api/admin/settings/save') =>
      call(t, 'POST', url, values, { token: editor, lang: 'en', json: true });
    const refusals: [Record<string, unknown>, string][] = [
      [{ service_link: 'javascript:alert(document.cookie)' }, 'Enter a link that starts with https://, mailto: or /'],
      [{ service_link: ' JavaScript:alert(1)' }, 'Enter a link that starts with https://, mailto: or /'],
      [{ service_link: 'data:text/html,<script>alert(1)</script>' }, 'Enter a link that starts with https://, mailto: or /'],
      [{ service_link: '//evil.example' }, 'Enter a link that starts with https://, mailto: or /'],
      [{ service_link: 'http://help.example' }, 'Links starting with http:// are switched off; use https://'],
    ];
    for (const [values, msg] of refusals) expect([values, await save(values)]).toMatchObject([values, { code: 1001, msg }]);
    const company = await call(
      t,
      'POST',
      '/api/admin/company/save',
      { name: 'Plain Ltd', url: 'http://plain.example' },
      { token: editor, lang: 'en' },
    );
    expect(company).toMatchObject({ code: 1001, msg: 'Links starting with http:// are switched off; use https://' });
    for (const link of ['https://help.example/chat', 'mailto:help@example.com', '/mine/chat']) {
      expect((await save({ service_link: link })).data.service_link).toBe(link);
    }
    expect((await save({ allow_http_links: '1', service_link: 'http://help.example' })).data).toMatchObject({
      allow_http_links: '1',
      service_link: 'http://help.example',
    });
    // A bare support address counts as mailto: (the seeded value).
    expect((await save({ allow_http_links: '0', service_link: 'support@tradeplatform.example' })).code).toBe(1);
  });

  it('saves whitelisted settings by role, refuses others, audits and announces the change', async () => {
    const risk = await staffToken(['risk']);
    const seen: unknown[] = [];
    const off = t.ctx.bus.subscribe(BusChannels.settingsChanged, (m) => seen.push(m));
    // Captcha-only registration (anyone may open accounts without an address) is the admin's call, not content's.
    expect((await call(t, 'POST', '/api/admin/settings/save', { verify_reg_type: '2' }, { token: editor, json: true })).code).toBe(1003);
    const saved = await call(
      t,
      'POST',
      '/api/admin/settings/save',
      { verify_reg_type: '2', service_link_type: 3, service_link: 'https://help.example' },
      { token: await staffToken(['admin']), json: true },
    );
    expect(saved.code).toBe(1);
    expect(saved.data).toMatchObject({
      verify_reg_type: '2',
      service_link_type: '3',
      service_link: 'https://help.example',
      stop_out_level: '50',
    });
    expect(seen).toEqual([
      {
        keys: expect.arrayContaining(['verify_reg_type', 'service_link_type', 'service_link']),
        values: { verify_reg_type: '2', service_link_type: '3', service_link: 'https://help.example' },
      },
    ]);
    const audit = (await auditOf('settings.save')).at(-1)!;
    expect(audit.before).toEqual({ verify_reg_type: '1', service_link_type: '1', service_link: 'support@tradeplatform.example' });

    expect((await call(t, 'POST', '/api/admin/settings/save', { stop_out_level: '40' }, { token: editor })).code).toBe(1003);
    expect((await call(t, 'POST', '/api/admin/settings/save', { verify_reg_type: '1' }, { token: risk })).code).toBe(1003);
    // The fee type belongs to the risk role's fee calls (/api/admin/fees), never to the content settings.
    for (const token of [editor, risk]) {
      expect(await call(t, 'POST', '/api/admin/settings/save', { trade_fee_type: '2' }, { token, lang: 'en' })).toMatchObject({
        code: 1001,
        msg: 'The setting trade_fee_type cannot be changed here',
      });
    }
    expect(
      (await call(t, 'POST', '/api/admin/settings/save', { stop_out_level: '40', margin_call_level: '90' }, { token: risk })).code,
    ).toBe(1);
    const inverted = await call(t, 'POST', '/api/admin/settings/save', { stop_out_level: '95' }, { token: risk, lang: 'en' });
    expect(inverted).toMatchObject({ code: 1001, msg: 'The stop-out level must be below the margin call level' });
    expect((await call(t, 'POST', '/api/admin/settings/save', { demo_initial_balance: '1' }, { token: editor, lang: 'en' })).msg).toBe(
      'The setting demo_initial_balance cannot be changed here',
    );
    expect((await call(t, 'POST', '/api/admin/settings/save', { verify_reg_type: '9' }, { token: editor })).code).toBe(1001);
    expect((await call(t, 'POST', '/api/admin/settings/save', { stop_out_level: '-5' }, { token: risk })).code).toBe(1001);
    expect((await call(t, 'POST', '/api/admin/settings/save', {}, { token: editor })).code).toBe(1001);
    const rows = Object.fromEntries((await t.ctx.db.select().from(settings)).map((s) => [s.key, s.value]));
    expect(rows).toMatchObject({
      trade_fee_type: '1',
      verify_reg_type: '2',
      stop_out_level: '40',
      margin_call_level: '90',
      demo_initial_balance: '100000',
    });
    expect((await call(t, 'GET', '/api/admin/settings', {}, { token: risk })).data).toMatchObject({ stop_out_level: '40' });
    off();
  });

  it('serves an installable web manifest with PNG icons at the site origin', async () => {
    for (const url of ['/manifest.webmanifest', '/manifest.json']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/manifest\+json/);
      const m = res.json();
      expect(m).toMatchObject({
        name: expect.any(String),
        short_name: expect.any(String),
        start_url: '/',
        display: 'standalone',
        theme_color: '#0b0e11',
        background_color: '#0b0e11',
      });
      expect(m.short_name.length).toBeLessThanOrEqual(12);
      expect(m.icons.map((i: { sizes: string }) => i.sizes)).toEqual(['192x192', '512x512']);
      for (const icon of m.icons as { src: string; sizes: string }[]) {
        const png = await t.app.inject({ method: 'GET', url: icon.src });
        expect(png.statusCode).toBe(200);
        expect(png.headers['content-type']).toBe('image/png');
        const bytes = png.rawPayload;
        expect(bytes.subarray(1, 4).toString()).toBe('PNG');
        expect(`${bytes.readUInt32BE(16)}x${bytes.readUInt32BE(20)}`).toBe(icon.sizes);
      }
    }
  });

  it('refuses every back office content call to traders and to staff without the role', async () => {
    const trader = await traderToken();
    const support = await staffToken(['support']);
    const admin = await staffToken(['admin']);
    const calls: ['GET' | 'POST', string, Record<string, unknown>][] = [
      ['GET', '/api/admin/news/list', {}],
      ['GET', '/api/admin/news/info', { id: 1 }],
      ['POST', '/api/admin/news/save', { title: 'x', content: 'x' }],
      ['POST', '/api/admin/news/delete', { id: 1 }],
      ['GET', '/api/admin/company/list', {}],
      ['POST', '/api/admin/company/save', { name: 'x' }],
      ['GET', '/api/admin/settings', {}],
      ['POST', '/api/admin/settings/save', { is_show_mobile: '0' }],
    ];
    const before = await t.ctx.db.execute(sql`select (select count(*) from news)::int as n, (select count(*) from company)::int as c`);
    for (const [method, url, params] of calls) {
      expect((await call(t, method, url, params)).code, url).toBe(999);
      expect((await call(t, method, url, params, { token: trader })).code, url).toBe(999);
      expect((await call(t, method, url, params, { token: support })).code, url).toBe(1003);
    }
    const after = await t.ctx.db.execute(sql`select (select count(*) from news)::int as n, (select count(*) from company)::int as c`);
    expect((after as unknown as { rows: unknown[] }).rows).toEqual((before as unknown as { rows: unknown[] }).rows);
    expect((await call(t, 'GET', '/api/admin/news/list', {}, { token: admin })).code).toBe(1);
  });
});
