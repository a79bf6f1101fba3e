import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../apps/server/test/test-app.ts';
import { depositNetworks } from '../apps/server/src/platform/db/schema.ts';
import { pngFile, signedInPage } from './account-helpers.ts';
import { jsErrors, PHONE, startE2E, type E2E } from './harness.ts';

const POLL = { timeout: 15_000 };
const ADMIN = { email: 'admin@test.local', password: 'admin-password-1' };

/** Text without the bidi isolation marks the app puts around numbers. */
const plain = (text: string) => text.replace(/[\u2066-\u2069]/g, '');

/** Issue 36, defects 6 to 8, each in the built app in Chromium. */
describe('issue 36 defects (more)', () => {
  let e2e: E2E;
  let staffToken: string;

  beforeAll(async () => {
    e2e = await startE2E({ ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password });
    staffToken = (await call(e2e.server, 'POST', '/api/admin/login', ADMIN)).data.token;
  });
  afterAll(async () => e2e?.close());

  /** Uploads a real image as the trader, like the app's image picker does. */
  const upload = async (token: string) => {
    const file = await pngFile('proof.png', { r: 40, g: 140, b: 90 });
    const form = new FormData();
    form.append('file', new Blob([file.buffer], { type: file.mimeType }), file.name);
    const res = await fetch(`${e2e.baseUrl}/api/common/image_upload`, { method: 'POST', headers: { authorization: token }, body: form });
    return ((await res.json()) as { data: { url: string } }).data.url;
  };
  /** A USDT deposit claimed by the trader and approved by staff for `amount`. */
  const approvedDeposit = async (token: string, amount: string) => {
    const [network] = (await e2e.server.ctx.db.select().from(depositNetworks)).filter(
      (n) => n.currencyCode === 'USDT' && n.protocolCode === 'TRC20',
    );
    const claim = await call(
      e2e.server,
      'POST',
      '/api/quickCharge/submit',
      { number: amount, proofImg: await upload(token), charge_id: network!.id },
      { token },
    );
    expect(claim.code).toBe(1);
    const approved = await call(e2e.server, 'POST', '/api/admin/deposits/approve', { id: claim.data.id, amount }, { token: staffToken });
    expect(approved.code).toBe(1);
  };

  it('6. a deposit staff approve is in the trader’s notifications, pushed while the page is open (phone, en), in Arabic (phone, ar)', async () => {
    const { context, page, user } = await signedInPage(e2e, { device: PHONE, lang: 'en', verified: true });
    await page.goto('/mine/notifications');
    await page.getByText('No notifications yet', { exact: false }).waitFor();
    await approvedDeposit(user.token, '250');
    const list = page.getByRole('list', { name: 'Notifications' });
    // The NOTICE push refreshes the open list.
    await expect.poll(async () => plain(await list.innerText().catch(() => '')), POLL).toContain('Deposit approved: 250.00 USDT');
    await page.screenshot({ path: '/tmp/d2-notifications-phone-en.png' });
    expect(jsErrors(page)).toEqual([]);
    await context.close();

    const ar = await signedInPage(e2e, { device: PHONE, lang: 'ar', verified: true });
    await approvedDeposit(ar.user.token, '80.5');
    await ar.page.goto('/mine/notifications');
    const arList = ar.page.getByRole('list', { name: 'الإشعارات' });
    await expect.poll(async () => plain(await arList.innerText().catch(() => '')), POLL).toContain('تمت الموافقة على الإيداع: 80.50 USDT');
    expect(await ar.page.locator('html').getAttribute('dir')).toBe('rtl');
    await ar.page.screenshot({ path: '/tmp/d2-notifications-phone-ar.png' });
    expect(jsErrors(ar.page)).toEqual([]);
    await ar.context.close();
  });
});
